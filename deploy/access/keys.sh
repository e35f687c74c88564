#!/usr/bin/env bash
# Makes an Ed25519 key pair for signing bearer JWTs (docs/ACCESS.md, "Keys for
# a deployment"): DIR/signing-key.pem, the private key, for whoever mints
# tokens (keep it off the servers), and DIR/jwks.json, the public key as a
# JWKS document for `serve --jwks`. The key's `kid` is KID (default "deploy-1").
# Usage: deploy/access/keys.sh DIR [KID]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 DIR [KID]" >&2; exit 2; }
dir=$1
kid=${2:-deploy-1}
case $kid in *[!A-Za-z0-9._-]*|'') echo "$0: a kid is letters, digits, '.', '_' and '-'" >&2; exit 2 ;; esac
mkdir -p "$dir"
( umask 077 && openssl genpkey -algorithm ed25519 -out "$dir/signing-key.pem" )
# The last 32 bytes of the DER public key are the raw Ed25519 key (RFC 8037).
x=$(openssl pkey -in "$dir/signing-key.pem" -pubout -outform DER | tail -c 32 | base64 | tr '+/' '-_' | tr -d '=\n')
printf '{"keys":[{"kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","kid":"%s","x":"%s"}]}\n' "$kid" "$x" >"$dir/jwks.json"
echo "$dir/jwks.json: give it to each replica (serve --jwks); $dir/signing-key.pem: keep it where tokens are minted"
