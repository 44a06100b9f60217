# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 2: PostgreSQL stopped during writes ------------------------------------------------------------------

# judge_outage STOPPING DOWN STARTING ACCEPTING JOURNAL: the requests sent while PostgreSQL was stopped (times in ms
# since the epoch: stop issued, stop complete, start issued, start seen complete by pg_isready). Every one sent and
# answered while it was certainly down (after the stop completed, before the start was issued) must be 503
# problem+json with Retry-After. Others may have committed before the stop took effect, or waited for a connection
# until PostgreSQL accepted again (a while before pg_isready, polled, says so), and succeeded; none may be another
# 5xx or go unanswered. The 8 s limit is the refusals': a write that committed as PostgreSQL stopped is answered once
# its audit entry has its place in the log, after PostgreSQL is back (or after the 10 s the answer waits for that).
judge_outage() {
    jq -sc --argjson a "$1" --argjson down "$2" --argjson s "$3" --argjson b "$4" '
        [.[] | select(.started >= $a and .started < $b)] as $d |
        ($d | map(select(.started >= $down and .started + .ms < $s))) as $whileDown |
        def refused: .status == 503 and (.contentType | tostring | startswith("application/problem+json"))
            and .retryAfter != null;
        { n: ($d | length),
          statuses: ($d | group_by(.status) | map({key: (.[0].status | tostring), value: length}) | from_entries),
          types: ($d | map(select(.status >= 400)) | group_by(.type) | map({key: (.[0].type // "none"), value: length}) | from_entries),
          maxMs: ($d | map(select(.status < 200 or .status >= 300) | .ms) | max // 0),
          maxWrittenMs: ($d | map(select(.status >= 200 and .status < 300) | .ms) | max // 0),
          answeredDown: ($whileDown | length),
          written: ($d | map(select(.status >= 200 and .status < 300)) | length),
          bad: (($whileDown | map(select(refused | not)) | length)
                + ($d | map(select(.status == 0 or (.status >= 500 and (refused | not)))) | length)),
          errors: ($d | map(select(.status == 0) | .error) | unique) }' "$5"
}

# PostgreSQL stopped (-m immediate) while clients write: while it is down every write answers 503 problem+json with
# Retry-After within the 5 s pool acquisition timeout (+3 s margin) (one that waited for a connection until it was
# back may succeed: see judge_outage), the service recovers without a restart once PostgreSQL is back, no
# acknowledged write is lost, and each has its audit entry. The PostgreSQL it stops for FAULTS_PG_DOWN_S (5) seconds
# is a cluster of its own (faults/lib/common.sh, private_pg_init), not the machine's, which other work shares.
case_pg_stop() {
    local port=18692 db=evidence_faults_pg dir=$WORK/pg-stop down_s=${FAULTS_PG_DOWN_S:-5} started
    started=$(now)
    rm -rf "$dir" && mkdir -p "$dir" && : > "$LOGS/pg-stop.log"
    private_pg_init || { result pg-stop FAIL "could not make a PostgreSQL cluster with $PG_BIN/initdb"; return; }
    # the service, psql_db and the client's psql go to the case's cluster
    local PGPORT=$PRIVATE_PG_PORT
    private_pg_database "$db" || { result pg-stop FAIL "could not create $db on port $PGPORT"; return; }
    service_start "$LOGS/pg-stop.log" "$port" "$db" postgres "$dir/blobs"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result pg-stop FAIL "service did not start; see $LOGS/pg-stop.log"; return; }
    $CLIENT writes --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --clients 8 --stop "$dir/stop" \
        --journal "$dir/journal.jsonl" 2> "$dir/writes.err" &
    local client=$!
    sleep 3
    # health while it is down, every 0.5 s
    ( while [ ! -f "$dir/stop-probe" ]; do
        echo "$(date +%s%3N) live=$(curl -s -o /dev/null -m 3 -w '%{http_code}' "http://127.0.0.1:$port/q/health/live") ready=$(curl -s -o /dev/null -m 3 -w '%{http_code}' "http://127.0.0.1:$port/q/health/ready")"
        sleep 0.5
    done > "$dir/health.log" ) &
    local prober=$!
    local t_stop t_start
    t_stop=$(date +%s%3N)
    private_pg_stop
    # pg_ctl waits for the shutdown: from here until the start is issued, PostgreSQL is certainly down
    local t_down
    t_down=$(date +%s%3N)
    sleep "$down_s"
    local t_pg_start
    t_pg_start=$(date +%s%3N)
    # pg_ctl -w returns once PostgreSQL has finished its crash recovery and accepts connections again
    private_pg_start
    t_start=$(date +%s%3N)
    local pg_ready_ms=$(( t_start - t_pg_start ))
    # recovered: the first write acknowledged after PostgreSQL started; wait at most 60 s
    for _ in $(seq 1 120); do
        sleep 0.5
        [ "$(create_incident "$port" "PG-$(date +%s%N | cut -c10-18)")" = 201 ] && break
    done
    local recovered_ms=$(( $(date +%s%3N) - t_start ))
    sleep 2
    touch "$dir/stop" "$dir/stop-probe"
    wait "$client" "$prober"
    local alive=yes
    kill -0 "$pid" 2> /dev/null || alive=no

    local verdict during
    verdict=$($CLIENT verify-writes --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --journal "$dir/journal.jsonl")
    # the requests sent while PostgreSQL was down
    echo "{\"stopping\": $t_stop, \"down\": $t_down, \"starting\": $t_pg_start, \"accepting\": $t_start}" \
        > "$dir/times.json"
    during=$(judge_outage "$t_stop" "$t_down" "$t_pg_start" "$t_start" "$dir/journal.jsonl")
    echo "$during" > "$dir/during.json"
    local live_down ready_down
    live_down=$(awk -v a="$t_stop" -v b="$t_start" '$1 >= a && $1 < b' "$dir/health.log" | grep -vc 'live=200')
    ready_down=$(awk -v a="$t_stop" -v b="$t_start" '$1 >= a && $1 < b' "$dir/health.log" | grep -o 'ready=[0-9]*' | sort | uniq -c | awk '{ printf "%s%s×%s", sep, $2, $1; sep="," }')
    local audit
    audit=$(audit_verdict "$port" "$db" "$dir/journal.jsonl" "$LOGS/pg-stop.log")
    service_stop "$pid"
    private_pg_remove

    local status=PASS max_ms bad lost n
    max_ms=$(echo "$during" | jq '.maxMs'); bad=$(echo "$during" | jq '.bad'); n=$(echo "$during" | jq '.n')
    lost=$(echo "$verdict" | jq '.problemCount')
    { [ "$n" -gt 0 ] && [ "$bad" = 0 ] && [ "$max_ms" -lt 8000 ] && [ "$lost" = 0 ] && [ "$alive" = yes ] \
        && [ "$recovered_ms" -lt 60000 ] && [ "$live_down" = 0 ] && audit_passed "$audit"; } || status=FAIL
    result pg-stop "$status" "stopped ${down_s}s: $n requests while down, statuses $(echo "$during" | jq -c .statuses), types $(echo "$during" | jq -c .types); sent and answered while it was down $(echo "$during" | jq .answeredDown), written before the stop took effect or after waiting for its return $(echo "$during" | jq .written); not 503 problem+json with Retry-After though answered while down, or another 5xx, or unanswered=$bad, transport errors $(echo "$during" | jq -c .errors), slowest refusal ${max_ms}ms (limit 8000), slowest write $(echo "$during" | jq .maxWrittenMs)ms; live probes failed while down=$live_down, ready while down: $ready_down; PostgreSQL down $(( t_start - t_stop ))ms in all (crash recovery ${pg_ready_ms}ms), service writing again ${recovered_ms}ms after PostgreSQL was ready (no restart: $alive); acknowledged writes $(echo "$verdict" | jq .acked), lost $lost; $(audit_figures "$audit"); $(elapsed "$started")s"
    [ "$lost" = 0 ] || note "lost: $(echo "$verdict" | jq -c '.problems')"
    audit_passed "$audit" || note "audit: $(echo "$audit" | jq -c '.examples')"
}
