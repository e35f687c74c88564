#!/usr/bin/env bash
# Runs the browser tests (Tests/browser): headless Chromium driven by Selenium
# against the real server. Installs what is missing on a fresh machine —
# Chromium, chromedriver and fonts (apt-get, as root); Selenium, pytest and
# axe-core-python (pip; Selenium and pytest from Debian where the system Python
# refuses pip) — builds the server with `swift build` and runs pytest; the last
# line is pytest's summary.
# Usage: scripts/test-browser.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh build browser
if ! python3 -c 'import selenium, pytest' 2>/dev/null; then
  if ! python3 -m pip install -q --disable-pip-version-check selenium pytest; then
    echo "pip refused; installing Debian's python3-selenium and python3-pytest" >&2
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq python3-selenium python3-pytest >/dev/null
  fi
fi
# axe-core for the accessibility test: only PyPI carries it (axe-core-python).
if ! python3 -c 'import axe_core_python' 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check axe-core-python \
    || python3 -m pip install -q --disable-pip-version-check --break-system-packages axe-core-python
fi

swift build ${BUILD_FLAGS:-} --product webtableview
export WEBTABLEVIEW_BIN="${WEBTABLEVIEW_BIN:-$(swift build ${BUILD_FLAGS:-} --show-bin-path)/webtableview}"

export PYTHONDONTWRITEBYTECODE=1
exec python3 -m pytest -p no:cacheprovider -q Tests/browser "$@"
