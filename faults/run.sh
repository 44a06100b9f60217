#!/usr/bin/env bash
# The fault suite (issue 7): runs the packaged service (target/quarkus-app, built when missing) as in production
# and breaks what it stands on. Every case prints one line `case: PASS|FAIL|SKIP figures`; the exit code is 1 when
# any case failed.
#
#   faults/run.sh                  # the default cases: kill disk bitrot overload hostile idempotency
#   faults/run.sh kill disk        # chosen cases, by name or number (1 kill, 2 pg-stop, 3 disk, 4 bitrot, 5 overload,
#                                  # 6 hostile, 7 idempotency)
#   FAULTS_HEAVY=1 faults/run.sh   # the heavy versions: 50 kills per backend, PostgreSQL stopped (case 2), ...
#   FAULTS_PG_STOP=1 faults/run.sh pg-stop   # case 2 alone; it stops the machine's PostgreSQL for ~5 s
#   faults/run.sh cheap            # what CI runs: kill (3 kills per backend) disk bitrot overload (burst of 1,000)
#                                  # idempotency; hostile runs in ./mvnw verify
#
# Needs: the local PostgreSQL on 127.0.0.1:5432 (user postgres, trust), Java 17+, Node 20, curl, jq; case 3 needs
# root (it mounts a small tmpfs) and strace (installed from Debian when missing). Works under faults/work
# (gitignored), in databases evidence_faults_*, on ports 18691-18699. A case is a function case_NAME and an entry in
# CASES below.
set -uo pipefail
cd "$(dirname "$0")/.."

HEAVY=${FAULTS_HEAVY:-0}
PGHOST=${PGHOST:-127.0.0.1}
PGVERSION=${PGVERSION:-$(ls /etc/postgresql 2>/dev/null | sort -n | tail -n 1)}
WORK=faults/work
LOGS=$WORK/logs
JAR=target/quarkus-app/quarkus-run.jar
CLIENT="node faults/lib/client.mjs"
WS=faults
mkdir -p "$WORK" "$LOGS"

# ---- plumbing ---------------------------------------------------------------------------------------------------

FAILED=0
# result CASE PASS|FAIL|SKIP FIGURES: the one line a case prints
result() {
    echo "$1: $2 $3"
    echo "$(date -u +%FT%TZ) $1: $2 $3" >> "$WORK/results.log"
    [ "$2" = FAIL ] && FAILED=1
    return 0
}
note() { echo "  $*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }

ensure_jar() {
    [ -f "$JAR" ] || ./mvnw -q -B package -DskipTests
}

# production refuses the published dev keys: the suite makes throwaway ones, the way an operator would
ensure_keys() {
    local keys=$WORK/keys
    mkdir -p "$keys"
    [ -f "$keys/jwt.pem" ] || openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$keys/jwt.pem" 2>/dev/null
    openssl pkey -in "$keys/jwt.pem" -pubout -out "$keys/jwt-public.pem"
    [ -f "$keys/audit.pem" ] || openssl genpkey -algorithm ed25519 -out "$keys/audit.pem"
    TOKEN=$(KEY="$keys/jwt.pem" TTL_SECONDS=86400 dev/token.sh faults collector,investigator,reviewer,reader)
}

ensure_debian() { # ensure_debian COMMAND PACKAGE
    command -v "$1" > /dev/null && return 0
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } > /dev/null 2>&1
    command -v "$1" > /dev/null
}

psql_admin() { psql -qAt -h "$PGHOST" -U postgres -d postgres "$@"; }
psql_db() { local db=$1; shift; psql -qAt -h "$PGHOST" -U postgres -d "$db" "$@"; }
recreate_db() {
    psql_admin -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" > /dev/null
}

