#!/usr/bin/env bash
# The fault suite (issue 7): runs the packaged service (target/quarkus-app, built when missing) as in production
# and breaks what it stands on. Every case prints one line `case: PASS|FAIL|SKIP figures`; the exit code is 1 when
# any case failed.
#
#   faults/run.sh                  # the default cases: kill disk overload hostile
#   faults/run.sh kill disk        # chosen cases, by name or number (1 kill, 2 pg-stop, 3 disk, 5 overload, 6 hostile)
#   FAULTS_HEAVY=1 faults/run.sh   # the heavy versions: 50 kills per backend, PostgreSQL stopped (case 2), ...
#   FAULTS_PG_STOP=1 faults/run.sh pg-stop   # case 2 alone; it stops the machine's PostgreSQL for ~5 s
#
# Needs: the local PostgreSQL on 127.0.0.1:5432 (user postgres, trust), Java 17+, Node 20, curl, jq; case 3 needs
# root (it mounts a small tmpfs) and strace (installed from Debian when missing). Works under faults/work
# (gitignored), in databases evidence_faults_*, on ports 18691-18699. Cases 4 (bit rot) and 7 (idempotency) belong
# to other work; add them as a function case_NAME and a line in CASES below.
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
    psql_admin -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" -c "CREATE DATABASE $1" > /dev/null
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
    rm -rf "$dir" && mkdir -p "$dir"
    local blobs=$dir/blobs
    local settings=(-Devidence.storage.filesystem.abandoned-upload-after=2s)
    service_start "kill-$backend" "$port" "$db" "$backend" "$blobs" "${settings[@]}"
    await_ready "$port" 90 || { result "kill[$backend]" FAIL "service did not start; see $LOGS/kill-$backend.log"; return; }
    local incident=KILL-1
    [ "$(create_incident "$port" "$incident")" = 201 ] || { result "kill[$backend]" FAIL "cannot create the incident"; return; }

    $CLIENT load --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --incident "$incident" --clients 6 \
        --stop "$dir/stop" --journal "$dir/journal.jsonl" > "$dir/load.json" 2> "$dir/load.err" &
    local client=$!
    local i restart_max=0 t0 restart_s
    for i in $(seq 1 "$kills"); do
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
    local temps_left
    temps_left=$(find "$blobs/uploads" -name '*.part' 2> /dev/null | wc -l)

    local verdict
    verdict=$($CLIENT verify --base "http://127.0.0.1:$port" --token "$TOKEN" --ws "$WS" --incident "$incident" \
        --journal "$dir/journal.jsonl" --retry)
    echo "$verdict" > "$dir/verify.json"

    # orphans: temp files of the filesystem backend, chunk rows no blob names in the postgres one
    local orphans swept=n/a sweep_s=0
    if [ "$backend" = filesystem ]; then
        # the sweep runs 1 min after start, then every 10 min (AbandonedUploads); wait for the first one
        local deadline=$(( $(date +%s) + 90 )) t1
        t1=$(now)
        while [ "$(date +%s)" -lt "$deadline" ]; do
            grep -q 'abandoned upload' "$LOGS/kill-$backend.log" && [ "$(find "$blobs/uploads" -name '*.part' | wc -l)" = 0 ] && break
            [ "$temps_left" = 0 ] && [ "$(elapsed "$t1")" -ge 70 ] && break
            sleep 1
        done
        sweep_s=$(elapsed "$t1")
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
    [ "$problems" = 0 ] && [ "$orphans" = 0 ] || status=FAIL
    figures=$(echo "$verdict" | jq -r --arg k "$kills" --arg r "$restart_max" \
        '"kills=\($k) blobs acked=\(.blobsAcked) intact=\(.blobsAckedIntact) unacked=\(.blobsUnacked) (stored anyway=\(.blobsUnackedStored)); artifacts acked=\(.bindsAcked) verified=\(.bindsAckedVerified) unacked=\(.bindsUnacked) visible-unacked=\(.unackedVisible) (cut off by the kill=\(.unackedVisibleCutOff)); retries ok=\(.retriedOk)/\(.retried); max restart=\($r)s"')
    figures="$figures; temp files after the kills=$temps_left, swept=$swept, orphans left=$orphans"
    [ "$backend" = filesystem ] && figures="$figures (after ${sweep_s}s)"
    [ "$problems" = 0 ] || figures="$figures; problems: $(echo "$verdict" | jq -c '.problems[:5]')"
    result "kill[$backend]" "$status" "$figures; $(elapsed "$started")s"
}

# ---- main -------------------------------------------------------------------------------------------------------

CASES="1:kill 2:pg-stop 3:disk 5:overload 6:hostile"
DEFAULT="kill disk overload hostile"

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
        name=$(case_name "$arg") || { echo "unknown case $arg; cases: $CASES" >&2; exit 2; }
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
