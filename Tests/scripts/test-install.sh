#!/usr/bin/env bash
# make install-files into a scratch PREFIX (with the debug binary, so that no
# release build is needed): the installed binary, run from elsewhere, finds its
# Templates and Public under PREFIX/share/webtableview, serves the OpenAPI
# document and the demo tables built into it, and says its version.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$here/.build/debug/webtableview}
work=$(mktemp -d)
pid=
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

make -s -C "$here" install-files PREFIX="$work/prefix" INSTALL_BIN="$binary" >/dev/null
for path in bin/webtableview share/webtableview/Templates/page.mustache share/webtableview/Public/tableview.css; do
  [ -e "$work/prefix/$path" ] || fail "PREFIX/$path was not installed"
done

version=$(cd / && "$work/prefix/bin/webtableview" --version)
[[ $version == "webtableview "* ]] || fail "--version printed '$version'"

(cd / && exec "$work/prefix/bin/webtableview" serve --port 0 >"$work/out" 2>"$work/err") &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/out")
if [ -z "$url" ]; then
  fail "the installed server did not start: $(cat "$work/err")"
else
  page=$(curl -s -o /dev/null -w '%{http_code}' "$url/tables/countries")
  [ "$page" = 200 ] || fail "GET /tables/countries answered $page: the templates were not found"
  style=$(curl -s -o /dev/null -w '%{http_code}' "$url/public/tableview.css")
  [ "$style" = 200 ] || fail "GET /public/tableview.css answered $style: the public files were not found"
  # The document and the demo tables are built in (the EmbedFiles plugin): no file of the checkout is read.
  curl -s "$url/api/openapi.json" | cmp -s - "$here/Sources/TableServer/OpenAPI/openapi.json" \
    || fail "GET /api/openapi.json is not Sources/TableServer/OpenAPI/openapi.json"
fi

[ "$failures" -eq 0 ] && echo "install: 4 passed, 0 failed"
[ "$failures" -eq 0 ]
