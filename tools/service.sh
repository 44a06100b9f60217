# shellcheck shell=bash
# The packaged service for scripts that run it (faults/run.sh, bench/run.sh, bench/profile.sh): starts
# target/quarkus-app/quarkus-run.jar the way production runs it, waits until it is ready, stops it, and makes fresh
# databases that are dropped when the script ends. A library: source it, then call the functions.
#
#   . tools/service.sh
#   trap service_cleanup EXIT               # stops what is still running, drops the databases service_db_fresh made
#   trap 'exit 130' INT; trap 'exit 143' TERM   # so that Ctrl-C and kill run the EXIT trap too
#   service_keys "$WORK/keys"               # throwaway JWT and audit keys: production refuses the published dev ones
#   service_db_fresh evidence_bench_postgres
#   service_start "$WORK/service.log" 18481 evidence_bench_postgres postgres "" -Dsome.setting=value
#   service_await_ready 18481 180 || exit 1 # READY_MS: from spawning java to the first 200 of /q/health/ready
#   service_stop "$SERVICE_PID"
#
# Settings (variables, read when a function runs): PGHOST (127.0.0.1), PGPORT (5432), SERVICE_HEAP (128m),
# SERVICE_JVM_OPTIONS (service_jvm_options: -XX:+UseSerialGC -XX:ReservedCodeCacheSize=40m, a MemLimit for
# compilations, a native heap trim, and -XX:AOTCache=app.aot when the build wrote one), SERVICE_KEEP_DATABASES (0;
# 1 leaves the databases for a look afterwards). The library works for callers with and without `set -e`: its
# functions report failure by their status and never exit.

SERVICE_HOME=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SERVICE_APP=$SERVICE_HOME/target/quarkus-app
SERVICE_PID=""
SERVICE_PIDS=()       # every service this shell started, for service_cleanup
SERVICE_DATABASES=()  # every database service_db_fresh made, for service_cleanup
READY_MS=""
# the service runs on the JDK that wrote its AOT cache, whatever JDK the caller's PATH has first
. "$SERVICE_HOME/tools/java.sh"
java_use_25 || true

# ---- databases -------------------------------------------------------------------------------------------------

# service_psql ARGS...: psql as the local superuser (trust authentication, as for the tests)
service_psql() {
    psql -X -q -v ON_ERROR_STOP=1 -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U postgres "$@"
}

# The role the service runs as, as production should (docs/operations.md, "Database roles"): postgres migrates and owns
# the tables, the service gets only the grants of db/migration/afterMigrate.sql. Roles belong to the whole PostgreSQL,
# so this one is shared with the tests (support/TestDatabase) and other runs, made when missing and never dropped.
SERVICE_RUNTIME_ROLE=evidence_runtime

# service_db_fresh NAME: drops NAME if a previous run left it, creates it empty (and the runtime role when missing),
# and notes it for service_cleanup
service_db_fresh() {
    local name=$1
    [[ $name =~ ^[a-z_][a-z0-9_]*$ ]] || { echo "service_db_fresh: not a plain database name: $name" >&2; return 2; }
    # another run may create the role at the same moment: losing that race is as good as winning it
    service_psql -d postgres -c "SET client_min_messages = warning" \
        -c "DO \$\$ BEGIN CREATE ROLE $SERVICE_RUNTIME_ROLE LOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END \$\$" \
        -c "DROP DATABASE IF EXISTS $name WITH (FORCE)" -c "CREATE DATABASE $name" > /dev/null || return 1
    local known
    for known in "${SERVICE_DATABASES[@]}"; do [ "$known" != "$name" ] || return 0; done
    SERVICE_DATABASES+=("$name")
}

# service_db_drop NAME: drops NAME now (WITH FORCE: a service still connected does not keep it)
service_db_drop() {
    service_psql -d postgres -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $1 WITH (FORCE)" > /dev/null
}

# ---- the service -----------------------------------------------------------------------------------------------

