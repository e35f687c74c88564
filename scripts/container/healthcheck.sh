#!/bin/bash
# The image's HEALTHCHECK (docs/CONTAINER.md): GET /healthz on the port the
# entrypoint recorded (scripts/container/entrypoint.sh), else $WEBTABLEVIEW_PORT.
# No curl in the image: bash speaks HTTP over /dev/tcp. Exits 0 only on a 200.
set -euo pipefail

port=$(cat "${WEBTABLEVIEW_PORT_FILE:-/tmp/webtableview.port}" 2>/dev/null || true)
port=${port:-${WEBTABLEVIEW_PORT:-8080}}
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
head -n 1 <&3 | grep -q ' 200 '
