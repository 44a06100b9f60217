# shellcheck shell=bash
# shellcheck disable=SC2034 # the settings and FAILED are read by faults/run.sh and the case files
# What every fault case shares: settings, the one-line result, the token, a few HTTP helpers, and the EXIT trap that
# puts the machine back whatever happens (the services stopped, the evidence_faults_* databases the cases made
# dropped, case 2's own PostgreSQL removed, tmpfs unmounted, strace detached). Starting and stopping the packaged jar and
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
psql_db() { local db=$1; shift; psql -qAt -h "$PGHOST" -p "${PGPORT:-5432}" -U postgres -d "$db" "$@"; }

api() { echo "http://127.0.0.1:$1/api/v1"; }
auth() { echo "Authorization: Bearer $TOKEN"; }

create_incident() { # create_incident PORT KEY
    curl -s -o /dev/null -w '%{http_code}' -H "$(auth)" -H 'Content-Type: application/json' \
        -X POST "$(api "$1")/workspaces/$WS/incidents" -d "{\"key\":\"$2\",\"title\":\"faults\",\"severity\":\"SEV-3\"}"
}

# ---- a PostgreSQL of the case's own ------------------------------------------------------------------------------

# Case 2 stops PostgreSQL. Other work on this machine (tests, other checkouts) shares the one on port 5432, so the
# case stops only a cluster it made for itself: initdb into a temporary directory, started on a free port, removed by
# the EXIT trap whatever happens. PostgreSQL refuses to run as root, so as root the cluster is the postgres user's.
PG_BIN=${PG_BIN:-$(pg_config --bindir 2> /dev/null || echo "/usr/lib/postgresql/$PGVERSION/bin")}
PRIVATE_PG_DIR=""
PRIVATE_PG_PORT=""

as_pg_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# free_port FROM: the first port from FROM on that nothing listens on
free_port() {
    local port=$1
    while (: < "/dev/tcp/127.0.0.1/$port") 2> /dev/null; do port=$((port + 1)); done
    echo "$port"
}

# private_pg_init: a new cluster (trust authentication, as the local one), started; sets PRIVATE_PG_DIR and
# PRIVATE_PG_PORT
private_pg_init() {
    PRIVATE_PG_DIR=$(mktemp -d /tmp/evidence-faults-pg.XXXXXX) || return 1
    [ "$(id -u)" = 0 ] && chown postgres: "$PRIVATE_PG_DIR"
    as_pg_owner "$PG_BIN/initdb" -D "$PRIVATE_PG_DIR/data" -U postgres -A trust -E UTF8 --no-sync \
        > "$PRIVATE_PG_DIR/initdb.log" 2>&1 || return 1
    PRIVATE_PG_PORT=$(free_port 25432)
    private_pg_start
}
# the socket goes to the cluster's directory: /var/run/postgresql belongs to the machine's cluster
private_pg_start() {
    as_pg_owner "$PG_BIN/pg_ctl" -D "$PRIVATE_PG_DIR/data" -l "$PRIVATE_PG_DIR/server.log" -w -t 60 \
        -o "-p $PRIVATE_PG_PORT -c listen_addresses=127.0.0.1 -k $PRIVATE_PG_DIR" start > /dev/null
}
# -m immediate: the server processes quit at once, as in a crash, and the next start runs a crash recovery
private_pg_stop() { as_pg_owner "$PG_BIN/pg_ctl" -D "$PRIVATE_PG_DIR/data" -m immediate -w stop > /dev/null; }
# private_pg_database NAME: an empty database and the service's runtime role in the case's cluster
private_pg_database() {
    PGPORT=$PRIVATE_PG_PORT service_psql -d postgres -c "CREATE ROLE $SERVICE_RUNTIME_ROLE LOGIN" \
        -c "CREATE DATABASE $1" > /dev/null
}
# stops and deletes the cluster, keeping its server log with the others
private_pg_remove() {
    [ -n "$PRIVATE_PG_DIR" ] || return 0
    as_pg_owner "$PG_BIN/pg_ctl" -D "$PRIVATE_PG_DIR/data" -m immediate stop > /dev/null 2>&1
    cp "$PRIVATE_PG_DIR/server.log" "$LOGS/pg-stop-postgresql.log" 2> /dev/null
    rm -rf "$PRIVATE_PG_DIR"
    PRIVATE_PG_DIR=""
}

# ---- putting the machine back -----------------------------------------------------------------------------------

# whatever happens: the case's cluster is removed, the tmpfs unmounted, strace detached
always_restore() {
    private_pg_remove
    mountpoint -q "$WORK/disk/blobs" 2> /dev/null && umount "$WORK/disk/blobs"
    [ -n "${STRACE_PID:-}" ] && kill "$STRACE_PID" 2> /dev/null
    return 0
}
# The INT/TERM trap only exits, so that the EXIT trap runs (once) on Ctrl-C and kill too.
trap 'always_restore; service_cleanup' EXIT
trap 'exit 130' INT TERM

# ---- the audit log after a fault --------------------------------------------------------------------------------

# audit_verdict PORT DATABASE JOURNAL LOG: one JSON line. From the client: the acknowledged writes of the journal
# without their entry in audit_entry once audit_pending has drained (missing), the entries still pending
# (pendingLeft), the journal's 500s (internalErrors). From the service log: its AUDIT ENTRY LOST lines (lost) and
# those of 2xx answers (lost2xx), which must be none, since a write's entry commits in the write's transaction.
audit_verdict() {
    local audit lost lost_2xx
    audit=$(PGPORT=${PGPORT:-5432} $CLIENT verify-audit --base "http://127.0.0.1:$1" --db "$2" --journal "$3")
    lost=$(grep -c 'AUDIT ENTRY LOST' "$4")
    lost_2xx=$(grep 'AUDIT ENTRY LOST' "$4" | grep -cE 'answered 2[0-9]{2}|status=2[0-9]{2}')
    echo "$audit" | jq -c --argjson lost "$lost" --argjson lost2xx "$lost_2xx" '. + {lost: $lost, lost2xx: $lost2xx}'
}
# audit_passed VERDICT: every acknowledged write audited, nothing left pending, no 500, no 2xx entry lost
audit_passed() {
    [ "$(echo "$1" | jq '.missing + .pendingLeft + .internalErrors + .lost2xx')" = 0 ]
}
# audit_figures VERDICT: the figures of the result line
audit_figures() {
    echo "$1" | jq -r '"audit: acknowledged writes \(.acked), without their entry \(.missing), pending left \(.pendingLeft); 500s \(.internalErrors); AUDIT ENTRY LOST lines \(.lost) (for a 2xx \(.lost2xx))"'
}
