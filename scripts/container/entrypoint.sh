#!/bin/bash
# The image's ENTRYPOINT (docs/CONTAINER.md): arguments add to the defaults
# instead of replacing them.
#
#   (none)                 webtableview serve --host $WEBTABLEVIEW_HOST --port $WEBTABLEVIEW_PORT
#   --token-file F …       the same, then --token-file F … (options go to serve)
#   serve --data F …       the same, then --data F …
#   check F, --help, …     webtableview check F, … (other commands run as given)
#
# serve takes the last value of an option given twice, so `--port 9000` or
# `--host 127.0.0.1` among the arguments wins over the default. The port serve
# will listen on is written to $WEBTABLEVIEW_PORT_FILE for the health check
# (scripts/container/healthcheck.sh) to follow.
set -euo pipefail

host=${WEBTABLEVIEW_HOST:-0.0.0.0}
port=${WEBTABLEVIEW_PORT:-8080}
port_file=${WEBTABLEVIEW_PORT_FILE:-/tmp/webtableview.port}

if [ $# -gt 0 ] && [ "$1" = serve ]; then
  shift
elif [ $# -gt 0 ] && [ "${1#-}" = "$1" ] || [ "${1:-}" = --help ] || [ "${1:-}" = -h ] || [ "${1:-}" = --version ]; then
  exec /usr/local/bin/webtableview "$@"
fi

# The port the server will listen on: the last --port among the arguments, else the default.
previous=""
for argument in "$@"; do
  case "$argument" in
    --port=*) port=${argument#--port=} ;;
    *) [ "$previous" = --port ] && port=$argument ;;
  esac
  previous=$argument
done
# A read-only /tmp only costs the health check its port; the server still starts.
printf '%s\n' "$port" >"$port_file" 2>/dev/null || true

exec /usr/local/bin/webtableview serve --host "$host" --port "$port" "$@"
