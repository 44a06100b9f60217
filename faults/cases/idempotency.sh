# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 7: idempotent retries ---------------------------------------------------------------------------------

# Every write of openapi/openapi.yaml that takes Idempotency-Key (the list is read from the running jar's /q/openapi,
# and a write not covered fails the case), against the packaged jar: a retry with the same key and body gets the
# first status, headers and body byte for byte with Idempotent-Replayed: ?1; the same key with another body 422
# idempotency-key-reused problem+json; FAULTS_IDEMPOTENCY_N (8) identical requests with one key at once run once
# (rows of the operation's table, and executed writes in the audit log), the others getting the stored answer or
# 409 idempotency-key-in-flight with Retry-After.
case_idempotency() {
    local port=18697 db=evidence_faults_idempotency dir=$WORK/idempotency started n=${FAULTS_IDEMPOTENCY_N:-8}
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    service_start "$LOGS/idempotency.log" "$port" "$db" postgres "$dir/blobs"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result idempotency FAIL "service did not start; see $LOGS/idempotency.log"; return; }
    local verdict
    verdict=$($CLIENT idempotency --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --db "$db" --n "$n" \
        2> "$dir/client.err")
    service_stop "$pid"
    echo "$verdict" > "$dir/verdict.json"
    if [ -z "$verdict" ]; then
        result idempotency FAIL "the client stopped: $(tail -n 3 "$dir/client.err" | tr '\n' ' ')"
        return
    fi
    local status=PASS figures
    [ "$(echo "$verdict" | jq '.problemCount')" = 0 ] || status=FAIL
    figures=$(echo "$verdict" | jq -r '"operations covered=\(.operations) of \(.contract) taking Idempotency-Key in the contract; replays=\(.replays) (identical and marked=\(.replaysIdentical)); same key, another body: 422=\(.reused422)/\(.reused); concurrent requests=\(.concurrent) (\(.concurrent / .operations) per key: replayed=\(.concurrentReplayed), 409 in flight=\(.concurrentInFlight)), side effects=\(.sideEffects) (one per key expected: \(.operations))"')
    [ "$status" = PASS ] || figures="$figures; problems: $(echo "$verdict" | jq -c '.problems[:6]')"
    result idempotency "$status" "$figures; $(elapsed "$started")s"
}
