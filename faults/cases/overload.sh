# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 5: overload -------------------------------------------------------------------------------------------

# 50 slow uploads (curl --limit-rate 10k, 100 kB each) and a burst of FAULTS_BURST (2000) concurrent requests
# (cheap GETs, incident creates, small blob uploads): no 5xx but 503 (or 429) with Retry-After, no reset
# connection, /q/health/live answering within 2 s throughout, peak RSS bounded, nothing acknowledged lost.
case_overload() {
    local backend
    for backend in postgres $([ "$HEAVY" = 1 ] && echo filesystem); do
        overload_backend "$backend"
    done
}

overload_backend() {
    local backend=$1 port=18695 db=evidence_faults_overload dir=$WORK/overload-$1 started n=${FAULTS_BURST:-2000}
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir/slow"
    # the burst is one address and one token: the per-client and per-principal caps are lifted, so that the budgets
    # of each kind of request and of body memory are what the burst meets (docs/operations.md, "Limits")
    service_start "$LOGS/overload-$backend.log" "$port" "$db" "$backend" "$dir/blobs" \
        -Devidence.http.admission.per-client=100000 -Devidence.http.admission.per-principal=100000
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result "overload[$backend]" FAIL "service did not start"; return; }
    create_incident "$port" BURST-1 > /dev/null
    # a warm-up the size of a fifth of the burst, before anything is timed: the burst meets a service that has
    # answered requests before, as in production, not one whose JIT compilers take half of two cores
    overload_burst "$port" $((n / 5)) "$dir/warmup" 0 > "$dir/warmup.json"
    sleep 1
    local i slow=()
    for i in $(seq 1 50); do
        head -c 100000 /dev/urandom > "$dir/slow/$i.bin"
        ( curl -s -o "$dir/slow/$i.json" -m 60 -w '%{http_code}\n' --limit-rate 10k -H "$(auth)" \
            -H 'Content-Type: application/octet-stream' -T "$dir/slow/$i.bin" \
            "$(api "$port")/blobs/sha256:$(sha256sum "$dir/slow/$i.bin" | cut -d' ' -f1)" > "$dir/slow/$i.code" ) &
        slow+=($!)
    done
    sleep 2
    ( while [ ! -f "$dir/stop-probe" ]; do
        curl -s -o /dev/null -m 2 -w '%{http_code} %{time_total} connect=%{time_connect} first-byte=%{time_starttransfer}\n' "http://127.0.0.1:$port/q/health/live"
        sleep 0.25
    done > "$dir/health.log" ) &
    local prober=$!
    local burst
    burst=$(overload_burst "$port" "$n" "$dir/burst" 10)
    echo "$burst" > "$dir/burst.json"
    wait "${slow[@]}"
    touch "$dir/stop-probe"; wait "$prober"
    local rss alive=yes
    rss=$(service_peak_rss_mb "$pid")
    kill -0 "$pid" 2> /dev/null || alive=no
    local slow_codes slow_lost=0 code
    slow_codes=$(cat "$dir"/slow/*.code | sort | uniq -c | awk '{ printf "%s%s×%s", sep, $2, $1; sep="," }')
    for i in $(seq 1 50); do
        code=$(cat "$dir/slow/$i.code")
        [[ $code == 2* ]] || continue
        [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" "$(api "$port")/blobs/sha256:$(sha256sum "$dir/slow/$i.bin" | cut -d' ' -f1)")" = 200 ] \
            || slow_lost=$((slow_lost + 1))
    done
    local verdict warmed
    verdict=$(overload_verify "$port" "$dir/burst.jsonl")
    warmed=$(overload_verify "$port" "$dir/warmup.jsonl")
    # every acknowledged write has its audit entry (docs/integrity.md: every write is appended to audit_entry)
    local acked_writes audited unaudited
    acked_writes=$(( $(cat "$dir/warmup.jsonl" "$dir/burst.jsonl" | jq -s '[.[] | select((.op == "incident" or .op == "blob") and .status >= 200 and .status < 300)] | length') \
        + 1 + $(grep -c '^2' "$dir"/slow/*.code | awk -F: '{ s += $2 } END { print s }') ))
    audited=$(psql_db "$db" -c "SELECT count(*) FROM audit_entry WHERE status BETWEEN 200 AND 299 AND method IN ('POST', 'PUT')")
    unaudited=$(( acked_writes - audited ))
    local probes probes_failed probe_max
    probes=$(wc -l < "$dir/health.log")
    probes_failed=$(grep -vc '^200 ' "$dir/health.log")
    probe_max=$(awk '{ if ($2 > m) m = $2 } END { printf "%.2f", m }' "$dir/health.log")
    service_stop "$pid"
    local five_hundreds errors no_retry not_problem lost status=PASS
    five_hundreds=$(echo "$burst" | jq '[.statuses | to_entries[] | select((.key | tonumber? // 0) >= 500 and .key != "503") | .value] | add // 0')
    errors=$(echo "$burst" | jq '[.statuses | to_entries[] | select(.key | startswith("err:")) | .value] | add // 0')
    no_retry=$(echo "$burst" | jq '.refusedWithoutRetryAfter'); not_problem=$(echo "$burst" | jq '.errorsNotProblemJson')
    lost=$(( $(echo "$verdict" | jq '.problemCount') + $(echo "$warmed" | jq '.problemCount') + slow_lost ))
    { [ "$five_hundreds" = 0 ] && [ "$errors" = 0 ] && [ "$no_retry" = 0 ] && [ "$not_problem" = 0 ] && [ "$lost" = 0 ] \
        && [ "$probes_failed" = 0 ] && [ "$alive" = yes ] && [ "${rss:-9999}" -lt 512 ] && [ "$unaudited" -le 0 ]; } || status=FAIL
    result "overload[$backend]" "$status" "burst of $n: statuses $(echo "$burst" | jq -c .statuses) in $(echo "$burst" | jq .seconds)s (p50 $(echo "$burst" | jq .p50ms)ms, p99 $(echo "$burst" | jq .p99ms)ms, max $(echo "$burst" | jq .maxMs)ms), 429/503 without Retry-After=$no_retry, errors not problem+json=$not_problem; 50 slow uploads: $slow_codes; health/live $((probes - probes_failed))/$probes answered 200 within 2 s (slowest ${probe_max}s); peak RSS ${rss}MB (-Xmx128m); acknowledged writes lost=$lost, acknowledged writes missing from the audit log=$unaudited of $acked_writes; $(elapsed "$started")s"
}

# overload_burst PORT N PREFIX NICENESS: N concurrent requests of the burst's mix against BURST-1 from a client at
# that niceness; the summary on stdout, each request in PREFIX.jsonl, the client's errors in PREFIX.err
overload_burst() {
    nice -n "$4" $CLIENT burst --base "http://127.0.0.1:$1" --token "$TOKEN" --ws "$WS" --incident BURST-1 --n "$2" \
        --journal "$3.jsonl" 2> "$3.err"
}

# overload_verify PORT JOURNAL: reads back every write JOURNAL records as acknowledged
overload_verify() {
    $CLIENT verify-writes --base "http://127.0.0.1:$1" --token "$TOKEN" --ws "$WS" --journal "$2"
}