# service_start NAME PORT DATABASE BACKEND BLOBDIR [-Dsetting=value ...]: sets SERVICE_PID
service_start() {
    local name=$1 port=$2 db=$3 backend=$4 blobs=$5
    shift 5
    java -Xmx128m -Dquarkus.http.port="$port" \
        -Dquarkus.datasource.jdbc.url="jdbc:postgresql://$PGHOST:5432/$db" -Dquarkus.datasource.username=postgres \
        -Devidence.storage.backend="$backend" -Devidence.storage.filesystem.path="$blobs" \
        -Dmp.jwt.verify.publickey.location="$WORK/keys/jwt-public.pem" \
        -DEVIDENCE_JWT_ISSUER=https://evidence-store.dev/dev-issuer \
        -Devidence.audit.signing-key-location="$WORK/keys/audit.pem" \
        "$@" -jar "$JAR" >> "$LOGS/$name.log" 2>&1 &
    SERVICE_PID=$!
    echo "$SERVICE_PID" > "$WORK/$name.pid"
}

# await_ready PORT SECONDS: 0 once /q/health/ready answers 200
await_ready() {
    local deadline=$(( $(date +%s) + $2 ))
    while [ "$(date +%s)" -lt "$deadline" ]; do
        curl -sf -m 2 "http://127.0.0.1:$1/q/health/ready" > /dev/null && return 0
        kill -0 "$SERVICE_PID" 2> /dev/null || return 1
        sleep 0.1
    done
    return 1
}

service_stop() { # service_stop PID: SIGTERM, then SIGKILL after 10 s
    local pid=$1
    kill "$pid" 2> /dev/null || return 0
    for _ in $(seq 1 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2> /dev/null
    wait "$pid" 2> /dev/null
    return 0
}

api() { echo "http://127.0.0.1:$1/api/v1"; }
auth() { echo "Authorization: Bearer $TOKEN"; }

create_incident() { # create_incident PORT KEY
    curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/json' \
        -X POST "$(api "$1")/workspaces/$WS/incidents" -d "{\"key\":\"$2\",\"title\":\"faults\",\"severity\":\"SEV-3\"}"
}

peak_rss_mb() { awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2> /dev/null; }

# ---- case 1: kill -9 during uploads -----------------------------------------------------------------------------

# kill -9 of the service at random moments while several clients upload (large and small blobs) and bind
# artifacts; after the last restart every acknowledged upload must be there and verify, nothing refused be
# visible, every unacknowledged upload succeed when retried, and the sweep remove the temp files the kills left.
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
    recreate_db "$db"
    rm -rf "$dir" && mkdir -p "$dir" && : > "$LOGS/kill-$backend.log"
    local blobs=$dir/blobs
    # temp files idle for 2 s count as abandoned, and the sweep looks for them every FAULTS_SWEEP_S (5) s, first that
    # long after each start, so the case need not wait the production 10 min
    local sweep_s=${FAULTS_SWEEP_S:-5}
    local settings=(-Devidence.storage.filesystem.abandoned-upload-after=2s -Devidence.storage.sweep-interval="${sweep_s}s")
    service_start "kill-$backend" "$port" "$db" "$backend" "$blobs" "${settings[@]}"
    await_ready "$port" 90 || { result "kill[$backend]" FAIL "service did not start; see $LOGS/kill-$backend.log"; return; }
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
        service_start "kill-$backend" "$port" "$db" "$backend" "$blobs" "${settings[@]}"
        await_ready "$port" 90 || { touch "$dir/stop"; wait "$client"; result "kill[$backend]" FAIL "restart $i failed; see $LOGS/kill-$backend.log"; return; }
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
    service_stop "$SERVICE_PID"

    local problems figures status=PASS
    problems=$(echo "$verdict" | jq -r '.problemCount')
    [ "$problems" = 0 ] && [ "$orphans" = 0 ] && [ "$slow_status" = 404 ] || status=FAIL
    figures=$(echo "$verdict" | jq -r --arg k "$kills" --arg r "$restart_max" \
        '"kills=\($k) blobs acked=\(.blobsAcked) intact=\(.blobsAckedIntact) unacked=\(.blobsUnacked) (stored anyway=\(.blobsUnackedStored)); artifacts acked=\(.bindsAcked) verified=\(.bindsAckedVerified) unacked=\(.bindsUnacked) visible-unacked=\(.unackedVisible) (cut off by the kill=\(.unackedVisibleCutOff)); retries ok=\(.retriedOk)/\(.retried); max restart=\($r)s"')
    figures="$figures; temp files after the kills=$temps_left, swept=$swept, orphans left=$orphans"
    [ "$backend" = filesystem ] && figures="$figures (after ${waited_s}s, sweep every ${sweep_s}s)"
    [ "$problems" = 0 ] || figures="$figures; problems: $(echo "$verdict" | jq -c '.problems[:5]')"
    result "kill[$backend]" "$status" "$figures; $(elapsed "$started")s"
}

