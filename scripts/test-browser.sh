#!/usr/bin/env bash
# Runs the browser tests (Tests/browser): headless Chromium driven by Selenium
# against the real server. Installs what is missing on a fresh machine
# (scripts/browser-deps.sh), builds the server with `swift build` and runs
# pytest; the last line is pytest's summary.
# Usage: scripts/test-browser.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/browser-deps.sh

swift build ${BUILD_FLAGS:-} --product webtableview
export WEBTABLEVIEW_BIN="${WEBTABLEVIEW_BIN:-$(swift build ${BUILD_FLAGS:-} --show-bin-path)/webtableview}"

export PYTHONDONTWRITEBYTECODE=1
exec python3 -m pytest -p no:cacheprovider -q Tests/browser "$@"
