# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 11: an anonymous audit flood --------------------------------------------------------------------------

# FAULTS_FLOOD (300) anonymous POST /api/v1/artifacts/<3,900 random characters>/verifications, 8 at a time, each
# within 10 s, against the packaged jar (-Xmx128m) with evidence.audit.unauthenticated-writes.rate=10 a minute, set
# here as the default is. The first 10 of a window are 401 with an entry of their own, cut to 256 bytes; the others
# 429 with Retry-After, counted in one aggregate entry per window. The service is stopped right after the flood,
# before its window ends, so the aggregate is the one written at shutdown; a restart then verifies the whole log.
# PASS when every request has its entry (its own or a count in the aggregate), every 429 carries Retry-After, the
# log verifies, and the bytes the flood added to audit_entry and audit_pending stay under the documented bound:
# (rate + 1) entries per window the flood touched, each row at most 4,400 bytes (docs/integrity.md, "Bounded
# entries").
FLOOD_MAX_ROW_BYTES=4400

case_flood() {
    local port=18703 db=evidence_faults_flood dir=$WORK/flood n=${FAULTS_FLOOD:-300} rate=10 started
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    local limit=(-Devidence.audit.unauthenticated-writes.rate=$rate -Devidence.audit.unauthenticated-writes.window=1m)
    service_start "$LOGS/flood.log" "$port" "$db" postgres "" "${limit[@]}"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result flood FAIL "service did not start"; return; }
    # one acknowledged write first, so the log and its tree exist before the flood
    create_incident "$port" FLOOD-1 > /dev/null
    local before_seq before_bytes
    flood_await_sequenced "$db"
    before_seq=$(psql_db "$db" -c "SELECT coalesce(max(seq), 0) FROM audit_entry")
    before_bytes=$(flood_bytes "$db" "$before_seq")
    local i
    for i in $(seq 1 "$n"); do
        echo "/api/v1/artifacts/$(head -c 4000 /dev/urandom | base64 -w0 | tr -dc 'A-Za-z0-9' | head -c 3900)/verifications"
    done > "$dir/paths"
    local first_window last_window
    first_window=$(( $(date +%s) / 60 ))
    # 8 clients at once; each answer as "status retry-after"
    xargs -P 8 -I{} curl -s -o /dev/null -m 10 -X POST -w '%{http_code} %header{retry-after}\n' \
        "http://127.0.0.1:$port{}" < "$dir/paths" > "$dir/answers"
    last_window=$(( $(date +%s) / 60 ))
    service_stop "$pid"
    local windows=$(( last_window - first_window + 1 ))
    local answered unauthorized limited no_retry other
    answered=$(wc -l < "$dir/answers")
    unauthorized=$(grep -c '^401 ' "$dir/answers")
    limited=$(grep -c '^429 ' "$dir/answers")
    no_retry=$(grep -c '^429 *$' "$dir/answers")
    other=$(( answered - unauthorized - limited ))
    local own aggregated aggregates after_bytes added bound
    own=$(psql_db "$db" -c "SELECT count(*) FROM (SELECT status, aggregate FROM audit_entry WHERE seq > $before_seq
        UNION ALL SELECT status, aggregate FROM audit_pending) e WHERE status = 401 AND aggregate IS NULL")
    aggregates=$(psql_db "$db" -c "SELECT count(*) FROM (SELECT aggregate FROM audit_entry WHERE seq > $before_seq
        UNION ALL SELECT aggregate FROM audit_pending) e WHERE aggregate IS NOT NULL")
    aggregated=$(psql_db "$db" -c "SELECT coalesce(sum((aggregate::jsonb->>'count')::int), 0) FROM (SELECT aggregate
        FROM audit_entry WHERE seq > $before_seq UNION ALL SELECT aggregate FROM audit_pending) e
        WHERE aggregate IS NOT NULL")
    after_bytes=$(flood_bytes "$db" "$before_seq")
    added=$(( after_bytes - before_bytes ))
    bound=$(( windows * (rate + 1) * FLOOD_MAX_ROW_BYTES ))
    local largest
    largest=$(psql_db "$db" -c "SELECT coalesce(max(pg_column_size(e.*)), 0) FROM audit_entry e WHERE seq > $before_seq")
    # the restarted service sequences what is left and verifies the whole log, truncated and aggregate entries too;
    # the cheap variant (FAULTS_FLOOD_RESTART=0) leaves that to the tests, to save a start
    local intact=true
    if [ "${FAULTS_FLOOD_RESTART:-1}" = 1 ]; then
        intact=unknown
        service_start "$LOGS/flood.log" "$port" "$db" postgres "" "${limit[@]}"
        pid=$SERVICE_PID
        if service_await_ready "$port" 120; then
            intact=$(curl -s -m 60 -X POST -H "$(auth)" -H 'Content-Type: application/json' -d '{}' \
                "$(api "$port")/audit/verify" | jq -r '.intact')
        fi
        service_stop "$pid"
    fi
    local status=PASS
    { [ "$answered" = "$n" ] && [ "$other" = 0 ] && [ "$no_retry" = 0 ] && [ "$unauthorized" -le $(( windows * rate )) ] \
        && [ "$own" = "$unauthorized" ] && [ "$aggregated" = "$limited" ] && [ "$aggregates" -le "$windows" ] \
        && [ "$added" -le "$bound" ] && [ "$intact" = true ]; } || status=FAIL
    result flood "$status" "$n anonymous POSTs to 3,932-character paths, 8 at a time, in $windows window(s) of a minute: 401×$unauthorized (own entries $own), 429×$limited (aggregated in $aggregates entr(y/ies) counting $aggregated; without Retry-After $no_retry), other $other; audit_entry+audit_pending grew $added bytes (bound $bound = $windows × ($rate + 1) × $FLOOD_MAX_ROW_BYTES; largest row $largest bytes; before the bound, ~3.9 KB a row and one per request), log intact after restart: $intact (checked: ${FAULTS_FLOOD_RESTART:-1}); $(elapsed "$started")s"
}

# flood_bytes DATABASE AFTER_SEQ: the bytes of the rows of audit_entry after AFTER_SEQ and of audit_pending
flood_bytes() {
    psql_db "$1" -c "SELECT coalesce((SELECT sum(pg_column_size(e.*)) FROM audit_entry e WHERE seq > $2), 0)
        + coalesce((SELECT sum(pg_column_size(p.*)) FROM audit_pending p), 0)"
}

# flood_await_sequenced DATABASE: until the sequencer has numbered every pending entry (at most 10 s)
flood_await_sequenced() {
    local i
    for i in $(seq 1 100); do
        [ "$(psql_db "$1" -c "SELECT count(*) FROM audit_pending")" = 0 ] && return 0
        sleep 0.1
    done
    return 1
}
