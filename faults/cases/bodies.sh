# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 8: bodies ---------------------------------------------------------------------------------------------

# 50 parallel maximum-size JSON bodies (POST .../incidents, valid incidents just under evidence.http.max-json-body),
# first without and then with Idempotency-Key, against the jar with -Xmx128m (SERVICE_HEAP). The per-client and
# per-principal caps are lifted, so that the body-memory budget is what admits them. PASS when every request is
# answered, no 5xx but 503 service-busy with Retry-After, no OutOfMemoryError in the log, and the service alive
# and writing afterwards. FAULTS_BODIES (50) sets the burst, FAULTS_HEAVY=1 runs 3 rounds of each, and
# FAULTS_BODIES_OPTIONS adds -D settings (e.g. -Devidence.http.admission.body-memory=64M, to see where it breaks).
case_bodies() {
    local port=18701 db=evidence_faults_bodies dir=$WORK/bodies started n=${FAULTS_BODIES:-50}
    local rounds=1 max=1048576
    [ "$HEAVY" = 1 ] && rounds=3
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    : > "$LOGS/bodies.log" # service_start appends: only this run's OutOfMemoryErrors count
    service_start "$LOGS/bodies.log" "$port" "$db" postgres "" \
        -Devidence.http.max-json-body="$max" \
        -Devidence.http.admission.per-client=1000 -Devidence.http.admission.per-principal=1000 \
        ${FAULTS_BODIES_OPTIONS:-}
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result bodies FAIL "service did not start"; return; }
    local round keyed figures=() bad=0 answers out
    for keyed in "" --keyed; do
        for round in $(seq 1 "$rounds"); do
            out="$dir/burst${keyed:+-keyed}-$round.json"
            node faults/lib/bodies.mjs --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --n "$n" \
                --size "$max" $keyed > "$out" 2> "$dir/client.err" || bad=$((bad + 1))
            # no answer, a 5xx other than 503 service-busy, a 503 without Retry-After, an error not problem+json
            answers=$(jq '[.statuses | to_entries[] | select((.key | startswith("err:")) or ((.key | tonumber? // 0) >= 500
                and .key != "503")) | .value] | add // 0' "$out")
            bad=$((bad + answers + $(jq '.busyWithoutRetryAfter + .otherServiceUnavailable + .errorsNotProblemJson' "$out")))
            figures+=("${keyed:+keyed }$(jq -c .statuses "$out") in $(jq .seconds "$out")s")
        done
    done
    local alive=yes live created oom rss
    live=$(curl -s -o /dev/null -m 5 -w '%{http_code}' "http://127.0.0.1:$port/q/health/live")
    created=$(create_incident "$port" "AFTER-1")
    kill -0 "$pid" 2> /dev/null && [ "$live" = 200 ] && [ "$created" = 201 ] || alive=no
    rss=$(service_peak_rss_mb "$pid")
    service_stop "$pid"
    oom=$(grep -c OutOfMemoryError "$LOGS/bodies.log")
    local status=PASS
    { [ "$bad" = 0 ] && [ "$oom" = 0 ] && [ "$alive" = yes ]; } || status=FAIL
    result bodies "$status" "$n parallel $(jq .bodyBytes "$dir/burst-1.json")-byte incident bodies (-Xmx${SERVICE_HEAP:-128m}): $(IFS=';'; echo "${figures[*]}"); unanswered, 5xx but 503 service-busy, 503 without Retry-After or not problem+json=$bad; OutOfMemoryError in the log=$oom; alive after (live $live, create $created)=$alive; peak RSS ${rss}MB; $(elapsed "$started")s"
}
