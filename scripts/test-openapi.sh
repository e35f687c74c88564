#!/usr/bin/env bash
# Validates the served /api/openapi.json with openapi-spec-validator (PyPI).
# Usage: scripts/test-openapi.sh path/to/webtableview
set -euo pipefail
binary=${1:-.build/debug/webtableview}
python3 -c 'import openapi_spec_validator' 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check openapi-spec-validator
work=$(mktemp -d)
"$binary" serve --port 0 >"$work/out" 2>"$work/err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do grep -q listening "$work/out" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$work/out")
[ -n "$url" ] || { echo "server did not start"; cat "$work/err"; exit 1; }
curl -fsS "$url/api/openapi.json" -o "$work/openapi.json"
python3 - "$work/openapi.json" <<'PY'
import json, sys
from openapi_spec_validator import validate
document = json.load(open(sys.argv[1]))
validate(document)
operations = sum(1 for path in document["paths"].values() for method in path if method in ("get","put","post","patch","delete"))
print(f"openapi: {len(document['paths'])} paths, {operations} operations valid under OpenAPI {document['openapi']}")
print(f"openapi: 1 passed, 0 failed")
PY
