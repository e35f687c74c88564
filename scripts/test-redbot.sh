#!/usr/bin/env bash
# Lints what the server answers with REDbot (PyPI `redbot`, the HTTP linter of
# the HTTP working group's chair): the index, a table page in each style, the
# row fragment, each JSON read, a static file under both of its names, and the
# change feed (open and closed). Fails on any note of warning or error level.
# Usage: scripts/test-redbot.sh path/to/webtableview
set -euo pipefail
binary=${1:-.build/debug/webtableview}
python3 -c 'import redbot' 2>/dev/null \
  || python3 -m pip install -q --disable-pip-version-check redbot
. "$(dirname "$0")/serve-demo.sh"
serve_demo "$binary"
# The versioned folder the pages link the static files from.
assets=$(curl -fsS "$url/tables/countries" | grep -o '/assets/[0-9a-f]*' | head -n 1)
[ -n "$assets" ] || { echo "redbot: the page links no /assets/ folder"; exit 1; }
python3 - "$url" "$assets" <<'PY'
import json, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

url, assets = sys.argv[1], sys.argv[2]
paths = [
    "/",
    "/tables/countries?style=plain", "/tables/countries?style=grouped", "/tables/countries?style=insetGrouped",
    "/tables/us-cities", "/tables/us-cities/sections/0", "/tables/us-cities/sections/0/rows?offset=1&limit=2",
    "/api/tables", "/api/tables/us-cities", "/api/tables/us-cities/sections",
    "/api/tables/us-cities/sections/0/rows", "/api/tables/us-cities/sections/0/rows/0", "/api/openapi.json",
    "/public/tableview.css", f"{assets}/tableview.js", "/favicon.ico",
    "/api/tables/countries/changes?since=0", "/api/tables/countries/changes?since=0&until=0",
]

def lint(path):
    run = subprocess.run([sys.executable, "-m", "redbot.cli", "-o", "har", url + path],
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        return path, None, run.stderr.strip()[-500:]
    entries = json.loads(run.stdout)["log"]["entries"]
    notes = [note for entry in entries for note in entry["_red_messages"]]
    return path, notes, None

failed = 0
with ThreadPoolExecutor(max_workers=4) as pool:
    for path, notes, error in pool.map(lint, paths):
        if error is not None:
            print(f"redbot: {path}: redbot failed: {error}")
            failed += 1
            continue
        bad = [note for note in notes if note["level"] in ("WARN", "BAD")]
        for note in bad:
            print(f"redbot: {path}: {note['level']} {note['note_id']}: {note['summary']}")
        failed += bool(bad)
        if not bad:
            print(f"redbot: {path}: {len(notes)} notes, none of warning or error level")
print(f"redbot: {len(paths) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
