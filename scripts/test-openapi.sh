#!/usr/bin/env bash
# Validates what the server serves for machines against parsers that are not
# ours: /api/openapi.json with openapi-spec-validator (PyPI), and /metrics with
# prometheus-client's text parser (Tests/metrics/check_metrics.py).
# Usage: scripts/test-openapi.sh path/to/webtableview
set -euo pipefail
binary=${1:-.build/debug/webtableview}
metrics_check="$(cd "$(dirname "$0")/.." && pwd)/Tests/metrics/check_metrics.py"
python3 -c 'import openapi_spec_validator' 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check openapi-spec-validator
if ! python3 -c 'import prometheus_client' 2>/dev/null; then
  if ! python3 -m pip install -q --disable-pip-version-check prometheus-client; then
    echo "pip refused; installing Debian's python3-prometheus-client" >&2
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq python3-prometheus-client >/dev/null
  fi
fi
. "$(dirname "$0")/serve-demo.sh"
serve_demo "$binary"
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
python3 "$metrics_check" "$url"
