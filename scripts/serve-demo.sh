# Sourced by the scripts that test a running server: starts BINARY serving the
# demo tables on a free loopback port, stopped (and its folder removed) on exit.
# Sets `work` (a scratch folder), `pid` and `url` (http://127.0.0.1:PORT).
# Usage: . scripts/serve-demo.sh; serve_demo path/to/webtableview [serve options...]
serve_demo() {
  local binary=$1
  shift
  work=$(mktemp -d)
  "$binary" serve --port 0 "$@" >"$work/out" 2>"$work/err" &
  pid=$!
  trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
  for _ in $(seq 100); do grep -q listening "$work/out" && break; sleep 0.1; done
  url=$(sed -n 's/^listening on //p' "$work/out")
  [ -n "$url" ] || { echo "server did not start"; cat "$work/err"; exit 1; }
}
