# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 9: citation checks ------------------------------------------------------------------------------------

# FAULTS_CITATION_PARALLEL (20) parallel citation checks of the largest text a check takes (1 MiB, citing the 2,000 distinct IDs a check may
# look up, a few of them real artifacts) with one reader token, again and again for FAULTS_CITATION_SECONDS (20), on
# the packaged jar with -Xmx128m, while another caller lists the workspace's incidents and times each request. PASS
# when the other caller's p99 stays under 1 s and all its requests answer 200, the checks answer 200 (every one of
# the 2,000 IDs once, in a bounded answer) or 503 with Retry-After, and nothing else: no other 5xx, no reset.
case_citations() {
    local port=18705 db=evidence_faults_citations dir=$WORK/citations started seconds=${FAULTS_CITATION_SECONDS:-20} \
        parallel=${FAULTS_CITATION_PARALLEL:-20}
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    : > "$LOGS/citations.log"
    service_start "$LOGS/citations.log" "$port" "$db" postgres "$dir/blobs"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result citations FAIL "service did not start; see $LOGS/citations.log"; return; }
    create_incident "$port" CITE-1 > /dev/null
    local i known=() digest
    for i in 1 2 3 4 5; do
        digest=$(curl -s -H "$(auth)" -H 'Content-Type: application/octet-stream' --data-binary "cited $i $started" \
            "$(api "$port")/blobs" | jq -r .digest)
        known+=("$(curl -s -H "$(auth)" -H 'Content-Type: application/json' \
            -X POST "$(api "$port")/workspaces/$WS/incidents/CITE-1/artifacts" \
            -d "{\"name\":\"cited-$i\",\"digest\":\"$digest\",\"mediaType\":\"text/plain\",\"source\":\"faults\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}" \
            | jq -r .id)")
    done
    local reader other verdict
    reader=$(KEY="$WORK/keys/jwt.pem" TTL_SECONDS=3600 dev/token.sh citation-reader reader "$WS")
    other=$(KEY="$WORK/keys/jwt.pem" TTL_SECONDS=3600 dev/token.sh incident-reader reader "$WS")
    verdict=$(node faults/lib/citations.mjs --base "http://127.0.0.1:$port" --token "$reader" --other "$other" \
        --ws "$WS" --incident CITE-1 --known "$(IFS=,; echo "${known[*]}")" --seconds "$seconds" --parallel "$parallel" \
        2> "$dir/client.err")
    echo "$verdict" > "$dir/verdict.json"
    local rss errors
    rss=$(service_peak_rss_mb "$pid")
    errors=$(grep -c ' ERROR ' "$LOGS/citations.log")
    service_stop "$pid"
    if [ -z "$verdict" ]; then
        result citations FAIL "the client stopped: $(tail -n 3 "$dir/client.err" | tr '\n' ' ')"
        return
    fi
    local status=PASS other_p99 other_bad check_bad ok_checks
    other_p99=$(echo "$verdict" | jq '.other.p99ms')
    other_bad=$(echo "$verdict" | jq '[.other.statuses | to_entries[] | select(.key != "200") | .value] | add // 0')
    check_bad=$(echo "$verdict" | jq '[.checks.statuses | to_entries[] | select(.key != "200" and .key != "503") | .value] | add // 0')
    ok_checks=$(echo "$verdict" | jq '.checks.statuses["200"] // 0')
    { [ "$other_p99" -lt 1000 ] && [ "$other_bad" = 0 ] && [ "$check_bad" = 0 ] && [ "$ok_checks" -gt 0 ] \
        && [ "$(echo "$verdict" | jq '.busyWithoutRetryAfter + .wrongVerdicts + .unboundedAnswers')" = 0 ] \
        && [ "${rss:-9999}" -lt 512 ]; } || status=FAIL
    result citations "$status" "$(echo "$verdict" | jq -r '"\(.parallel) parallel checks of \(.bodyBytes) bytes citing \(.distinctIds) distinct IDs for \(.seconds)s: \(.checks.count) checks, statuses \(.checks.statuses | tojson) (p50 \(.checks.p50ms)ms, p99 \(.checks.p99ms)ms), largest answer \(.largestAnswer) bytes, 503 without Retry-After=\(.busyWithoutRetryAfter), wrong verdicts=\(.wrongVerdicts); the other caller: \(.other.count) incident listings, statuses \(.other.statuses | tojson), p50 \(.other.p50ms)ms, p99 \(.other.p99ms)ms, max \(.other.maxMs)ms"'); peak RSS ${rss}MB (-Xmx128m); ERROR lines $errors; $(elapsed "$started")s"
}
