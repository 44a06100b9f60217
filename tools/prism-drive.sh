#!/usr/bin/env bash
# Drives good and bad requests (wrong Accept, wrong Content-Type, bad IDs, no token, wrong roles, other
# workspaces, replays, an over-long URI) through Prism in proxy mode in front of a running service, and prints one
# line per request: the status, and the response violations Prism reported in its sl-violations header.
# Violations of the request are expected for the bad ones and only named. Exits 1 if any response broke the
# contract. Needs curl, jq and openssl.
#
#   KEYFILE=private.pem PRISM=http://127.0.0.1:18781 tools/prism-drive.sh
#
# with the service trusting KEYFILE's public key (mp.jwt.verify.publickey.location; the jar refuses the dev key),
# and Prism started from a directory where @stoplight/prism-cli is installed (it is not a devDependency here, to
# keep npm ci small):
#
#   npx prism proxy openapi/openapi.yaml http://127.0.0.1:18780 -p 18781 -h 127.0.0.1
#
# Prism itself answers 500 to a Content-Type that is not a media type, and to a HEAD whose problem+json answer has
# no body (as HEAD answers have none); the service answers those 415 and 404. Malformed JSON bodies do not get
# through Prism at all and are skipped.
set -uo pipefail
cd "$(dirname "$0")/.."
P=${PRISM:-http://127.0.0.1:18781}
KEYFILE=${KEYFILE:?the private key whose public half the service trusts}
tok() { KEY=$KEYFILE dev/token.sh "$@"; }
ALICE=$(tok alice collector,investigator,reviewer,reader)
BOB=$(tok bob reviewer,reader)
NOROLE=$(tok mallory other)
OTHERWS=$(tok olive collector,investigator,reviewer,reader elsewhere)
READER=$(tok rita reader)
TOTAL=0; BAD=0
req() { # req NAME CURL-ARGS... ; the URL path is the last argument
    local name=$1; shift
    local args=("$@"); local path=${args[-1]}; unset 'args[-1]'
    local hdrs; hdrs=$(mktemp)
    local code; code=$(curl -s -o /dev/null -D "$hdrs" -m 10 -w '%{http_code}' "${args[@]}" "$P$path")
    local v; v=$(grep -i '^sl-violations:' "$hdrs" | cut -d' ' -f2- | tr -d '\r')
    TOTAL=$((TOTAL+1))
    local resp; resp=$(printf '%s' "${v:-[]}" | jq -c '[.[] | select(.location[0] == "response")]')
    local reqv; reqv=$(printf '%s' "${v:-[]}" | jq -c '[.[] | select(.location[0] != "response") | .code] | unique')
    if [ "$code" = 000 ]; then echo "--- $name: no answer through the proxy"
    elif [ "$resp" != "[]" ]; then BAD=$((BAD+1)); echo "$code $name RESPONSE VIOLATIONS: $resp"
    elif [ "$reqv" = "[]" ]; then echo "$code $name ok"
    else echo "$code $name ok (the request breaks the contract on purpose: $reqv)"; fi
    rm -f "$hdrs"
}
A=(-H "Authorization: Bearer $ALICE")
B=(-H "Authorization: Bearer $BOB")
J=(-H 'Content-Type: application/json')
WS=contract-$(date +%s)
KEY=INC-$((RANDOM+1))
INC=/api/v1/workspaces/$WS/incidents/$KEY
BYTES="prism check $(date +%s%N)"
DIGEST=sha256:$(printf '%s' "$BYTES" | sha256sum | cut -d' ' -f1)
B64=$(printf '%s' "$BYTES" | openssl dgst -sha256 -binary | base64)
ART=artifact:$WS:v1:$KEY:log
FIND=finding:$WS:v1:$KEY:queue
IK=$(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)

echo "== incidents"
req create-incident "${A[@]}" "${J[@]}" -H "Idempotency-Key: \"$IK\"" -X POST -d "{\"key\":\"$KEY\",\"title\":\"Prism\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-replay "${A[@]}" "${J[@]}" -H "Idempotency-Key: \"$IK\"" -X POST -d "{\"key\":\"$KEY\",\"title\":\"Prism\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-key-reused "${A[@]}" "${J[@]}" -H "Idempotency-Key: \"$IK\"" -X POST -d "{\"key\":\"$KEY\",\"title\":\"Other\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-bad-key-header "${A[@]}" "${J[@]}" -H 'Idempotency-Key: "a' -X POST -d "{\"key\":\"$KEY\",\"title\":\"x\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-exists "${A[@]}" "${J[@]}" -X POST -d "{\"key\":\"$KEY\",\"title\":\"Prism\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-invalid "${A[@]}" "${J[@]}" -X POST -d '{"key":"bad","title":"","severity":"SEV-9"}' /api/v1/workspaces/$WS/incidents
req create-incident-no-body "${A[@]}" "${J[@]}" -X POST /api/v1/workspaces/$WS/incidents
req create-incident-text "${A[@]}" -H 'Content-Type: text/plain' -X POST -d 'x' /api/v1/workspaces/$WS/incidents
req create-incident-accept-html "${A[@]}" "${J[@]}" -H 'Accept: text/html' -X POST -d "{\"key\":\"INC-9\",\"title\":\"x\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-no-token "${J[@]}" -X POST -d "{\"key\":\"INC-9\",\"title\":\"x\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-reader -H "Authorization: Bearer $READER" "${J[@]}" -X POST -d "{\"key\":\"INC-9\",\"title\":\"x\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req create-incident-other-ws -H "Authorization: Bearer $OTHERWS" "${J[@]}" -X POST -d "{\"key\":\"INC-9\",\"title\":\"x\",\"severity\":\"SEV-3\"}" /api/v1/workspaces/$WS/incidents
req list-incidents "${A[@]}" /api/v1/workspaces/$WS/incidents
req list-incidents-public /api/v1/workspaces/demo/incidents
req list-incidents-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/workspaces/$WS/incidents
req list-incidents-accept-garbage "${A[@]}" -H 'Accept: garbage' /api/v1/workspaces/$WS/incidents
req list-incidents-bad-limit "${A[@]}" "/api/v1/workspaces/$WS/incidents?limit=0"
req list-incidents-bad-cursor "${A[@]}" "/api/v1/workspaces/$WS/incidents?cursor=zzz"
req list-incidents-bad-ws "${A[@]}" /api/v1/workspaces/BAD_WS/incidents
req list-incidents-no-token /api/v1/workspaces/$WS/incidents
req list-incidents-bad-token -H 'Authorization: Bearer not.a.token' /api/v1/workspaces/demo/incidents
req list-incidents-no-role -H "Authorization: Bearer $NOROLE" /api/v1/workspaces/$WS/incidents
req list-incidents-other-ws -H "Authorization: Bearer $OTHERWS" /api/v1/workspaces/$WS/incidents
req get-incident "${A[@]}" $INC
req get-incident-missing "${A[@]}" /api/v1/workspaces/$WS/incidents/INC-999999
req get-incident-bad-key "${A[@]}" /api/v1/workspaces/$WS/incidents/inc-1
req get-incident-accept-xml "${A[@]}" -H 'Accept: application/xml' $INC
req patch-incident "${A[@]}" -H 'Content-Type: application/merge-patch+json' -X PATCH -d '{"status":"mitigated"}' $INC
req patch-incident-invalid "${A[@]}" -H 'Content-Type: application/merge-patch+json' -X PATCH -d '{"key":"INC-2"}' $INC
req patch-incident-text "${A[@]}" -H 'Content-Type: text/plain' -X PATCH -d 'x' $INC
req patch-incident-accept-html "${A[@]}" -H 'Content-Type: application/merge-patch+json' -H 'Accept: text/html' -X PATCH -d '{"status":"mitigated"}' $INC

echo "== blobs"
req upload-blob-post "${A[@]}" -H 'Content-Type: application/octet-stream' -H "Content-Digest: sha-256=:$B64:" -X POST --data-binary "$BYTES" /api/v1/blobs
req upload-blob-post-again "${A[@]}" -H 'Content-Type: application/octet-stream' -X POST --data-binary "$BYTES" /api/v1/blobs
req upload-blob-put "${A[@]}" -H 'Content-Type: application/octet-stream' -X PUT --data-binary "$BYTES" /api/v1/blobs/$DIGEST
req upload-blob-mismatch "${A[@]}" -H 'Content-Type: application/octet-stream' -X PUT --data-binary "other" /api/v1/blobs/$DIGEST
req upload-blob-bad-digest "${A[@]}" -H 'Content-Type: application/octet-stream' -X PUT --data-binary "x" /api/v1/blobs/sha256:xyz
req upload-blob-accept-html "${A[@]}" -H 'Content-Type: application/octet-stream' -H 'Accept: text/html' -X POST --data-binary "$BYTES" /api/v1/blobs
req upload-blob-no-token -H 'Content-Type: application/octet-stream' -X POST --data-binary "$BYTES" /api/v1/blobs
req upload-blob-reader -H "Authorization: Bearer $READER" -H 'Content-Type: application/octet-stream' -X POST --data-binary "$BYTES" /api/v1/blobs
req upload-blob-idem-no-digest "${A[@]}" -H 'Content-Type: application/octet-stream' -H "Idempotency-Key: \"$(cat /proc/sys/kernel/random/uuid)\"" -X POST --data-binary "$BYTES" /api/v1/blobs
req upload-blob-bad-content-type "${A[@]}" -H 'Content-Type: ???' -X POST --data-binary "$BYTES" /api/v1/blobs
req get-blob "${A[@]}" /api/v1/blobs/$DIGEST
req get-blob-range "${A[@]}" -H 'Range: bytes=0-3' /api/v1/blobs/$DIGEST
req get-blob-range-416 "${A[@]}" -H 'Range: bytes=9999-' /api/v1/blobs/$DIGEST
req get-blob-304 "${A[@]}" -H "If-None-Match: \"$DIGEST\"" /api/v1/blobs/$DIGEST
req get-blob-accept-json "${A[@]}" -H 'Accept: application/json' /api/v1/blobs/$DIGEST
req get-blob-missing "${A[@]}" /api/v1/blobs/sha256:$(printf '0%.0s' {1..64})
req get-blob-bad-digest "${A[@]}" /api/v1/blobs/sha256:nothex
req get-blob-no-token /api/v1/blobs/$DIGEST
req head-blob "${A[@]}" -I /api/v1/blobs/$DIGEST
req head-blob-missing "${A[@]}" -I /api/v1/blobs/sha256:$(printf '0%.0s' {1..64})

echo "== artifacts"
req bind-artifact "${A[@]}" "${J[@]}" -X POST -d "{\"name\":\"log\",\"digest\":\"$DIGEST\",\"mediaType\":\"text/plain\",\"source\":\"prism\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}" $INC/artifacts
req bind-artifact-again "${A[@]}" "${J[@]}" -X POST -d "{\"name\":\"log\",\"digest\":\"$DIGEST\",\"mediaType\":\"text/plain\",\"source\":\"prism\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}" $INC/artifacts
req bind-artifact-unknown-blob "${A[@]}" "${J[@]}" -X POST -d "{\"name\":\"log2\",\"digest\":\"sha256:$(printf '1%.0s' {1..64})\",\"mediaType\":\"text/plain\",\"source\":\"prism\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}" $INC/artifacts
req bind-artifact-taken "${A[@]}" "${J[@]}" -X POST -d "{\"name\":\"log\",\"digest\":\"sha256:$(printf '1%.0s' {1..64})\",\"mediaType\":\"text/plain\",\"source\":\"prism\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}" $INC/artifacts
req bind-artifact-xml "${A[@]}" -H 'Content-Type: application/xml' -X POST -d '<a/>' $INC/artifacts
req list-artifacts "${A[@]}" $INC/artifacts
req list-artifacts-accept-html "${A[@]}" -H 'Accept: text/html' $INC/artifacts
req get-artifact "${A[@]}" /api/v1/artifacts/$ART
req get-artifact-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/artifacts/$ART
req get-artifact-bad-id "${A[@]}" /api/v1/artifacts/artifact:nope
req get-artifact-missing "${A[@]}" /api/v1/artifacts/artifact:$WS:v1:$KEY:nothing
req get-artifact-no-token /api/v1/artifacts/$ART
req get-artifact-no-role -H "Authorization: Bearer $NOROLE" /api/v1/artifacts/$ART
req get-artifact-other-ws -H "Authorization: Bearer $OTHERWS" /api/v1/artifacts/$ART
req content "${A[@]}" /api/v1/artifacts/$ART/content
req content-accept-json "${A[@]}" -H 'Accept: application/json' /api/v1/artifacts/$ART/content
req content-range "${A[@]}" -H 'Range: bytes=1-2' /api/v1/artifacts/$ART/content
req content-head "${A[@]}" -I /api/v1/artifacts/$ART/content
req verify "${B[@]}" "${J[@]}" -X POST -d "{\"digest\":\"$DIGEST\"}" /api/v1/artifacts/$ART/verifications
req verify-wrong-role -H "Authorization: Bearer $READER" "${J[@]}" -X POST -d '{}' /api/v1/artifacts/$ART/verifications
req verify-text "${B[@]}" -H 'Content-Type: text/plain' -X POST -d 'x' /api/v1/artifacts/$ART/verifications
req verify-accept-png "${B[@]}" "${J[@]}" -H 'Accept: image/png' -X POST -d '{}' /api/v1/artifacts/$ART/verifications
req verifications "${A[@]}" /api/v1/artifacts/$ART/verifications
req verifications-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/artifacts/$ART/verifications
req citations "${A[@]}" /api/v1/artifacts/$ART/citations
req citations-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/artifacts/$ART/citations

echo "== timeline, actions"
req timeline-add "${A[@]}" "${J[@]}" -X POST -d "{\"at\":\"2026-06-18T09:05:00Z\",\"event\":\"paged\",\"artifactIds\":[\"$ART\"]}" $INC/timeline
req timeline-bad-citation "${A[@]}" "${J[@]}" -X POST -d "{\"at\":\"2026-06-18T09:05:00Z\",\"event\":\"paged\",\"artifactIds\":[\"artifact:$WS:v1:$KEY:nope\"]}" $INC/timeline
req timeline "${A[@]}" $INC/timeline
req timeline-accept-html "${A[@]}" -H 'Accept: text/html' $INC/timeline
req action-add "${A[@]}" "${J[@]}" -X POST -d '{"action":"add alert","owner":"bob@example.com","due":"2026-07-01"}' $INC/actions
req actions "${A[@]}" $INC/actions
req actions-accept-html "${A[@]}" -H 'Accept: text/html' $INC/actions
req action "${A[@]}" /api/v1/actions/action:$WS:v1:$KEY:1
req action-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/actions/action:$WS:v1:$KEY:1
req action-patch "${A[@]}" -H 'Content-Type: application/merge-patch+json' -X PATCH -d '{"status":"completed"}' /api/v1/actions/action:$WS:v1:$KEY:1
req action-patch-accept-html "${A[@]}" -H 'Content-Type: application/merge-patch+json' -H 'Accept: text/html' -X PATCH -d '{"status":"completed"}' /api/v1/actions/action:$WS:v1:$KEY:1
req action-missing "${A[@]}" /api/v1/actions/action:$WS:v1:$KEY:99

echo "== findings, root cause"
req finding-add "${A[@]}" "${J[@]}" -X POST -d "{\"name\":\"queue\",\"kind\":\"supporting\",\"statement\":\"queue grew\",\"artifactIds\":[\"$ART\"]}" $INC/findings
req reverify "${B[@]}" "${J[@]}" -X POST -d "{\"digest\":\"$DIGEST\"}" /api/v1/artifacts/$ART/verifications
req findings "${A[@]}" $INC/findings
req findings-accept-html "${A[@]}" -H 'Accept: text/html' $INC/findings
req finding "${A[@]}" /api/v1/findings/$FIND
req finding-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/findings/$FIND
req finding-patch "${A[@]}" -H 'Content-Type: application/merge-patch+json' -X PATCH -d '{"statement":"queue grew fast"}' /api/v1/findings/$FIND
req finding-review-four-eyes "${A[@]}" "${J[@]}" -X POST -d '{"decision":"accepted","note":"ok"}' /api/v1/findings/$FIND/reviews
req finding-review "${B[@]}" "${J[@]}" -X POST -d '{"decision":"accepted","note":"ok"}' /api/v1/findings/$FIND/reviews
req finding-review-accept-html "${B[@]}" "${J[@]}" -H 'Accept: text/html' -X POST -d '{"decision":"accepted","note":"ok"}' /api/v1/findings/$FIND/reviews
req finding-patch-frozen "${A[@]}" -H 'Content-Type: application/merge-patch+json' -X PATCH -d '{"statement":"again"}' /api/v1/findings/$FIND
req root-cause-missing "${A[@]}" $INC/root-cause
req root-cause-put "${A[@]}" "${J[@]}" -X PUT -d "{\"statement\":\"the queue\",\"confidence\":\"high\",\"findingIds\":[\"$FIND\"]}" $INC/root-cause
req root-cause "${A[@]}" $INC/root-cause
req root-cause-accept-html "${A[@]}" -H 'Accept: text/html' $INC/root-cause
req root-cause-review-four-eyes "${A[@]}" "${J[@]}" -X POST -d '{"decision":"accepted","note":"ok"}' $INC/root-cause/reviews
req root-cause-review "${B[@]}" "${J[@]}" -X POST -d '{"decision":"accepted","note":"ok"}' $INC/root-cause/reviews
req root-cause-review-accept-html "${B[@]}" "${J[@]}" -H 'Accept: text/html' -X POST -d '{"decision":"accepted","note":"ok"}' $INC/root-cause/reviews

echo "== postmortem, manifest, bundle"
req postmortem-md "${A[@]}" -H 'Accept: text/markdown' $INC/postmortem
req postmortem-html "${A[@]}" -H 'Accept: text/html' $INC/postmortem
req postmortem-accept-json "${A[@]}" -H 'Accept: application/json' $INC/postmortem
req manifest "${A[@]}" $INC/evidence-manifest
req manifest-accept-html "${A[@]}" -H 'Accept: text/html' $INC/evidence-manifest
req bundle "${A[@]}" $INC/evidence-bundle
req bundle-accept-json "${A[@]}" -H 'Accept: application/json' $INC/evidence-bundle
req bundle-missing "${A[@]}" /api/v1/workspaces/$WS/incidents/INC-999999/evidence-bundle

echo "== citations, audit, integrity"
req citations-check "${A[@]}" -H 'Content-Type: text/markdown' -X POST --data-binary "see \`$ART\`" /api/v1/citations/check
req citations-check-json "${A[@]}" "${J[@]}" -X POST -d '{}' /api/v1/citations/check
req citations-check-accept-html "${A[@]}" -H 'Content-Type: text/markdown' -H 'Accept: text/html' -X POST --data-binary "x" /api/v1/citations/check
req audit "${A[@]}" /api/v1/workspaces/$WS/audit
req audit-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/workspaces/$WS/audit
req audit-bad-limit "${A[@]}" "/api/v1/workspaces/$WS/audit?limit=abc"
req integrity "${A[@]}" /api/v1/integrity
req integrity-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/integrity
req integrity-accept-garbage "${A[@]}" -H 'Accept: garbage' /api/v1/integrity
req integrity-no-token /api/v1/integrity
req integrity-no-role -H "Authorization: Bearer $NOROLE" /api/v1/integrity
req checkpoint "${B[@]}" -X POST /api/v1/audit/checkpoints
req checkpoint-accept-html "${B[@]}" -H 'Accept: text/html' -X POST /api/v1/audit/checkpoints
req checkpoint-text-body "${B[@]}" -H 'Content-Type: text/plain' -X POST -d 'x' /api/v1/audit/checkpoints
req checkpoint-latest "${A[@]}" /api/v1/audit/checkpoints/latest
req checkpoint-latest-accept-html "${A[@]}" -H 'Accept: text/html' /api/v1/audit/checkpoints/latest
req audit-verify "${A[@]}" -X POST /api/v1/audit/verify
req audit-verify-accept-html "${A[@]}" -H 'Accept: text/html' -X POST /api/v1/audit/verify
req audit-verify-accept-garbage "${A[@]}" -H 'Accept: garbage' -X POST /api/v1/audit/verify
req audit-verify-text-body "${A[@]}" -H 'Content-Type: text/plain' -X POST -d 'x' /api/v1/audit/verify
echo "== HTTP layer"
req integrity-bad-uri "${A[@]}" "/api/v1/integrity?a=%zz"
req incidents-uri-too-long "${A[@]}" "/api/v1/workspaces/demo/incidents?x=$(head -c 5000 /dev/zero | tr '\0' a)"
req upload-blob-content-type-not-a-type "${A[@]}" -H 'Content-Type: a/b/c' -X POST --data-binary "$BYTES" /api/v1/blobs
echo "$TOTAL requests, $BAD answers with response violations"
[ "$BAD" = 0 ]
