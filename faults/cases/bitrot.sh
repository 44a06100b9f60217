# shellcheck shell=bash
# shellcheck disable=SC2034,SC2153,SC2154 # shares variables with faults/lib/common.sh and the other cases
# sourced by faults/run.sh (uses faults/lib/common.sh and tools/service.sh)

# ---- case 4: bit rot --------------------------------------------------------------------------------------------

# One byte flipped in stored blobs of each backend behind the service's back (the file under the filesystem blob
# directory; a chunk row of the postgres backend, past its write-once trigger): the scheduled scrub (a short
# evidence.scrub.interval, a rate limit) must find exactly those blobs, GET /api/v1/integrity list their artifacts
# with what cites them, the metric and the readiness details show the count, every read of a damaged artifact fail
# loudly (a problem document, or a transfer cut short), and every sound artifact still download intact. A blob
# flipped after the scrub's pass and read at once, before any check knows it, must be cut off, never served whole.
case_bitrot() {
    local backend
    for backend in filesystem postgres; do
        bitrot_backend "$backend"
    done
}

# flip_byte BACKEND DIGEST: inverts the byte in the middle of the stored blob; prints what it changed
flip_byte() {
    local backend=$1 digest=$2 hex=${2#sha256:}
    if [ "$backend" = filesystem ]; then
        # root ignores the file's read-only mode, as a failing disk ignores everything
        node -e 'const fs = require("fs"); const [file] = process.argv.slice(1);
            const fd = fs.openSync(file, "r+"); const at = Math.floor(fs.fstatSync(fd).size / 2);
            const b = Buffer.alloc(1); fs.readSync(fd, b, 0, 1, at); b[0] ^= 0xff; fs.writeSync(fd, b, 0, 1, at);
            fs.fsyncSync(fd); fs.closeSync(fd); console.log(`byte ${at}`)' "$BITROT_BLOBS/sha256/${hex:0:2}/$hex"
    else
        # the write-once triggers refuse any UPDATE; a superuser session can switch them off, as rot needs no SQL
        psql_db "$BITROT_DB" -c "SET session_replication_role = replica" -c "
            WITH c AS (SELECT content_id, chunk_size, size / 2 AS at FROM blob_content WHERE digest = '$digest')
            UPDATE blob_chunk k SET data = set_byte(k.data, (c.at % c.chunk_size)::int,
                                                    get_byte(k.data, (c.at % c.chunk_size)::int) # 255)
            FROM c WHERE k.content_id = c.content_id AND k.seq = (c.at / c.chunk_size)::int
            RETURNING 'chunk ' || k.seq || ' byte ' || c.at % c.chunk_size"
    fi
}

# download PORT PATH OUT [curl args]: prints "HTTP-STATUS CURL-EXIT CONTENT-TYPE PROBLEM-TYPE"
download() {
    local port=$1 path=$2 out=$3 code rc type problem
    shift 3
    code=$(curl -s -m 60 -D "$out.h" -o "$out" -w '%{http_code}' -H "$(auth)" "$@" "$(api "$port")$path")
    rc=$?
    type=$(grep -i '^content-type:' "$out.h" | tr -d '\r' | awk '{ print $2 }' | cut -d';' -f1)
    problem=$(jq -r '.type // empty' "$out" 2> /dev/null | sed 's|.*/||')
    echo "$code $rc ${type:-none} ${problem:-none}"
}

# loud: the read was refused with a problem document, or the transfer was cut so that curl reports an error
loud() {
    local code=$1 rc=$2 type=$3
    [ "$rc" != 0 ] || { [ "$code" -ge 400 ] && [ "$type" = application/problem+json ]; }
}

bitrot_backend() {
    local backend=$1 port=18694 started interval=${FAULTS_SCRUB_INTERVAL:-3s} rate=${FAULTS_SCRUB_RATE:-8M}
    local dir=$WORK/bitrot-$backend name=bitrot-$backend
    started=$(now)
    BITROT_DB=evidence_faults_bitrot_$backend
    BITROT_BLOBS=$dir/blobs
    service_db_fresh "$BITROT_DB"
    rm -rf "$dir" && mkdir -p "$dir" && : > "$LOGS/$name.log"
    service_start "$LOGS/$name.log" "$port" "$BITROT_DB" "$backend" "$BITROT_BLOBS" -Devidence.scrub.enabled=true \
        -Devidence.scrub.interval="$interval" -Devidence.scrub.rate="$rate"
    local pid=$SERVICE_PID
    service_await_ready "$port" 120 || { result "bitrot[$backend]" FAIL "service did not start; see $LOGS/$name.log"; return; }
    local incident=ROT-1 base
    base=$(api "$port")/workspaces/$WS/incidents/$incident
    curl -s -o /dev/null -H "$(auth)" -H 'Content-Type: application/json' -X POST "$(api "$port")/workspaces/$WS/incidents" \
        -d "{\"key\":\"$incident\",\"title\":\"bit rot\",\"severity\":\"SEV-3\",\"impactStart\":\"2026-06-18T09:00:00Z\"}"

    # eight artifacts, small and large (the large ones span several postgres chunks); a1-a3 rot before the scrub's
    # pass, a4 rots and is read at once, a5-a8 stay sound. A finding cites a1 and a5, a timeline entry a2.
    local sizes=(3000 2500000 70000 3000000 5000 2200000 40000 1500000) i digests=() ids=() bad=0 code
    for i in "${!sizes[@]}"; do
        local n=$((i + 1))
        head -c "${sizes[$i]}" /dev/urandom > "$dir/a$n.bin"
        digests[$n]=sha256:$(sha256sum "$dir/a$n.bin" | cut -d' ' -f1)
        code=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/octet-stream' \
            -T "$dir/a$n.bin" "$(api "$port")/blobs/${digests[$n]}")
        [ "$code" = 201 ] || bad=$((bad + 1))
        code=$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/json' -X POST \
            "$base/artifacts" -d "{\"name\":\"a$n\",\"digest\":\"${digests[$n]}\",\"mediaType\":\"application/octet-stream\",\"source\":\"faults\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}")
        [ "$code" = 201 ] || bad=$((bad + 1))
        ids[$n]=artifact:$WS:v1:$incident:a$n
    done
    local finding timeline
    finding=$(curl -s -H "$(auth)" -H 'Content-Type: application/json' -X POST "$base/findings" \
        -d "{\"name\":\"rests-on-a1\",\"kind\":\"supporting\",\"statement\":\"Cites a1 and a5.\",\"artifactIds\":[\"${ids[1]}\",\"${ids[5]}\"]}" | jq -r '.id // empty')
    timeline=$(curl -s -H "$(auth)" -H 'Content-Type: application/json' -X POST "$base/timeline" \
        -d "{\"at\":\"2026-06-18T09:18:00Z\",\"event\":\"Cites a2.\",\"artifactIds\":[\"${ids[2]}\"]}" | jq -r '.id // empty')
    if [ "$bad" != 0 ] || [ -z "$finding" ] || [ -z "$timeline" ]; then
        service_stop "$pid"
        result "bitrot[$backend]" FAIL "seeding failed ($bad uploads or binds not 201, finding '$finding', timeline entry '$timeline'); see $LOGS/$name.log"
        return
    fi

    # the scrub's first pass checks every blob and finds them sound
    local integrity deadline=$(( $(date +%s) + 120 ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        integrity=$(curl -s -H "$(auth)" "$(api "$port")/integrity")
        [ "$(echo "$integrity" | jq '.blobsChecked == .blobs and .blobs == 8 and .lastScrub != null')" = true ] && break
        sleep 0.5
    done
    local sound_before
    sound_before=$(echo "$integrity" | jq -r '"\(.blobsChecked)/\(.blobs) checked, \(.damagedBlobs) damaged"')

    # rot, then nothing reads the blobs: only the scrub can find it
    local flipped=(1 2 3) n where=()
    for n in "${flipped[@]}"; do
        where+=("a$n $(flip_byte "$backend" "${digests[$n]}")")
    done
    local t0 detect_s=timeout
    t0=$(now)
    deadline=$(( $(date +%s) + 60 ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        integrity=$(curl -s -H "$(auth)" "$(api "$port")/integrity")
        # the totals and the list are two statements: a finding recorded between them shows in one first
        if [ "$(echo "$integrity" | jq '[.damagedBlobs, (.items | length)] | min')" -ge ${#flipped[@]} ] 2> /dev/null; then
            detect_s=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
            break
        fi
        sleep 0.25
    done
    echo "$integrity" > "$dir/integrity.json"
    local listed expected found_by_scrub=0 citers_ok=0
    listed=$(echo "$integrity" | jq -r '[.items[].artifactId] | sort | join(" ")')
    expected=$(printf '%s\n' "${ids[1]}" "${ids[2]}" "${ids[3]}" | sort | paste -sd' ')
    for n in "${flipped[@]}"; do
        grep "EVIDENCE DAMAGED: the stored bytes of ${digests[$n]}" "$LOGS/$name.log" | grep -q 'found by the scrub' \
            && found_by_scrub=$((found_by_scrub + 1))
    done
    echo "$integrity" | jq -e --arg a "${ids[1]}" --arg f "$finding" \
        '.items[] | select(.artifactId == $a) | .citations | any(.kind == "finding" and .id == $f)' > /dev/null \
        && citers_ok=$((citers_ok + 1))
    echo "$integrity" | jq -e --arg a "${ids[2]}" --arg t "$timeline" \
        '.items[] | select(.artifactId == $a) | .citations | any(.kind == "timeline-entry" and .id == $t)' > /dev/null \
        && citers_ok=$((citers_ok + 1))
    echo "$integrity" | jq -e --arg a "${ids[3]}" '.items[] | select(.artifactId == $a) | .citations == []' > /dev/null \
        && citers_ok=$((citers_ok + 1))
    local metric ready_code ready_damaged
    metric=$(curl -s "http://127.0.0.1:$port/q/metrics" | awk '/^evidence_blobs_damaged[ {]/ { printf "%d", $NF }')
    ready_code=$(curl -s -o "$dir/ready.json" -w '%{http_code}' "http://127.0.0.1:$port/q/health/ready")
    ready_damaged=$(jq -r '.checks[] | select(.name == "blob-integrity") | .data.damagedBlobs' "$dir/ready.json")

    # every read of a damaged artifact fails loudly: content, blob and a byte range
    local refused=0 aborted=0 silent=0 outcome code rc type problem reads=0
    for n in "${flipped[@]}"; do
        for what in "/artifacts/${ids[$n]}/content" "/blobs/${digests[$n]}" "/artifacts/${ids[$n]}/content range"; do
            if [[ $what == *" range" ]]; then
                outcome=$(download "$port" "${what% range}" "$dir/read" -H 'Range: bytes=0-99')
            else
                outcome=$(download "$port" "$what" "$dir/read")
            fi
            read -r code rc type problem <<< "$outcome"
            reads=$((reads + 1))
            if [ "$rc" != 0 ]; then aborted=$((aborted + 1))
            elif loud "$code" "$rc" "$type" && [ "$problem" = evidence-damaged ]; then refused=$((refused + 1))
            else silent=$((silent + 1)); note "bitrot[$backend]: GET ${what} of damaged a$n answered $outcome"; fi
        done
    done

    # a4 rots after the pass and is downloaded at once, before any check knows: the transfer must not complete
    where+=("a4 $(flip_byte "$backend" "${digests[4]}")")
    outcome=$(download "$port" "/artifacts/${ids[4]}/content" "$dir/a4.read")
    read -r code rc type problem <<< "$outcome"
    local fresh received
    received=$(stat -c %s "$dir/a4.read" 2> /dev/null || echo 0)
    if [ "$rc" != 0 ]; then fresh="cut off after $received of ${sizes[3]} bytes (curl exit $rc)"; aborted=$((aborted + 1))
    elif loud "$code" "$rc" "$type"; then fresh="refused $code $problem"; refused=$((refused + 1))
    else fresh="SERVED $code $received bytes"; silent=$((silent + 1)); fi
    reads=$((reads + 1))
    # the download recorded what it found
    local after_read
    sleep 0.5
    after_read=$(curl -s -H "$(auth)" "$(api "$port")/integrity" | jq '.damagedBlobs')

    # the sound ones come back byte for byte
    local intact=0 sound=(5 6 7 8)
    for n in "${sound[@]}"; do
        outcome=$(download "$port" "/artifacts/${ids[$n]}/content" "$dir/s$n.read")
        read -r code rc type problem <<< "$outcome"
        [ "$code" = 200 ] && [ "$rc" = 0 ] && [ "$(sha256sum "$dir/s$n.read" | cut -d' ' -f1)" = "${digests[$n]#sha256:}" ] \
            && intact=$((intact + 1))
    done
    service_stop "$pid"
    printf '%s\n' "${where[@]}" > "$dir/flipped.txt"

    local status=PASS
    { [ "$listed" = "$expected" ] && [ "$found_by_scrub" = 3 ] && [ "$citers_ok" = 3 ] && [ "$metric" = 3 ] \
        && [ "$ready_code" = 200 ] && [ "$ready_damaged" = 3 ] && [ "$silent" = 0 ] && [ "$after_read" = 4 ] \
        && [ "$intact" = ${#sound[@]} ] && [ "$detect_s" != timeout ]; } || status=FAIL
    [ "$listed" = "$expected" ] || note "bitrot[$backend]: integrity lists '$listed', expected '$expected'"
    result "bitrot[$backend]" "$status" "before: $sound_before; blobs flipped=${#flipped[@]} ($(IFS=,; echo "${where[*]:0:3}")), found by the scrub=$found_by_scrub in ${detect_s}s (interval $interval, rate $rate/s), /integrity lists $(echo "$integrity" | jq '.items | length') with citers right=$citers_ok/3, evidence_blobs_damaged=$metric, ready $ready_code damagedBlobs=$ready_damaged; reads of damaged artifacts: $reads, refused=$refused aborted=$aborted silent=$silent; rotted after the pass and read at once: $fresh, then damagedBlobs=$after_read; intact downloads=$intact/${#sound[@]}; $(elapsed "$started")s"
}
