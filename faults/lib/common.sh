# shellcheck shell=bash
# What every fault case shares: settings, the one-line result, keys and token, databases, starting and stopping the
# packaged service, and the trap that puts the machine back (PostgreSQL started, tmpfs unmounted, strace detached)
# whatever happens. Sourced by faults/run.sh from the repository's root.

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
