#!/usr/bin/env bash
# The OpenAPI document as Swift developers use it: generates a client from
# /api/openapi.json's source (Sources/TableServer/OpenAPI/openapi.json) with
# apple/swift-openapi-generator, builds it (Tests/openapi-client, its own
# .build), and runs it against a live server: every operation of the document,
# called with the generated types, its status and decoded body checked. Fails
# on any warning the generator prints (a schema it skips is a type a client
# cannot use) or the build prints, and on any failed check.
# Usage: scripts/test-openapi-client.sh path/to/webtableview
set -euo pipefail
binary=${1:-.build/debug/webtableview}
root="$(cd "$(dirname "$0")/.." && pwd)"
package="$root/Tests/openapi-client"
[ -x "$binary" ] || { echo "no binary at $binary (build first)" >&2; exit 2; }

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# The build: the generator's plugin runs when the document changed since the
# last build; the generator itself runs again below on every run.
start=$SECONDS
if ! swift build --package-path "$package" >"$logs/build.txt" 2>&1; then
  cat "$logs/build.txt"
  echo "openapi-client: the generated client does not build" >&2
  exit 1
fi
echo "openapi-client: built in $((SECONDS - start)) s"
bin=$(swift build --package-path "$package" --show-bin-path)

# Generation, every run, so that a warning is seen whether or not the build
# above had to generate.
"$bin/swift-openapi-generator-tool" generate "$package/Sources/OpenAPIClientCheck/openapi.json" \
  --config "$package/Sources/OpenAPIClientCheck/openapi-generator-config.yaml" \
  --output-directory "$logs/generated" >"$logs/generate.txt" 2>&1 \
  || { cat "$logs/generate.txt"; echo "openapi-client: generation failed" >&2; exit 1; }
if grep -hi 'warning:' "$logs/build.txt" "$logs/generate.txt"; then
  echo "openapi-client: the generator or the build printed the warnings above" >&2
  exit 1
fi

rm -rf "$logs"

# The server once the client is built: its demo tables, on a free port.
. "$(dirname "$0")/serve-demo.sh"
serve_demo "$binary"
timeout 120 "$bin/OpenAPIClientCheck" "$url"
