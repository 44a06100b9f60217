# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 1: kill -9 during uploads -----------------------------------------------------------------------------

# kill -9 of the service at random moments while several clients upload (large and small blobs) and bind
# artifacts; after the last restart every acknowledged upload must be there and verify, nothing refused be
# visible, every unacknowledged upload succeed when retried, and the sweep remove the temp files the kills left.
# Every acknowledged write has its audit entry: it committed with the write, and an entry the killed instance had
# not yet sequenced is sequenced by the restarted one (audit_pending drains). No answer is a 500.
case_kill() {
    local kills=${FAULTS_KILLS:-$([ "$HEAVY" = 1 ] && echo 50 || echo 10)}
    local backend
    for backend in postgres filesystem; do
        kill_backend "$backend" "$kills"
    done
}

kill_backend() {
    local backend=$1 kills=$2 port=18691
    local db=evidence_faults_kill_$backend dir=$WORK/kill-$backend started
    started=$(now)
    service_db_fresh "$db"
    rm -rf "$dir" && mkdir -p "$dir" && : > "$LOGS/kill-$backend.log"
    local blobs=$dir/blobs
    # temp files idle for 2 s count as abandoned, and the sweep looks for them every FAULTS_SWEEP_S (5) s, first that
    # long after each start, so the case need not wait the production 10 min
    local sweep_s=${FAULTS_SWEEP_S:-5}
    local settings=(-Devidence.storage.filesystem.abandoned-upload-after=2s -Devidence.storage.sweep-interval="${sweep_s}s")
    service_start "$LOGS/kill-$backend.log" "$port" "$db" "$backend" "$blobs" "${settings[@]}"
    service_await_ready "$port" 90 || { result "kill[$backend]" FAIL "service did not start; see $LOGS/kill-$backend.log"; return; }
    local incident=KILL-1
    [ "$(create_incident "$port" "$incident")" = 201 ] || { result "kill[$backend]" FAIL "cannot create the incident"; return; }

    $CLIENT load --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --incident "$incident" --clients 6 \
        --stop "$dir/stop" --journal "$dir/journal.jsonl" > "$dir/load.json" 2> "$dir/load.err" &
    local client=$!
    # beside the clients, one slow upload that each kill is sure to cut off, so that there are temp files to sweep
    head -c 3000000 /dev/urandom > "$dir/slow.bin"
    local slow_digest
    slow_digest=sha256:$(sha256sum "$dir/slow.bin" | cut -d' ' -f1)
    local i restart_max=0 t0 restart_s
    for i in $(seq 1 "$kills"); do
        curl -s -o /dev/null -m 60 --limit-rate 200k -H "$(auth)" -H 'Content-Type: application/octet-stream' \
            -T "$dir/slow.bin" "$(api "$port")/blobs/$slow_digest" &
        # a random moment 0.3-3.0 s into the stream
        sleep "$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.3 + 2.7 * r / 32767 }')"
        kill -9 "$SERVICE_PID"; wait "$SERVICE_PID" 2> /dev/null
        t0=$(now)
        service_start "$LOGS/kill-$backend.log" "$port" "$db" "$backend" "$blobs" "${settings[@]}"
        service_await_ready "$port" 90 || { touch "$dir/stop"; wait "$client"; result "kill[$backend]" FAIL "restart $i failed; see $LOGS/kill-$backend.log"; return; }
        restart_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
        restart_max=$(awk -v a="$restart_max" -v b="$restart_s" 'BEGIN { print (b > a) ? b : a }')
    done
    sleep 1
    touch "$dir/stop"
    wait "$client"
    local slow_status
    slow_status=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" "$(api "$port")/blobs/$slow_digest")
    [ "$slow_status" = 404 ] || note "the slow upload cut off by every kill reads as $slow_status (expected 404)"
    local temps_left
    temps_left=$(find "$blobs/uploads" -name '*.part' 2> /dev/null | wc -l)

    local verdict
    verdict=$($CLIENT verify --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --incident "$incident" \
        --journal "$dir/journal.jsonl" --retry)
    echo "$verdict" > "$dir/verify.json"

    # orphans: temp files of the filesystem backend, chunk rows no blob names in the postgres one
    local orphans swept=n/a waited_s=0
    if [ "$backend" = filesystem ]; then
        # wait for a sweep (AbandonedUploads) to remove them: a few sweep intervals at most
        local deadline=$(( $(date +%s) + 6 * sweep_s + 30 )) t1
        t1=$(now)
        while [ "$(date +%s)" -lt "$deadline" ]; do
            grep -q 'abandoned upload' "$LOGS/kill-$backend.log" && [ "$(find "$blobs/uploads" -name '*.part' | wc -l)" = 0 ] && break
            [ "$temps_left" = 0 ] && [ "$(elapsed "$t1")" -ge $(( 3 * sweep_s )) ] && break
            sleep 1
        done
        waited_s=$(elapsed "$t1")
        orphans=$(find "$blobs/uploads" -name '*.part' | wc -l)
        swept=$(grep -o 'removed [0-9]* abandoned' "$LOGS/kill-$backend.log" | awk '{ s += $2 } END { print s + 0 }')
    else
        orphans=$(psql_db "$db" -c "SELECT count(*) FROM blob_chunk c WHERE NOT EXISTS
            (SELECT 1 FROM blob_content b WHERE b.content_id = c.content_id)")
        local unbacked
        unbacked=$(psql_db "$db" -c "SELECT count(*) FROM blob b WHERE NOT EXISTS
            (SELECT 1 FROM blob_content c WHERE c.digest = b.digest)")
        [ "$unbacked" = 0 ] || verdict=$(echo "$verdict" | jq -c --arg n "$unbacked" '.problemCount += 1 | .problems += ["\($n) blob rows without content"]')
    fi
    local audit
    audit=$(audit_verdict "$port" "$db" "$dir/journal.jsonl" "$LOGS/kill-$backend.log")
    service_stop "$SERVICE_PID"

    local problems figures status=PASS
    problems=$(echo "$verdict" | jq -r '.problemCount')
    [ "$problems" = 0 ] && [ "$orphans" = 0 ] && [ "$slow_status" = 404 ] && audit_passed "$audit" || status=FAIL
    figures=$(echo "$verdict" | jq -r --arg k "$kills" --arg r "$restart_max" \
        '"kills=\($k) blobs acked=\(.blobsAcked) intact=\(.blobsAckedIntact) unacked=\(.blobsUnacked) (stored anyway=\(.blobsUnackedStored)); artifacts acked=\(.bindsAcked) verified=\(.bindsAckedVerified) unacked=\(.bindsUnacked) visible-unacked=\(.unackedVisible) (cut off by the kill=\(.unackedVisibleCutOff)); retries ok=\(.retriedOk)/\(.retried); max restart=\($r)s"')
    figures="$figures; temp files after the kills=$temps_left, swept=$swept, orphans left=$orphans"
    [ "$backend" = filesystem ] && figures="$figures (after ${waited_s}s, sweep every ${sweep_s}s)"
    figures="$figures; $(audit_figures "$audit")"
    [ "$problems" = 0 ] || figures="$figures; problems: $(echo "$verdict" | jq -c '.problems[:5]')"
    audit_passed "$audit" || figures="$figures; unaudited: $(echo "$audit" | jq -c '.examples')"
    result "kill[$backend]" "$status" "$figures; $(elapsed "$started")s"
}
