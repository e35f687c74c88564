#!/usr/bin/env bash
# Runs the replica and storage-failure tests (Tests/replicas): real servers and,
# for the replicas, a private PostgreSQL cluster each test starts in a temporary
# folder on a free loopback port (as the `postgres` user when run as root) and
# stops at the end. Installs what is missing on a fresh machine — PostgreSQL
# and libpq (apt-get, as root), pytest (pip, or Debian's package where the
# system Python refuses pip) — and builds the server with `swift build`.
# Usage: scripts/test-replicas.sh [pytest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh build python replicas
if ! python3 -c 'import pytest' 2>/dev/null; then
  if ! python3 -m pip install -q --disable-pip-version-check pytest; then
    echo "pip refused; installing Debian's python3-pytest" >&2
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq python3-pytest >/dev/null
  fi
fi

swift build ${BUILD_FLAGS:-} --product webtableview
export WEBTABLEVIEW_BIN="${WEBTABLEVIEW_BIN:-$(swift build ${BUILD_FLAGS:-} --show-bin-path)/webtableview}"

export PYTHONDONTWRITEBYTECODE=1
exec python3 -m pytest -p no:cacheprovider -q Tests/replicas "$@"
