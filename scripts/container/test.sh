#!/usr/bin/env bash
# Builds the WebTableView image from the Dockerfile and runs it as an operator
# would, with podman (no Docker engine runs on the project's machines):
#   - hadolint finds no error in the Dockerfile and deploy/images/*.Containerfile
#   - the image builds from the local base images (scripts/container/setup.sh):
#     around BINARY when one is given (make test's own release build, with the
#     Swift runtime's shared libraries it was linked against), else compiled
#     from source in the builder stage, as `docker build .` does (minutes more
#     on two cores; docs/CONTAINER.md)
#   - the server starts as a non-root user, published on 127.0.0.1 only
#   - /healthz, a table as JSON and as HTML, one edit with the token from
#     WEBTABLEVIEW_TOKEN (refused without it), the image's HEALTHCHECK passes
#   - SIGTERM (podman stop) ends it promptly with exit code 0
#   - arguments add to the defaults: `IMAGE --data F --token-file T --port 9090`
#     still listens on 0.0.0.0, on 9090, and the HEALTHCHECK follows the port
#   - a journal on a named volume keeps the edits across a new container
#   - the replicated stack of deploy/compose.yaml (scripts/container/deploy-checks.sh)
# Removes the containers and the image it made, also on failure; keeps the base
# images and the build cache for the next run. Exits non-zero on any failure.
#
# Usage: scripts/container/test.sh [BINARY]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=scripts/container/common.sh
source "$here/common.sh"

started=$SECONDS
binary=${1:-}
tag="localhost/webtableview:test-$$"
runtime_tag="localhost/webtableview-runtime:test-$$"
demo="webtableview-test-$$"
mounted="webtableview-test-data-$$"
journaled="webtableview-test-journal-$$"
volume="webtableview-test-journal-$$"
token="container-test-token-$$"
work=$(mktemp -d)
passed=0
current=""  # the container whose output a failure report shows
base=""     # the URL of the running container

cleanup() {
  if declare -F deploy_down >/dev/null; then deploy_down; fi
  podman rm -f -t 0 "$demo" "$mounted" "$journaled" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  podman rmi -f "$tag" "$runtime_tag" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Reports the failure with the server's output, then exits (the trap cleans up).
fail() {
  printf '[container] FAILED: %s\n' "$*" >&2
  if [ -n "$current" ] && podman container exists "$current" 2>/dev/null; then
    printf '[container] output of %s:\n' "$current" >&2
    podman logs "$current" 2>&1 | tail -n 40 | sed 's/^/    /' >&2
  fi
  local said
  said=$(grep -sv 'systemd connection' "$work/podman.log" | tail -n 20 || true)
  [ -z "$said" ] || printf '[container] podman said:\n%s\n' "$said" | sed '2,$s/^/    /' >&2
  printf 'container-test: %d passed, 1 failed\n' "$passed"
  exit 1
}
pass() { passed=$((passed + 1)); log "ok: $*"; }

# podman with its messages kept for a failure report: without systemd (as on CI) it
# reports on every run, stop and health check that it cannot schedule health checks.
podman_quiet() { podman "$@" 2>>"$work/podman.log"; }

# wait_until_ready NAME [PORT]: waits until the container answers /healthz on its
# published PORT (default 8080); sets `base` to its URL.
wait_until_ready() {
  local name=$1 port=${2:-8080} address
  for _ in $(seq 1 120); do
    if [ "$(podman inspect -f '{{.State.Running}}' "$name")" != true ]; then
      fail "$name exited with $(podman inspect -f '{{.State.ExitCode}}' "$name") before it answered /healthz"
    fi
    address=$(podman port "$name" "$port/tcp" 2>/dev/null || true)
    case "$address" in
      127.0.0.1:*) base="http://$address" ;;
      *) fail "$name is published on '$address', not on 127.0.0.1" ;;
    esac
    curl -fsS -o /dev/null "$base/healthz" 2>/dev/null && return
    sleep 0.5
  done
  fail "$name did not answer /healthz within 60 s"
}

# curl_status OUT_FILE CURL_ARGS...: the response body goes to OUT_FILE, the status to stdout.
curl_status() {
  local out=$1
  shift
  curl -sS -o "$out" -w '%{http_code}' "$@" || echo "no-answer"
}

# json_field FILE EXPRESSION: evaluates EXPRESSION (Python, over `doc`) on the JSON in FILE.
json_field() {
  python3 -c 'import json, sys; doc = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null \
    || echo "not-json"
}

"$here/setup.sh" ${binary:+--runtime-only} || fail "setup did not finish"

