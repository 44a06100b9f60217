# shellcheck shell=bash
# shellcheck disable=SC2034 # the settings and FAILED are read by faults/run.sh and the case files
# What every fault case shares: settings, the one-line result, the token, a few HTTP helpers, and the EXIT trap that
# puts the machine back whatever happens (PostgreSQL started, tmpfs unmounted, strace detached) and then stops the
# services and drops the evidence_faults_* databases the cases made. Starting and stopping the packaged jar and
# making fresh databases is tools/service.sh's (service_start, service_await_ready, service_stop, service_db_fresh).
# Sourced by faults/run.sh from the repository's root.

HEAVY=${FAULTS_HEAVY:-0}
PGHOST=${PGHOST:-127.0.0.1}
PGVERSION=${PGVERSION:-$(ls /etc/postgresql 2>/dev/null | sort -n | tail -n 1)}
WORK=faults/work
LOGS=$WORK/logs
JAR=target/quarkus-app/quarkus-run.jar
CLIENT="node faults/lib/client.mjs"
WS=faults
# FAULTS_KEEP_DATABASES=1 leaves the cases' databases for a look afterwards
SERVICE_KEEP_DATABASES=${FAULTS_KEEP_DATABASES:-0}
mkdir -p "$WORK" "$LOGS"

. tools/service.sh

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
    service_keys "$WORK/keys"
    TOKEN=$(KEY="$WORK/keys/jwt.pem" TTL_SECONDS=86400 dev/token.sh faults collector,investigator,reviewer,reader)
}

ensure_debian() { # ensure_debian COMMAND PACKAGE
    command -v "$1" > /dev/null && return 0
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2"; } > /dev/null 2>&1
    command -v "$1" > /dev/null
}

# psql_db DATABASE ARGS...: one figure from a case's database, unaligned and without headers
psql_db() { local db=$1; shift; psql -qAt -h "$PGHOST" -U postgres -d "$db" "$@"; }

api() { echo "http://127.0.0.1:$1/api/v1"; }
auth() { echo "Authorization: Bearer $TOKEN"; }

create_incident() { # create_incident PORT KEY
    curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/json' \
        -X POST "$(api "$1")/workspaces/$WS/incidents" -d "{\"key\":\"$2\",\"title\":\"faults\",\"severity\":\"SEV-3\"}"
}

peak_rss_mb() { awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2> /dev/null; }

# ---- putting the machine back -----------------------------------------------------------------------------------

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
# PostgreSQL first: the databases can only be dropped once it is back. The INT/TERM trap only exits, so that the
# EXIT trap runs (once) on Ctrl-C and kill too.
trap 'always_restore; service_cleanup' EXIT
trap 'exit 130' INT TERM
