#!/usr/bin/env bash
# Installs what the browser tests need when missing: Chromium, chromedriver and
# fonts (apt-get, as root); Selenium, pytest and axe-core-python (pip; Selenium
# and pytest from Debian's packages where the system Python refuses pip). Used by scripts/test-browser.sh and the
# container test's live page (scripts/container/deploy-checks.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh build browser
if ! python3 -c 'import selenium, pytest' 2>/dev/null; then
  if ! python3 -m pip install -q --disable-pip-version-check selenium pytest; then
    echo "pip refused; installing Debian's python3-selenium and python3-pytest" >&2
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq python3-selenium python3-pytest >/dev/null
  fi
fi
# axe-core 4 for the accessibility test: only PyPI carries it. axe-playwright-python
# carries axe-core 4.12 (axe-core-python an older 4.4); the test reads its
# axe.min.js and drives the browser with Selenium, so without Playwright (--no-deps).
if ! python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("axe_playwright_python") is None)' 2>/dev/null; then
  python3 -m pip install -q --disable-pip-version-check --no-deps axe-playwright-python==0.1.8 \
    || python3 -m pip install -q --disable-pip-version-check --no-deps --break-system-packages axe-playwright-python==0.1.8
fi
