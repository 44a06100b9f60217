#!/usr/bin/env bash
# Mints a bearer token for local use, signed RS256 with the dev key pair that the dev and test profiles trust
# (production refuses to start with that key). Needs only openssl.
#
#   dev/token.sh alice collector,investigator            # roles from: collector investigator reviewer reader
#   dev/token.sh bob reviewer,reader demo,team-b         # limited to workspaces demo and team-b
#   KEY=other.pem ISSUER=https://idp.example dev/token.sh carol reader
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
    sed -n '2,9p' "$0" >&2
    exit 2
fi
upn=$1
roles=$2
workspaces=${3:-}
key=${KEY:-dev/keys/jwt-private.pem}
issuer=${ISSUER:-https://evidence-store.dev/dev-issuer}
ttl=${TTL_SECONDS:-28800}

json_list() { local IFS=,; local out=""; for item in $1; do out="$out${out:+,}\"$item\""; done; echo "[$out]"; }
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

now=$(date +%s)
header='{"alg":"RS256","typ":"JWT"}'
payload="{\"iss\":\"$issuer\",\"upn\":\"$upn\",\"sub\":\"$upn\",\"groups\":$(json_list "$roles"),\"iat\":$now,\"exp\":$((now + ttl)),\"jti\":\"$(openssl rand -hex 8)\""
if [ -n "$workspaces" ]; then
    payload="$payload,\"workspaces\":$(json_list "$workspaces")"
fi
payload="$payload}"

signing_input="$(printf '%s' "$header" | b64url).$(printf '%s' "$payload" | b64url)"
signature=$(printf '%s' "$signing_input" | openssl dgst -sha256 -sign "$key" -binary | b64url)
echo "$signing_input.$signature"