# ---- case 2: PostgreSQL stopped during writes ------------------------------------------------------------------

PG_STOPPED=0
pg_start() {
    pg_ctlcluster --skip-systemctl-redirect "$PGVERSION" main start > /dev/null 2>&1
    for _ in $(seq 1 60); do pg_isready -q -h "$PGHOST" -p 5432 && break; sleep 0.25; done
    PG_STOPPED=0
}
# whatever happens, PostgreSQL is started again: other work on this machine depends on it
always_restore() {
    [ "$PG_STOPPED" = 1 ] && pg_start
    mountpoint -q "$WORK/disk/blobs" 2> /dev/null && umount "$WORK/disk/blobs"
    [ -n "${STRACE_PID:-}" ] && kill "$STRACE_PID" 2> /dev/null
    return 0
}
trap always_restore EXIT
trap 'always_restore; exit 130' INT TERM

# judge_outage STOPPING DOWN STARTING ACCEPTING JOURNAL: the requests sent while PostgreSQL was stopped (times in ms
# since the epoch: stop issued, stop complete, start issued, start seen complete by pg_isready). Every one sent and
# answered while it was certainly down (after the stop completed, before the start was issued) must be 503
# problem+json with Retry-After. Others may have committed before the stop took effect, or waited for a connection
# until PostgreSQL accepted again (a while before pg_isready, polled, says so), and succeeded; none may be another
# 5xx or go unanswered.
judge_outage() {
    jq -sc --argjson a "$1" --argjson down "$2" --argjson s "$3" --argjson b "$4" '
        [.[] | select(.started >= $a and .started < $b)] as $d |
        ($d | map(select(.started >= $down and .started + .ms < $s))) as $whileDown |
        def refused: .status == 503 and (.contentType | tostring | startswith("application/problem+json"))
            and .retryAfter != null;
        { n: ($d | length),
          statuses: ($d | group_by(.status) | map({key: (.[0].status | tostring), value: length}) | from_entries),
          types: ($d | map(select(.status >= 400)) | group_by(.type) | map({key: (.[0].type // "none"), value: length}) | from_entries),
          maxMs: ($d | map(.ms) | max // 0),
          answeredDown: ($whileDown | length),
          written: ($d | map(select(.status >= 200 and .status < 300)) | length),
          bad: (($whileDown | map(select(refused | not)) | length)
                + ($d | map(select(.status == 0 or (.status >= 500 and (refused | not)))) | length)),
          errors: ($d | map(select(.status == 0) | .error) | unique) }' "$5"
}

# PostgreSQL stopped (-m immediate) while clients write: while it is down every write answers 503 problem+json with
# Retry-After within the 5 s pool acquisition timeout (+3 s margin) (one that waited for a connection until it was
# back may succeed: see judge_outage), the service recovers without a restart once
# PostgreSQL is back, and no acknowledged write is lost. It stops the machine's PostgreSQL for FAULTS_PG_DOWN_S
# (5) seconds, so it runs only with FAULTS_HEAVY=1 or FAULTS_PG_STOP=1.
case_pg_stop() {
    if [ "$HEAVY" != 1 ] && [ "${FAULTS_PG_STOP:-0}" != 1 ]; then
        result pg-stop SKIP "stops the machine's PostgreSQL: set FAULTS_PG_STOP=1 or FAULTS_HEAVY=1"
        return
    fi
    local port=18692 db=evidence_faults_pg dir=$WORK/pg-stop down_s=${FAULTS_PG_DOWN_S:-5} started
    started=$(now)
    recreate_db "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    service_start pg-stop "$port" "$db" postgres "$dir/blobs"
    local pid=$SERVICE_PID
    await_ready "$port" 120 || { result pg-stop FAIL "service did not start; see $LOGS/pg-stop.log"; return; }
    $CLIENT writes --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --clients 4 --stop "$dir/stop" \
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
    PG_STOPPED=1
    pg_ctlcluster --skip-systemctl-redirect "$PGVERSION" main stop -m immediate > /dev/null 2>&1
    # pg_ctl waits for the shutdown: from here until the start is issued, PostgreSQL is certainly down
    local t_down
    t_down=$(date +%s%3N)
    sleep "$down_s"
    local t_pg_start
    t_pg_start=$(date +%s%3N)
    pg_start
    # PostgreSQL is down until it has finished its crash recovery and accepts connections again
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
    service_stop "$pid"

    local status=PASS max_ms bad lost n
    max_ms=$(echo "$during" | jq '.maxMs'); bad=$(echo "$during" | jq '.bad'); n=$(echo "$during" | jq '.n')
    lost=$(echo "$verdict" | jq '.problemCount')
    { [ "$n" -gt 0 ] && [ "$bad" = 0 ] && [ "$max_ms" -lt 8000 ] && [ "$lost" = 0 ] && [ "$alive" = yes ] \
        && [ "$recovered_ms" -lt 60000 ] && [ "$live_down" = 0 ]; } || status=FAIL
    result pg-stop "$status" "stopped ${down_s}s: $n requests while down, statuses $(echo "$during" | jq -c .statuses), types $(echo "$during" | jq -c .types); sent and answered while it was down $(echo "$during" | jq .answeredDown), written before the stop took effect or after waiting for its return $(echo "$during" | jq .written); not 503 problem+json with Retry-After though answered while down, or another 5xx, or unanswered=$bad, transport errors $(echo "$during" | jq -c .errors), max response ${max_ms}ms (limit 8000); live probes failed while down=$live_down, ready while down: $ready_down; PostgreSQL down $(( t_start - t_stop ))ms in all (crash recovery ${pg_ready_ms}ms), service writing again ${recovered_ms}ms after PostgreSQL was ready (no restart: $alive); acknowledged writes $(echo "$verdict" | jq .acked), lost $lost; $(elapsed "$started")s"
    [ "$lost" = 0 ] || note "lost: $(echo "$verdict" | jq -c '.problems')"
}

# ---- case 3: disk full and write errors on the filesystem backend -----------------------------------------------

# (a) the blob store on an 8 MiB tmpfs that fills up: 507 problem+json, nothing of the refused upload stored or
# served, no temp file left, the service ready throughout and accepting the same upload once the disk is grown;
# (b) write errors injected by strace into the running JVM (fsync answers EIO, then ENOSPC): 503
# storage-unavailable with Retry-After (507 for ENOSPC), nothing stored, uploads fine once strace detaches.
case_disk() {
    local port=18693 db=evidence_faults_disk dir=$WORK/disk started
    started=$(now)
    recreate_db "$db"
    mountpoint -q "$dir/blobs" && umount "$dir/blobs"
    rm -rf "$dir" && mkdir -p "$dir/blobs"
    if ! mount -t tmpfs -o size=8m tmpfs "$dir/blobs" 2> "$dir/mount.err"; then
        result disk FAIL "cannot mount a tmpfs here ($(cat "$dir/mount.err")); run as root with mount rights"
        return
    fi
    service_start disk "$port" "$db" filesystem "$dir/blobs"
    local pid=$SERVICE_PID
    await_ready "$port" 120 || { result disk FAIL "service did not start; see $LOGS/disk.log"; return; }
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
    recreate_db "$BITROT_DB"
    rm -rf "$dir" && mkdir -p "$dir" && : > "$LOGS/$name.log"
    service_start "$name" "$port" "$BITROT_DB" "$backend" "$BITROT_BLOBS" -Devidence.scrub.enabled=true \
        -Devidence.scrub.interval="$interval" -Devidence.scrub.rate="$rate"
    local pid=$SERVICE_PID
    await_ready "$port" 120 || { result "bitrot[$backend]" FAIL "service did not start; see $LOGS/$name.log"; return; }
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
    recreate_db "$db"
    rm -rf "$dir" && mkdir -p "$dir/slow"
    service_start "overload-$backend" "$port" "$db" "$backend" "$dir/blobs"
    local pid=$SERVICE_PID
    await_ready "$port" 120 || { result "overload[$backend]" FAIL "service did not start"; return; }
    create_incident "$port" BURST-1 > /dev/null
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
        curl -s -o /dev/null -m 2 -w '%{http_code} %{time_total}\n' "http://127.0.0.1:$port/q/health/live"
        sleep 0.25
    done > "$dir/health.log" ) &
    local prober=$!
    local burst
    burst=$($CLIENT burst --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --incident BURST-1 --n "$n" \
        --journal "$dir/burst.jsonl" 2> "$dir/burst.err")
    echo "$burst" > "$dir/burst.json"
    wait "${slow[@]}"
    touch "$dir/stop-probe"; wait "$prober"
    local rss alive=yes
    rss=$(peak_rss_mb "$pid")
    kill -0 "$pid" 2> /dev/null || alive=no
    local slow_codes slow_lost=0 code
    slow_codes=$(cat "$dir"/slow/*.code | sort | uniq -c | awk '{ printf "%s%s×%s", sep, $2, $1; sep="," }')
    for i in $(seq 1 50); do
        code=$(cat "$dir/slow/$i.code")
        [[ $code == 2* ]] || continue
        [ "$(curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" "$(api "$port")/blobs/sha256:$(sha256sum "$dir/slow/$i.bin" | cut -d' ' -f1)")" = 200 ] \
            || slow_lost=$((slow_lost + 1))
    done
    local verdict
    verdict=$($CLIENT verify-writes --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --journal "$dir/burst.jsonl")
    # every acknowledged write has its audit entry (the README: every write is appended to audit_entry)
    local acked_writes audited unaudited
    acked_writes=$(( $(jq -s '[.[] | select((.op == "incident" or .op == "blob") and .status >= 200 and .status < 300)] | length' \
        "$dir/burst.jsonl") + 1 + $(grep -c '^2' "$dir"/slow/*.code | awk -F: '{ s += $2 } END { print s }') ))
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
    lost=$(( $(echo "$verdict" | jq '.problemCount') + slow_lost ))
    { [ "$five_hundreds" = 0 ] && [ "$errors" = 0 ] && [ "$no_retry" = 0 ] && [ "$not_problem" = 0 ] && [ "$lost" = 0 ] \
        && [ "$probes_failed" = 0 ] && [ "$alive" = yes ] && [ "${rss:-9999}" -lt 512 ] && [ "$unaudited" -le 0 ]; } || status=FAIL
    result "overload[$backend]" "$status" "burst of $n: statuses $(echo "$burst" | jq -c .statuses) in $(echo "$burst" | jq .seconds)s (p50 $(echo "$burst" | jq .p50ms)ms, p99 $(echo "$burst" | jq .p99ms)ms, max $(echo "$burst" | jq .maxMs)ms), 429/503 without Retry-After=$no_retry, errors not problem+json=$not_problem; 50 slow uploads: $slow_codes; health/live $((probes - probes_failed))/$probes answered 200 within 2 s (slowest ${probe_max}s); peak RSS ${rss}MB (-Xmx128m); acknowledged writes lost=$lost, acknowledged writes missing from the audit log=$unaudited of $acked_writes; $(elapsed "$started")s"
}

# ---- case 6: hostile input --------------------------------------------------------------------------------------

# HostileInputIT (src/test/java/dev/evidencestore/faults): jqwik generates hostile path and query parameters,
# headers, body fields and framings over every operation of openapi/openapi.yaml and sends them byte for byte to the
# packaged jar; no 5xx, every error a problem document, no stored row changed by a refused request.
case_hostile() {
    local started log=$WORK/hostile-maven.log summary
    started=$(now)
    EVIDENCE_TEST_DB=${EVIDENCE_TEST_DB:-evidence_test_faults} FAULTS_HOSTILE=1 ./mvnw -q -B verify -Dtest=none \
        -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=HostileInputIT > "$log" 2>&1
    local rc=$?
    summary=$(head -n 1 target/faults/hostile-input.txt 2> /dev/null)
    if [ -z "$summary" ]; then
        result hostile FAIL "HostileInputIT did not run (exit $rc); see $log"
        return
    fi
    result hostile "$([ "$rc" = 0 ] && echo PASS || echo FAIL)" "${summary#hostile: } (details: target/faults/hostile-input.txt); $(elapsed "$started")s"
}

# ---- case 7: idempotent retries ---------------------------------------------------------------------------------

# Every write of openapi/openapi.yaml that takes Idempotency-Key (the list is read from the running jar's /q/openapi,
# and a write not covered fails the case), against the packaged jar: a retry with the same key and body gets the
# first status, headers and body byte for byte with Idempotent-Replayed: ?1; the same key with another body 422
# idempotency-key-reused problem+json; FAULTS_IDEMPOTENCY_N (8) identical requests with one key at once run once
# (rows of the operation's table, and executed writes in the audit log), the others getting the stored answer or
# 409 idempotency-key-in-flight with Retry-After.
case_idempotency() {
    local port=18697 db=evidence_faults_idempotency dir=$WORK/idempotency started n=${FAULTS_IDEMPOTENCY_N:-8}
    started=$(now)
    recreate_db "$db"
    rm -rf "$dir" && mkdir -p "$dir"
    service_start idempotency "$port" "$db" postgres "$dir/blobs"
    local pid=$SERVICE_PID
    await_ready "$port" 120 || { result idempotency FAIL "service did not start; see $LOGS/idempotency.log"; return; }
    local verdict
    verdict=$($CLIENT idempotency --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --db "$db" --n "$n" \
        2> "$dir/client.err")
    service_stop "$pid"
    echo "$verdict" > "$dir/verdict.json"
    if [ -z "$verdict" ]; then
        result idempotency FAIL "the client stopped: $(tail -n 3 "$dir/client.err" | tr '\n' ' ')"
        return
    fi
    local status=PASS figures
    [ "$(echo "$verdict" | jq '.problemCount')" = 0 ] || status=FAIL
    figures=$(echo "$verdict" | jq -r '"operations covered=\(.operations) of \(.contract) taking Idempotency-Key in the contract; replays=\(.replays) (identical and marked=\(.replaysIdentical)); same key, another body: 422=\(.reused422)/\(.reused); concurrent requests=\(.concurrent) (\(.concurrent / .operations) per key: replayed=\(.concurrentReplayed), 409 in flight=\(.concurrentInFlight)), side effects=\(.sideEffects) (one per key expected: \(.operations))"')
    [ "$status" = PASS ] || figures="$figures; problems: $(echo "$verdict" | jq -c '.problems[:6]')"
    result idempotency "$status" "$figures; $(elapsed "$started")s"
}

# ---- main -------------------------------------------------------------------------------------------------------

CASES="1:kill 2:pg-stop 3:disk 4:bitrot 5:overload 6:hostile 7:idempotency"
DEFAULT="kill disk bitrot overload hostile idempotency"
# what CI runs after ./mvnw verify (which runs HostileInputIT already): a few minutes in all
CHEAP="kill disk bitrot overload idempotency"

case_name() {
    local c
    for c in $CASES; do
        [ "$1" = "${c%%:*}" ] || [ "$1" = "${c#*:}" ] && { echo "${c#*:}"; return 0; }
    done
    return 1
}

main() {
    local chosen=() name
    for arg in "${@:-}"; do
        [ -z "$arg" ] && continue
        if [ "$arg" = cheap ]; then
            # 3 kills per backend and a burst of 1,000 unless told otherwise
            export FAULTS_KILLS=${FAULTS_KILLS:-3} FAULTS_BURST=${FAULTS_BURST:-1000}
            read -r -a chosen <<< "$CHEAP"
            continue
        fi
        name=$(case_name "$arg") || { echo "unknown case $arg; cases: $CASES, or cheap ($CHEAP)" >&2; exit 2; }
        chosen+=("$name")
    done
    if [ ${#chosen[@]} = 0 ]; then
        read -r -a chosen <<< "$DEFAULT"
        [ "$HEAVY" = 1 ] || [ "${FAULTS_PG_STOP:-0}" = 1 ] && chosen+=(pg-stop)
    fi
    ensure_jar
    ensure_keys
    for name in "${chosen[@]}"; do
        local t
        t=$(now)
        "case_${name//-/_}"
        note "$name took $(elapsed "$t") s"
    done
    exit "$FAILED"
}

main "$@"