# service_keys DIR: the keys a production start requires, made once per DIR (the JWT key pair, the audit signing key)
service_keys() {
    SERVICE_KEYS=$(mkdir -p "$1" && cd "$1" && pwd) || return 1
    [ -f "$SERVICE_KEYS/jwt.pem" ] \
        || openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$SERVICE_KEYS/jwt.pem" 2> /dev/null || return 1
    openssl pkey -in "$SERVICE_KEYS/jwt.pem" -pubout -out "$SERVICE_KEYS/jwt-public.pem" || return 1
    [ -f "$SERVICE_KEYS/audit.pem" ] || openssl genpkey -algorithm ed25519 -out "$SERVICE_KEYS/audit.pem"
}

# service_peak_rss_mb PID: the process's peak resident memory so far (VmHWM), in MB; nothing once it has exited
service_peak_rss_mb() { awk '/^VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$1/status" 2> /dev/null; }

# service_cpu_ticks STAT...: the CPU (user + system, in clock ticks) of the processes or threads whose
# /proc/.../stat files are given; 0 for none (the /dev/null keeps awk from reading its input instead)
service_cpu_ticks() { awk '{ t += $14 + $15 } END { print t + 0 }' /dev/null "$@" 2> /dev/null; }
# service_compiler_stats PID: the stat files of the JVM's JIT compiler threads (C1, C2), whose share of the service's
# CPU says whether it is still warming up
service_compiler_stats() { grep -l '^C[12] Compiler' /proc/"$1"/task/*/comm 2> /dev/null | sed 's/comm$/stat/'; }

# service_absolute PATH: the service runs from target/quarkus-app, so every path handed to it must be absolute
service_absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }

# service_jvm_options: the JVM options production runs with (docs/operations.md): the serial collector, which suits a
# 128 MB heap on two cores, a code cache of 40 MB, a compilation's memory capped at 48 MB, the C library's free
# memory trimmed every 5 s, shallower inlining (the JIT settles sooner), and the AOT cache when ./mvnw verify wrote
# one (AotTrainingIT). The cache loads only in the JDK that wrote it: another JDK 25 warns and starts without it, a
# JDK before 24 refuses the option.
service_jvm_options() {
    local options="-XX:+UseSerialGC -XX:ReservedCodeCacheSize=40m -XX:CompileCommand=quiet"
    options+=" -XX:CompileCommand=MemLimit,*.*,48m -XX:TrimNativeHeapInterval=5000"
    options+=" -XX:MaxInlineLevel=9 -XX:InlineSmallCode=1000"
    if [ -f "$SERVICE_APP/app.aot" ]; then
        echo "$options -XX:AOTCache=app.aot"
    else
        echo "$options"
    fi
}

# SERVICE_LIFTED_CAPS: a benchmark's clients are one address and one token, 16 or 32 at once; these set the per-client,
# per-principal, upload, download and request caps above them, so that its figures are the service's, not its limits'
# (docs/operations.md, "Limits")
SERVICE_LIFTED_CAPS=(-Devidence.http.admission.per-client=256 -Devidence.http.admission.per-principal=256
    -Devidence.http.admission.uploads=32 -Devidence.http.admission.downloads=32 -Devidence.http.admission.requests=64)

# service_start LOG PORT DATABASE BACKEND BLOBDIR [JVM arguments ...]: starts the jar in the background, its output
# appended to LOG; BLOBDIR "" leaves the filesystem backend's default. Sets SERVICE_PID (the java process itself).
# Needs service_keys first.
service_start() {
    local log blobs port=$2 database=$3 backend=$4
    log=$(service_absolute "$1")
    blobs=${5:+$(service_absolute "$5")}
    shift 5
    [ -f "$SERVICE_APP/quarkus-run.jar" ] || { echo "service_start: no $SERVICE_APP/quarkus-run.jar; build it first" >&2; return 1; }
    [ -n "${SERVICE_KEYS:-}" ] || { echo "service_start: call service_keys first" >&2; return 1; }
    local jvm_options
    # word splitting wanted: a list of options in one variable, as JVM_OPTIONS and JAVA_EXTRA are written
    read -r -a jvm_options <<< "${SERVICE_JVM_OPTIONS-$(service_jvm_options)}"
    SERVICE_SPAWNED_US=${EPOCHREALTIME//[!0-9]/} # microseconds, from bash itself: no process to ask the time
    # from target/quarkus-app, as production: the AOT cache names the jars by relative path
    # two malloc arenas, as production runs (docs/operations.md): glibc's default of eight per core kept the JIT's
    # freed working memory resident in each
    (cd "$SERVICE_APP" && MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX:-2} exec java "-Xmx${SERVICE_HEAP:-128m}" \
        "${jvm_options[@]}" \
        -Dquarkus.http.port="$port" \
        -Dquarkus.datasource.jdbc.url="jdbc:postgresql://${PGHOST:-127.0.0.1}:${PGPORT:-5432}/$database" \
        -Dquarkus.datasource.username="$SERVICE_RUNTIME_ROLE" \
        -Dquarkus.flyway.username=postgres -Dquarkus.flyway.password=trust \
        -Devidence.storage.backend="$backend" \
        ${blobs:+"-Devidence.storage.filesystem.path=$blobs"} \
        -Dmp.jwt.verify.publickey.location="$SERVICE_KEYS/jwt-public.pem" \
        -DEVIDENCE_JWT_ISSUER=https://evidence-store.dev/dev-issuer \
        -Devidence.audit.signing-key-location="$SERVICE_KEYS/audit.pem" \
        -Devidence.audit.origin="${SERVICE_AUDIT_ORIGIN:-localhost/evidence-store/bench}" \
        "$@" -jar quarkus-run.jar >> "$log" 2>&1) &
    SERVICE_PID=$!
    SERVICE_PIDS+=("$SERVICE_PID")
}

# service_await_ready PORT SECONDS [POLL_SECONDS]: 0 once /q/health/ready answers 200 (polled every POLL_SECONDS,
# 0.1), 1 when the service exits or SECONDS pass. Sets READY_MS, from the spawn to the answer. It polls with bash's
# own /dev/tcp and waits with its own read, starting no process: on two cores, a curl and a sleep every 20 ms took
# enough CPU from the starting JVM to add a tenth to its time to ready (docs/testing.md, "start to ready").
service_await_ready() {
    local port=$1 deadline=$((EPOCHSECONDS + $2)) poll=${3:-0.1} pause ready=1
    exec {pause}<> <(:) # a pipe nobody writes to: reading it with -t waits POLL_SECONDS without a sleep process
    while [ "$EPOCHSECONDS" -lt "$deadline" ]; do
        if service_ready_once "$port"; then
            # shellcheck disable=SC2034 # read by the caller (bench/run.sh's start-to-ready row)
            READY_MS=$(( (${EPOCHREALTIME//[!0-9]/} - SERVICE_SPAWNED_US) / 1000 ))
            ready=0
            break
        fi
        kill -0 "$SERVICE_PID" 2> /dev/null || break
        read -r -t "$poll" -u "$pause" _ || true # the timeout is the pause: under set -e it must not end the caller
    done
    exec {pause}<&-
    return "$ready"
}

# service_ready_once PORT: 0 when GET /q/health/ready on 127.0.0.1:PORT answers 200 within 2 s
service_ready_once() {
    local connection status=""
    { exec {connection}<> "/dev/tcp/127.0.0.1/$1"; } 2> /dev/null || return 1
    printf 'GET /q/health/ready HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$1" >&"$connection"
    read -r -t 2 -u "$connection" _ status _ || status=""
    exec {connection}<&-
    [ "$status" = 200 ]
}

# service_stop PID: SIGTERM, so that it shuts down as in production; SIGKILL if it is still there after 10 s
service_stop() {
    local pid=$1
    kill "$pid" 2> /dev/null || return 0
    for _ in $(seq 1 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2> /dev/null || true
    wait "$pid" 2> /dev/null || true
}

# service_cleanup: for the EXIT trap. Stops every service still running, then drops the databases service_db_fresh
# made, unless SERVICE_KEEP_DATABASES=1. PostgreSQL being down (a fault case) only costs a warning.
service_cleanup() {
    local pid name
    for pid in "${SERVICE_PIDS[@]}"; do
        if kill -0 "$pid" 2> /dev/null; then service_stop "$pid"; fi
    done
    if [ "${SERVICE_KEEP_DATABASES:-0}" = 1 ]; then
        [ ${#SERVICE_DATABASES[@]} = 0 ] || echo "kept the databases ${SERVICE_DATABASES[*]}" >&2
        return 0
    fi
    for name in "${SERVICE_DATABASES[@]}"; do
        service_db_drop "$name" || echo "could not drop database $name" >&2
    done
    return 0
}
