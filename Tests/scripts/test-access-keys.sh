#!/usr/bin/env bash
# deploy/access/keys.sh and token.sh against the server: a token they mint is
# accepted by `serve --jwks` with the deployment's policy, refused once expired
# or when its payload is changed, and the scripts refuse bad arguments.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
binary=${1:-$here/.build/debug/webtableview}
work=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
failures=0 passed=0
check() { if [ "$2" = "$3" ]; then passed=$((passed + 1)); else echo "FAIL: $1: $2, expected $3"; failures=$((failures + 1)); fi; }

"$here/deploy/access/keys.sh" "$work/keys" >/dev/null
check "the signing key is private" "$(stat -c %a "$work/keys/signing-key.pem")" 600
mint() { "$here/deploy/access/token.sh" "$work/keys/signing-key.pem" deploy-1 "$@"; }

"$binary" serve --host 127.0.0.1 --port 0 --access-policy "$here/deploy/access/policy.json" \
  --jwks "$work/keys/jwks.json" --jwt-audience webtableview >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 100); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/out")
[ -n "$url" ] || { echo "FAIL: the server did not start: $(cat "$work/err")"; exit 1; }
status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

reader=$(mint '{"sub":"ana","roles":["reader"],"aud":"webtableview"}')
editor=$(mint '{"sub":"ed","roles":["editor"],"aud":"webtableview"}')
check "anonymous read" "$(status "$url/api/tables/countries")" 401
check "reader's read" "$(status -H "Authorization: Bearer $reader" "$url/api/tables/countries")" 200
check "reader's edit" "$(status -X POST -H "Authorization: Bearer $reader" -H 'Content-Type: application/json' \
  -d '{"row":{"text":"x"}}' "$url/api/tables/countries/sections/0/rows")" 403
check "editor's edit" "$(status -X POST -H "Authorization: Bearer $editor" -H 'Content-Type: application/json' \
  -d '{"row":{"text":"x"}}' "$url/api/tables/countries/sections/0/rows")" 200
check "editor's delete of a table" "$(status -X DELETE -H "Authorization: Bearer $editor" "$url/api/tables/countries")" 403
expired=$(mint '{"sub":"ana","roles":["reader"],"aud":"webtableview"}' 0)
sleep 1
check "expired token" "$(status -H "Authorization: Bearer $expired" "$url/api/tables/countries")" 401
IFS=. read -r header _ signature <<<"$reader"
admin=$(printf '{"exp":%s,"sub":"ana","roles":["admin"],"aud":"webtableview"}' $(($(date +%s) + 600)) \
  | base64 | tr '+/' '-_' | tr -d '=\n')
check "changed payload" "$(status -X DELETE -H "Authorization: Bearer $header.$admin.$signature" "$url/api/tables/countries")" 401
check "a kid with a quote" "$("$here/deploy/access/token.sh" "$work/keys/signing-key.pem" 'a"b' '{}' 2>/dev/null; echo $?)" 2
check "claims that are no object" "$(mint '[1]' 2>/dev/null; echo $?)" 2

echo "access keys: $passed passed, $failures failed"
[ "$failures" -eq 0 ]
