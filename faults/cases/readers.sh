# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 12: readers -------------------------------------------------------------------------------------------

# Slow readers on a public artifact (issue 15): a 30 MB artifact in a public-read workspace, 64 anonymous
# connections, each from its own loopback address (127.0.1.x), that GET its content and never read, while a writer
# (authenticated small uploads), a metadata reader (GET incidents) and /q/health/live are timed for
# FAULTS_READERS_SECONDS (20). Run with -Xmx128m, then with the generated Deployment's JVM flags
# (quarkus.kubernetes.env.vars.java-opts-append). PASS: no failed write, read or probe, write and read p99 under
# 1 s, peak RSS under 512 MiB, every stalled download either refused 503 (the download budget,
# evidence.http.admission.downloads) or cut by the server (stalled transfer timeout, 30 s), and no ERROR line in the
# service log once the artifact is uploaded.
# FAULTS_READERS_MAX_REQUESTS sets evidence.http.max-concurrent-requests (unset: the service's own limits). The
# cheap variant (faults/run.sh cheap) runs -Xmx128m only, for 8 s, with a stalled transfer timeout of 10 s.
case_readers() {
    local seconds=${FAULTS_READERS_SECONDS:-20} hold=${FAULTS_READERS_HOLD:-40} timeout=${FAULTS_READERS_TIMEOUT:-30s}
    readers_run xmx128 128m "$(service_jvm_options)" "$seconds" "$hold" "$timeout"
    [ "${FAULTS_READERS_CHEAP:-0}" = 1 ] && return
    local heap options
    read -r heap options <<< "$(readers_deployment_flags)"
    readers_run deployment "$heap" "$options" "$seconds" "$hold" "$timeout"
}

# the Deployment's JVM flags from application.properties: "HEAP OTHER OPTIONS", the AOT cache at the local path
readers_deployment_flags() {
    local flags heap=128m rest=() flag
    flags=$(sed -n 's/^quarkus\.kubernetes\.env\.vars\.java-opts-append=//p' src/main/resources/application.properties)
    for flag in $flags; do
        case $flag in
            -Xmx*) heap=${flag#-Xmx} ;;
            -XX:AOTCache=*) [ -f "$SERVICE_APP/app.aot" ] && rest+=("-XX:AOTCache=app.aot") ;;
            *) rest+=("$flag") ;;
        esac
    done
    echo "$heap ${rest[*]}"
}

readers_run() {
    local label=$1 heap=$2 options=$3 seconds=$4 hold=$5 timeout=$6
    local port=18702 db=evidence_faults_readers dir=$WORK/readers-$1 started size=$((30 * 1024 * 1024))
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    local limits=()
    [ -n "${FAULTS_READERS_MAX_REQUESTS:-}" ] && limits+=("-Devidence.http.max-concurrent-requests=$FAULTS_READERS_MAX_REQUESTS")
    SERVICE_HEAP=$heap SERVICE_JVM_OPTIONS=$options service_start "$LOGS/readers-$label.log" "$port" "$db" postgres "" \
        -Devidence.public-read-workspaces="$WS" -Devidence.http.stalled-transfer-timeout="$timeout" "${limits[@]}"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result "readers[$label]" FAIL "service did not start"; return; }
    create_incident "$port" READ-1 > /dev/null
    head -c "$size" /dev/urandom > "$dir/big.bin"
    local digest artifact code
    digest=sha256:$(sha256sum "$dir/big.bin" | cut -d' ' -f1)
    code=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/octet-stream' \
        -T "$dir/big.bin" "$(api "$port")/blobs/$digest")
    artifact=artifact:$WS:v1:READ-1:big
    [ "$code" = 201 ] && code=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/json' \
        -X POST "$(api "$port")/workspaces/$WS/incidents/READ-1/artifacts" \
        -d "{\"name\":\"big\",\"digest\":\"$digest\",\"mediaType\":\"application/octet-stream\",\"source\":\"faults\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T10:20:00Z\"}")
    local content=/api/v1/artifacts/$artifact/content
    # the content is public: anonymous, no token
    [ "$code" = 201 ] && code=$(curl -s -o /dev/null -w '%{http_code}' -r 0-9 "http://127.0.0.1:$port$content")
    [ "$code" = 206 ] || { result "readers[$label]" FAIL "setup: the public artifact could not be made or read ($code)"; service_stop "$pid"; return; }
    rm -f "$dir/big.bin"
    local mark
    mark=$(wc -l < "$LOGS/readers-$label.log")
    local figures
    figures=$(node faults/lib/readers.mjs --base "http://127.0.0.1:$port" --content "$content" --size "$size" \
        --token "$TOKEN" --ws "$WS" --stalled 64 --seconds "$seconds" --hold "$hold" 2> "$dir/readers.err")
    echo "$figures" > "$dir/figures.json"
    local rss alive=yes errors
    rss=$(service_peak_rss_mb "$pid")
    kill -0 "$pid" 2> /dev/null || alive=no
    errors=$(tail -n +"$((mark + 1))" "$LOGS/readers-$label.log" | grep -c ' ERROR ')
    service_stop "$pid"
    [ -n "$figures" ] || { result "readers[$label]" FAIL "the client failed: $(tail -n 3 "$dir/readers.err")"; return; }
    local status=PASS
    jq -e --argjson rss "${rss:-9999}" --argjson errors "$errors" '
        .write.failed == 0 and .read.failed == 0 and .live.failed == 0 and .write.n > 0 and .read.n > 0
        and .write.p99ms < 1000 and .read.p99ms < 1000 and .cutShort + .refused == .stalled and .open == 0 and .other == 0 and $rss < 512 and $errors == 0' \
        <<< "$figures" > /dev/null && [ "$alive" = yes ] || status=FAIL
    result "readers[$label]" "$status" "$(jq -r '"64 stalled readers of a 30 MB public artifact: \(.refused) refused 503 (download budget), \(.cutShort) admitted and cut by the server (still open \(.open), complete \(.complete), other \(.other)); writes \(.write.n) (failed \(.write.failed), p50 \(.write.p50ms)ms, p99 \(.write.p99ms)ms, max \(.write.maxMs)ms, \(.write.statuses | tojson)); metadata reads \(.read.n) (failed \(.read.failed), p50 \(.read.p50ms)ms, p99 \(.read.p99ms)ms, max \(.read.maxMs)ms, \(.read.statuses | tojson)); health/live \(.live.n - .live.failed)/\(.live.n) 200 (max \(.live.maxMs)ms)"' <<< "$figures"); peak RSS ${rss}MB (-Xmx$heap $options); ERROR lines $errors; max concurrent requests ${FAULTS_READERS_MAX_REQUESTS:-default}; stalled timeout $timeout; $(elapsed "$started")s"
}
