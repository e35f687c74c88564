#!/usr/bin/env bash
# Mints a bearer JWT signed with a key of deploy/access/keys.sh (EdDSA, RFC
# 8037), for trying a deployment: CLAIMS is the token's payload as JSON
# without `exp`, which this script adds (now + SECONDS, default 3600).
# Usage: deploy/access/token.sh KEY.pem KID CLAIMS [SECONDS]
#   deploy/access/token.sh keys/signing-key.pem deploy-1 '{"sub":"ana","roles":["reader"],"aud":"webtableview"}'
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 KEY.pem KID CLAIMS [SECONDS]" >&2; exit 2; }
key=$1 kid=$2 claims=$3 seconds=${4:-3600}
case $seconds in *[!0-9]*|'') echo "$0: SECONDS is a whole number" >&2; exit 2 ;; esac
case $claims in '{'*'}') ;; *) echo "$0: CLAIMS is a JSON object" >&2; exit 2 ;; esac
case $kid in *[!A-Za-z0-9._-]*|'') echo "$0: a kid is letters, digits, '.', '_' and '-'" >&2; exit 2 ;; esac
base64url() { base64 | tr '+/' '-_' | tr -d '=\n'; }
exp=$(($(date +%s) + seconds))
header=$(printf '{"alg":"EdDSA","typ":"JWT","kid":"%s"}' "$kid" | base64url)
inner=${claims#\{}
inner=${inner%\}}
payload=$(printf '{"exp":%s%s%s}' "$exp" "${inner:+,}" "$inner" | base64url)
work=$(mktemp)
trap 'rm -f "$work"' EXIT
printf '%s.%s' "$header" "$payload" >"$work"
signature=$(openssl pkeyutl -sign -inkey "$key" -rawin -in "$work" | base64url)
echo "$header.$payload.$signature"
