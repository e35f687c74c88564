#!/usr/bin/env bash
# Builds the images deploy/compose.yaml runs, with podman, from the local base
# images that scripts/container/setup.sh makes (no registry needed):
#   localhost/webtableview:latest          the Dockerfile at the top of the repository
#   localhost/webtableview-postgres:15     deploy/images/postgres.Containerfile
#   localhost/webtableview-nginx:1.22      deploy/images/nginx.Containerfile
# Usage: deploy/build-images.sh [WEBTABLEVIEW_IMAGE]   (run as root)
# A WEBTABLEVIEW_IMAGE that exists already (the container test's) is kept, not rebuilt.
set -euo pipefail

deploy=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$deploy")
# shellcheck source=scripts/container/common.sh
source "$root/scripts/container/common.sh"

webtableview_image=${1:-localhost/webtableview:latest}
postgres_image=${POSTGRES_IMAGE:-localhost/webtableview-postgres:15}
nginx_image=${NGINX_IMAGE:-localhost/webtableview-nginx:1.22}
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

"$root/scripts/container/setup.sh"

# build NAME IMAGE PODMAN_BUILD_ARGS...: builds, showing the end of the log on failure.
build() {
  local name=$1 image=$2
  shift 2
  log "building $image"
  podman build --pull=never --format docker --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$image" "$@" \
    >"$logs/$name.log" 2>&1 || { tail -n 40 "$logs/$name.log" >&2; die "$image did not build"; }
}

# PostgreSQL and nginx keep their layers: the next build reuses them.
build postgres "$postgres_image" -f "$deploy/images/postgres.Containerfile" "$deploy/images"
build nginx "$nginx_image" -f "$deploy/images/nginx.Containerfile" "$deploy/images"
if ! podman image exists "$webtableview_image" || [ $# -eq 0 ]; then
  build webtableview "$webtableview_image" --layers=false \
    --build-arg "SWIFT_IMAGE=$BUILDER_IMAGE" --build-arg "RUNTIME_IMAGE=$BASE_IMAGE" \
    "${builder_volumes[@]}" "$root"
fi
log "ready: $webtableview_image, $postgres_image, $nginx_image"
