# shellcheck shell=bash disable=SC2034 # the variables are used by the scripts that source this
# Shared settings for scripts/container/setup.sh and test.sh (sourced, not run).
#
# No image registry is reachable on the project's machines, so the images the
# Dockerfile starts from are made locally and passed as build arguments:
#   BASE_IMAGE     a Debian bookworm made with debootstrap (stands in for debian:bookworm-slim)
#   BUILDER_IMAGE  that base plus the official swift image's packages; the host's
#                  toolchain and Swift package mirror are mounted into it at build time
# Both stay cached in podman's storage between runs on the same machine.

BASE_IMAGE=${BASE_IMAGE:-localhost/debian:bookworm-slim}
BUILDER_IMAGE=${BUILDER_IMAGE:-localhost/swift-builder:6.3.1}
# Where setup keeps what it installs outside apt (hadolint) and its lock.
CONTAINER_CACHE=${CONTAINER_CACHE:-/var/cache/webtableview-container}
HADOLINT="$CONTAINER_CACHE/hadolint/bin/hadolint"

# The host toolchain (folder holding usr/bin/swift), mounted read-only into the builder.
if [ -z "${SWIFT_TOOLCHAIN:-}" ]; then
  swift_path=$(command -v swift 2>/dev/null || true)
  if [ -n "$swift_path" ]; then
    SWIFT_TOOLCHAIN=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_path")")")")
  else
    SWIFT_TOOLCHAIN=/opt/swift
  fi
fi
# The local copy of the Swift packages that git reads github.com addresses from.
SWIFT_PACKAGE_MIRROR=${SWIFT_PACKAGE_MIRROR:-/opt/swift-packages}

# Volumes the stand-in builder needs while the Dockerfile's builder stage runs.
builder_volumes=(-v "$SWIFT_TOOLCHAIN:/opt/swift:ro")
if [ -d "$SWIFT_PACKAGE_MIRROR" ]; then
  builder_volumes+=(-v "$SWIFT_PACKAGE_MIRROR:$SWIFT_PACKAGE_MIRROR:ro")
fi

log() { printf '[container] %s\n' "$*" >&2; }
die() { printf '[container] FAILED: %s\n' "$*" >&2; exit 1; }
