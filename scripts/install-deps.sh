#!/usr/bin/env bash
# Installs the Debian packages of one or more sets, only those that are missing
# (apt-get, as root; without root, names what is missing and fails).
# Usage: scripts/install-deps.sh SET...   SET: build browser python docs bench container replicas
set -euo pipefail
# shellcheck source=scripts/apt-retry.sh
. "$(dirname "$0")/apt-retry.sh"

[ $# -gt 0 ] || set -- build
for set in "$@"; do
  recommends=(--no-install-recommends)
  case "$set" in
    build)     packages=(libmicrohttpd-dev zlib1g-dev libbrotli-dev libpq-dev pkg-config curl) ;;
    browser)   packages=(chromium chromium-driver fonts-liberation) ;;
    python)    packages=(python3) ;;
    # scripts/test-docs.py runs the docs' curl examples, some piped to jq.
    docs)      packages=(python3 curl jq) ;;
    bench)     packages=(libmicrohttpd-dev zlib1g-dev libbrotli-dev pkg-config gcc wrk python3 brotli postgresql) ;;
    # A private PostgreSQL cluster for the replica tests (Tests/replicas).
    replicas)  packages=(postgresql postgresql-client) ;;
    # podman wants its recommended helpers (slirp, uid maps, …) too.
    container) packages=(podman buildah runc debootstrap curl podman-compose); recommends=() ;;
    *) echo "usage: $0 SET...   SET: build browser python docs bench container replicas" >&2; exit 2 ;;
  esac

  missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && continue

  if [ "$(id -u)" -ne 0 ]; then
    echo "missing packages: ${missing[*]} — run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt_get update -qq
  apt_get install -y -qq "${recommends[@]}" "${missing[@]}" >/dev/null
done
