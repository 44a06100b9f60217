# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 10: validation amplification --------------------------------------------------------------------------

# The body of issue 15: a finding citing "x" 100,000 times (400 KB compact; the issue sent 500 KB), which once got a
# 16 MB 400 listing 200,000 errors, stored for a day under an Idempotency-Key. On the packaged jar with -Xmx128m,
# posted without a key and twice with one: PASS when each answer is a 400 invalid-request under 64 KiB with 50
# errors and errorCount 200000, the keyed retry is the first keyed answer byte for byte with Idempotent-Replayed:
# ?1, and the stored answer is as small as the one sent.
case_amplify() {
    local port=18706 db=evidence_faults_amplify dir=$WORK/amplify started bound=65536
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    service_start "$LOGS/amplify.log" "$port" "$db" postgres "$dir/blobs"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result amplify FAIL "service did not start; see $LOGS/amplify.log"; return; }
    create_incident "$port" AMP-1 > /dev/null
    jq -cn '{name: "flood", kind: "supporting", statement: "Many IDs.", artifactIds: [range(100000) | "x"]}' \
        > "$dir/body.json"
    local key url attempt
    key=$(openssl rand -hex 16)
    url="$(api "$port")/workspaces/$WS/incidents/AMP-1/findings"
    curl -s -o "$dir/unkeyed.json" -D "$dir/unkeyed.headers" -w '%{http_code} %{time_total}\n' -H "$(auth)" \
        -H 'Content-Type: application/json' --data-binary @"$dir/body.json" "$url" > "$dir/unkeyed.code"
    for attempt in first retry; do
        curl -s -o "$dir/$attempt.json" -D "$dir/$attempt.headers" -w '%{http_code} %{time_total}\n' -H "$(auth)" \
            -H 'Content-Type: application/json' -H "Idempotency-Key: \"$key\"" --data-binary @"$dir/body.json" "$url" \
            > "$dir/$attempt.code"
    done
    local stored rss
    stored=$(psql_db "$db" -c "SELECT octet_length(body) FROM idempotency_record WHERE idempotency_key = '$key'")
    rss=$(service_peak_rss_mb "$pid")
    service_stop "$pid"
    local status=PASS figures="" name size
    for name in unkeyed first retry; do
        size=$(stat -c %s "$dir/$name.json")
        figures="$figures$name: $(cut -d' ' -f1 "$dir/$name.code") in $(cut -d' ' -f2 "$dir/$name.code")s, $size bytes, errors=$(jq '.errors | length' "$dir/$name.json") errorCount=$(jq .errorCount "$dir/$name.json"); "
        { [ "$(cut -d' ' -f1 "$dir/$name.code")" = 400 ] && [ "$size" -lt "$bound" ] \
            && [ "$(jq -r '.type' "$dir/$name.json")" = https://evidence-store.dev/problems/invalid-request ] \
            && [ "$(jq '.errors | length' "$dir/$name.json")" = 50 ] \
            && [ "$(jq .errorCount "$dir/$name.json")" = 200000 ]; } || status=FAIL
    done
    local identical=no marked=no
    cmp -s "$dir/first.json" "$dir/retry.json" && identical=yes
    grep -qi '^idempotent-replayed: ?1' "$dir/retry.headers" && marked=yes
    { [ "$identical" = yes ] && [ "$marked" = yes ] && [ "${stored:-0}" = "$(stat -c %s "$dir/first.json")" ]; } \
        || status=FAIL
    result amplify "$status" "body of $(stat -c %s "$dir/body.json") bytes (100,000 × \"x\"): ${figures}retry byte-identical=$identical, marked replayed=$marked; stored answer ${stored:-none} bytes; peak RSS ${rss}MB (-Xmx128m); $(elapsed "$started")s"
}
