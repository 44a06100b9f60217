# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 3: disk full and write errors on the filesystem backend -----------------------------------------------

# (a) the blob store on an 8 MiB tmpfs that fills up: 507 problem+json, nothing of the refused upload stored or
# served, no temp file left, the service ready throughout and accepting the same upload once the disk is grown;
# (b) write errors injected by strace into the running JVM (fsync answers EIO, then ENOSPC): 503
# storage-unavailable with Retry-After (507 for ENOSPC), nothing stored, uploads fine once strace detaches.
case_disk() {
    local port=18693 db=evidence_faults_disk dir=$WORK/disk started
    started=$(now)
    service_db_fresh "$db"
    mountpoint -q "$dir/blobs" && umount "$dir/blobs"
    rm -rf "$dir" && mkdir -p "$dir/blobs"
    if ! mount -t tmpfs -o size=8m tmpfs "$dir/blobs" 2> "$dir/mount.err"; then
        result disk FAIL "cannot mount a tmpfs here ($(cat "$dir/mount.err")); run as root with mount rights"
        return
    fi
    service_start "$LOGS/disk.log" "$port" "$db" filesystem "$dir/blobs"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result disk FAIL "service did not start; see $LOGS/disk.log"; return; }
    local acked=() refused=() statuses=() i bad=0 f digest code type
    for i in $(seq 1 12); do
        f=$dir/b$i.bin
        head -c 1000000 /dev/urandom > "$f"
        digest=sha256:$(sha256sum "$f" | cut -d' ' -f1)
        code=$(curl -s -D "$dir/h$i" -o "$dir/r$i.json" -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/octet-stream' \
            -T "$f" "$(api "$port")/blobs/$digest")
        statuses+=("$code")
        if [[ $code == 2* ]]; then acked+=("$i:$digest"); else
            refused+=("$i:$digest")
            type=$(jq -r '.type' "$dir/r$i.json" 2> /dev/null)
            grep -qi '^content-type: application/problem+json' "$dir/h$i" && [ "$code" = 507 ] \
                && [ "$type" = https://evidence-store.dev/problems/insufficient-storage ] || { bad=$((bad + 1)); note "upload $i: $code $(cat "$dir/r$i.json")"; }
        fi
    done
    # nothing of a refused upload is stored or served, and no temp file stays behind
    local served_refused=0 served_bad=0 temps ready_full entry
    for entry in "${refused[@]}"; do
        digest=${entry#*:}
        code=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" "$(api "$port")/blobs/$digest")
        [ "$code" = 404 ] || served_refused=$((served_refused + 1))
        [ -e "$dir/blobs/sha256/${digest:7:2}/${digest:7}" ] && served_refused=$((served_refused + 1))
    done
    for entry in "${acked[@]}"; do
        digest=${entry#*:}
        [ "$(curl -s -H "$(auth)" "$(api "$port")/blobs/$digest" | sha256sum | cut -d' ' -f1)" = "${digest:7}" ] || served_bad=$((served_bad + 1))
    done
    temps=$(find "$dir/blobs/uploads" -name '*.part' | wc -l)
    ready_full=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$port/q/health/ready")
    # grow the disk: the refused upload now succeeds
    local after_grow=none
    mount -o remount,size=64m "$dir/blobs"
    if [ ${#refused[@]} -gt 0 ]; then
        entry=${refused[0]}; i=${entry%%:*}; digest=${entry#*:}
        after_grow=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/octet-stream' \
            -T "$dir/b$i.bin" "$(api "$port")/blobs/$digest")
    fi
    local full=PASS
    { [ ${#refused[@]} -gt 0 ] && [ "$bad" = 0 ] && [ "$served_refused" = 0 ] && [ "$served_bad" = 0 ] && [ "$temps" = 0 ] \
        && [ "$ready_full" = 200 ] && [ "$after_grow" = 201 ]; } || full=FAIL
    result disk-full "$full" "8 MiB tmpfs, 12 uploads of 1 MB: statuses $(printf '%s\n' "${statuses[@]}" | sort | uniq -c | awk '{ printf "%s%s×%s", sep, $2, $1; sep="," }'), refused not 507 insufficient-storage problem+json=$bad, refused blobs stored or served=$served_refused, acknowledged read back wrong=$served_bad, temp files left=$temps, ready while full=$ready_full, same upload after growing the disk=$after_grow"

    # (b) write errors injected into the JVM: fsync, which only the blob store calls, fails
    ensure_debian strace strace || { result disk-write-errors FAIL "strace is not installed and cannot be"; service_stop "$pid"; return; }
    local errno outcome line=""
    for errno in EIO ENOSPC; do
        strace -f -qq -p "$pid" -e trace=fsync,fdatasync -e inject=fsync,fdatasync:error=$errno -o "$dir/strace-$errno.log" &
        STRACE_PID=$!
        sleep 3 # strace attaches to every thread of the JVM
        f=$dir/inject-$errno.bin
        head -c 300000 /dev/urandom > "$f"
        digest=sha256:$(sha256sum "$f" | cut -d' ' -f1)
        local t0 t_ms
        t0=$(date +%s%3N)
        code=$(curl -s -D "$dir/inject-$errno.h" -o "$dir/inject-$errno.json" -m 30 -w '%{http_code}' -H "$(auth)" \
            -H 'Content-Type: application/octet-stream' -T "$f" "$(api "$port")/blobs/$digest")
        t_ms=$(( $(date +%s%3N) - t0 ))
        local injected
        injected=$(grep -c 'INJECTED' "$dir/strace-$errno.log")
        kill -INT "$STRACE_PID"; wait "$STRACE_PID" 2> /dev/null; STRACE_PID=""
        sleep 1
        type=$(jq -r '.type' "$dir/inject-$errno.json" 2> /dev/null | sed 's|.*/||')
        local retry_after stored now_ok
        retry_after=$(grep -i '^retry-after:' "$dir/inject-$errno.h" | tr -d '\r' | awk '{ print $2 }')
        stored=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" "$(api "$port")/blobs/$digest")
        [ -e "$dir/blobs/sha256/${digest:7:2}/${digest:7}" ] && stored="$stored+file"
        temps=$(find "$dir/blobs/uploads" -name '*.part' | wc -l)
        now_ok=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/octet-stream' \
            -T "$f" "$(api "$port")/blobs/$digest")
        local want_code=503 want_type=storage-unavailable
        [ "$errno" = ENOSPC ] && want_code=507 && want_type=insufficient-storage
        outcome=PASS
        { [ "$code" = "$want_code" ] && [ "$type" = "$want_type" ] && grep -qi '^content-type: application/problem+json' "$dir/inject-$errno.h" \
            && { [ "$errno" = ENOSPC ] || [ -n "$retry_after" ]; } && [ "$stored" = 404 ] && [ "$temps" = 0 ] && [ "$now_ok" = 201 ]; } || outcome=FAIL
        [ "$outcome" = FAIL ] && note "fsync $errno: $code $(cat "$dir/inject-$errno.json")"
        line="$line${line:+; }fsync=$errno ($injected injected): $code $type Retry-After=${retry_after:-none} in ${t_ms}ms, refused blob reads $stored, temp files $temps, after detaching $now_ok"
        [ "$outcome" = FAIL ] && full=FAIL
    done
    local ready_after
    ready_after=$(curl -s -o /dev/null -m 2 -w '%{http_code}' "http://127.0.0.1:$port/q/health/ready")
    [ "$ready_after" = 200 ] || full=FAIL
    service_stop "$pid"
    umount "$dir/blobs"
    result disk-write-errors "$([ "$full" = PASS ] && echo PASS || echo FAIL)" "strace inject into the JVM: $line; ready afterwards=$ready_after; $(elapsed "$started")s"
}