"$HADOLINT" --failure-threshold error "$root/Dockerfile" "$root"/deploy/images/*.Containerfile \
  || fail "hadolint reports errors in the Dockerfile or deploy/images/"
pass "hadolint finds no error in the Dockerfile and deploy/images/"

build_started=$SECONDS
# --format docker keeps the HEALTHCHECK (OCI images have none); --layers=false keeps
# no intermediate images, so removing the tags removes all that the builds made.
build() { podman build --pull=never --format docker --layers=false "$@" >>"$work/build.log" 2>&1; }
images=(--build-arg "SWIFT_IMAGE=$BUILDER_IMAGE" --build-arg "RUNTIME_IMAGE=$BASE_IMAGE")
if [ -n "$binary" ]; then
  [ -x "$binary" ] || fail "no release binary at $binary (make release)"
  made="around the release binary $binary"
  log "building $tag $made"
  # The Dockerfile's runtime stage alone (its builder stage is not run), then the
  # binary, stripped as the builder strips its own, and what the runtime image
  # lacks of what it was linked against: the Swift runtime's shared libraries
  # (the builder links them in statically), in the toolchain folder its RUNPATH names.
  mkdir -p "$work/binary/swift"
  strip --strip-debug -o "$work/binary/webtableview" "$binary"
  ldd "$binary" >"$work/ldd.txt" || fail "ldd cannot read $binary"
  if grep -q 'not found' "$work/ldd.txt"; then
    fail "$binary needs libraries this machine lacks: $(grep 'not found' "$work/ldd.txt")"
  fi
  swift_libraries=$(awk -v toolchain="$SWIFT_TOOLCHAIN/" 'index($3, toolchain) == 1 { print $3 }' "$work/ldd.txt")
  [ -n "$swift_libraries" ] || fail "$binary names no library of the toolchain at $SWIFT_TOOLCHAIN"
  # shellcheck disable=SC2086 # one path a line, none with spaces (the toolchain's)
  cp $swift_libraries "$work/binary/swift/"
  swift_folder=$(dirname "$(echo "$swift_libraries" | head -n 1)")
  printf 'FROM %s\nCOPY swift/ %s/\nCOPY webtableview /usr/local/bin/webtableview\n' "$runtime_tag" "$swift_folder" \
    >"$work/binary.Containerfile"
  if ! build "${images[@]}" --target runtime -t "$runtime_tag" "$root" \
    || ! build -f "$work/binary.Containerfile" -t "$tag" "$work/binary"; then
    tail -n 60 "$work/build.log" >&2
    fail "the image did not build"
  fi
else
  made="from source"
  log "building $tag $made"
  if ! build "${images[@]}" "${builder_volumes[@]}" -t "$tag" "$root"; then
    tail -n 60 "$work/build.log" >&2
    fail "the image did not build"
  fi
fi
pass "image built $made in $((SECONDS - build_started)) s"

[ "$(podman image inspect -f '{{.Config.User}}' "$tag")" = "10001:10001" ] || fail "the image does not run as user 10001"
podman image inspect -f '{{.HealthCheck}}' "$tag" | grep -q webtableview-healthcheck || fail "the image has no HEALTHCHECK (webtableview-healthcheck)"
size=$(podman image inspect -f '{{.Size}}' "$tag")
pass "image runs as a non-root user and has a health check; size $((size / 1000000)) MB"

# The demo tables, with the edit token from the environment.
current=$demo
podman_quiet run -d --name "$demo" -p 127.0.0.1::8080 -e "WEBTABLEVIEW_TOKEN=$token" "$tag" >/dev/null \
  || fail "the container did not start"
wait_until_ready "$demo"
[ "$(podman exec "$demo" id -u)" = 10001 ] || fail "the server does not run as user 10001"
podman logs "$demo" 2>/dev/null | head -n 1 | grep -qx 'listening on http://0.0.0.0:8080' \
  || fail "the first line of output is not 'listening on http://0.0.0.0:8080'"
pass "server listens on 0.0.0.0:8080 inside, published on ${base#http://}"

status=$(curl_status "$work/table.json" "$base/api/tables/countries")
[ "$status" = 200 ] || fail "GET /api/tables/countries answered $status"
[ "$(json_field "$work/table.json" 'doc["id"]')" = countries ] || fail "GET /api/tables/countries is not the countries table"
pass "GET /api/tables/countries is the table as JSON"

status=$(curl_status "$work/table.html" "$base/tables/countries")
[ "$status" = 200 ] || fail "GET /tables/countries answered $status"
grep -q 'data-table="countries"' "$work/table.html" || fail "GET /tables/countries has no <table data-table=\"countries\">"
pass "GET /tables/countries is the table as HTML"

edit="$base/api/tables/countries/sections/0/rows/0"
status=$(curl_status "$work/refused.json" -X DELETE "$edit")
[ "$status" = 401 ] || fail "DELETE without the token answered $status, not 401"
status=$(curl_status "$work/edit.json" -X DELETE -H "Authorization: Bearer $token" "$edit")
[ "$status" = 200 ] || fail "DELETE with the token answered $status"
[ "$(json_field "$work/edit.json" 'doc["version"]')" = 1 ] || fail "DELETE did not answer version 1: $(cat "$work/edit.json")"
pass "an edit needs the token from WEBTABLEVIEW_TOKEN, and applies with it"

podman_quiet healthcheck run "$demo" >/dev/null || fail "the image's HEALTHCHECK does not pass"
pass "HEALTHCHECK passes"

stop_started=$SECONDS
podman_quiet stop -t 10 "$demo" >/dev/null || fail "podman stop failed"
exit_code=$(podman inspect -f '{{.State.ExitCode}}' "$demo")
[ "$exit_code" = 0 ] || fail "after SIGTERM the server exited with $exit_code, not 0"
pass "SIGTERM stops it with exit code 0 in $((SECONDS - stop_started)) s"
podman_quiet rm -f "$demo" >/dev/null

# A mounted table file, with the edit token from a mounted file, on another port: the
# arguments add to the image's defaults (0.0.0.0 stays), and the health check follows.
cat >"$work/tables.json" <<'JSON'
{
  "id": "inventory",
  "title": "Inventory",
  "style": "grouped",
  "sections": [
    { "id": "fruit", "header": "Fruit", "rows": [ { "id": "apple", "text": "Apple" }, { "id": "pear", "text": "Pear" } ] }
  ]
}
JSON
printf '%s\n' "$token" >"$work/token"
chmod 0644 "$work/tables.json" "$work/token"
current=$mounted
podman_quiet run -d --name "$mounted" -p 127.0.0.1::9090 \
  -v "$work/tables.json:/data/tables.json:ro" -v "$work/token:/run/secrets/webtableview-token:ro" \
  "$tag" --data /data/tables.json --token-file /run/secrets/webtableview-token --port 9090 \
  >/dev/null || fail "the container with a mounted table did not start"
wait_until_ready "$mounted" 9090
podman logs "$mounted" 2>/dev/null | head -n 1 | grep -qx 'listening on http://0.0.0.0:9090' \
  || fail "with arguments, the first line of output is not 'listening on http://0.0.0.0:9090'"
pass "arguments add to the defaults: still 0.0.0.0, on the --port given"
podman_quiet healthcheck run "$mounted" >/dev/null || fail "the HEALTHCHECK does not follow --port 9090"
pass "HEALTHCHECK follows the port"
status=$(curl_status "$work/inventory.json" "$base/api/tables/inventory")
[ "$status" = 200 ] || fail "GET /api/tables/inventory (mounted with --data) answered $status"
[ "$(json_field "$work/inventory.json" 'doc["sections"][0]["rows"][1]["text"]')" = Pear ] \
  || fail "the mounted table is not served as written: $(cat "$work/inventory.json")"
edit="$base/api/tables/inventory/sections/0/rows/0"
status=$(curl_status "$work/refused.json" -X DELETE "$edit")
[ "$status" = 401 ] || fail "DELETE without the token from --token-file answered $status, not 401"
status=$(curl_status "$work/edit.json" -X DELETE -H "Authorization: Bearer $token" "$edit")
[ "$status" = 200 ] || fail "DELETE with the token from --token-file answered $status"
pass "a mounted table is served with --data; edits need the token from --token-file"
podman_quiet rm -f -t 10 "$mounted" >/dev/null || fail "podman rm failed"

# A journal on a named volume (docs/CONTAINER.md): an edit survives a new container.
current=$journaled
run_journaled() {
  podman_quiet run -d --name "$journaled" -p 127.0.0.1::8080 -e "WEBTABLEVIEW_TOKEN=$token" \
    -v "$volume:/var/lib/webtableview" "$tag" --journal /var/lib/webtableview >/dev/null \
    || fail "the container with a journal on a volume did not start"
  wait_until_ready "$journaled"
}
run_journaled
status=$(curl_status "$work/edit.json" -X DELETE -H "Authorization: Bearer $token" "$base/api/tables/countries/sections/0/rows/0")
[ "$status" = 200 ] || fail "DELETE with a journal on a volume answered $status"
podman_quiet stop -t 10 "$journaled" >/dev/null && podman_quiet rm "$journaled" >/dev/null || fail "podman stop failed"
run_journaled
status=$(curl_status "$work/table.json" "$base/api/tables/countries")
[ "$status" = 200 ] || fail "GET /api/tables/countries from the journal answered $status"
[ "$(json_field "$work/table.json" 'doc["version"]')" = 1 ] \
  || fail "a new container on the same volume does not serve version 1: $(head -c 200 "$work/table.json")"
pass "a journal on a named volume keeps edits across containers"
podman_quiet rm -f -t 10 "$journaled" >/dev/null
current=""

# The replicated stack (deploy/compose.yaml): PostgreSQL, three replicas, nginx.
# shellcheck source=scripts/container/deploy-checks.sh
source "$here/deploy-checks.sh"

log "image size: $((size / 1000000)) MB ($size bytes); the test took $((SECONDS - started)) s"
printf 'container-test: %d passed, 0 failed\n' "$passed"
