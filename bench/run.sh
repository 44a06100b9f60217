#!/usr/bin/env bash
# The benchmark: builds the jar, runs the service with -Xmx128m against the local PostgreSQL once per storage
# backend, and measures each case beside references measured in the same run (openssl, the disk, the JVM's SHA-256,
# nginx, pgbench, PostgreSQL's own binary COPY, S3Proxy's own PUT and GET of the large file and of 10 KiB objects,
# the service's own /q/health/live), each goal as issue 17 sets it: the large transfers a ratio to the ceiling of
# their backend, the small ones a rate or a ratio to a peer, the postmortem, bundle and start a time. Prints one
# Markdown table and writes it to bench/results/latest.md. The s3 backend runs against S3Proxy keeping its objects as
# local files (src/test/java/dev/evidencestore/support/S3ProxyProcess.java): a local stand-in, not AWS S3.
#
#   bench/run.sh                                # everything (21 min on 2 busy cores before s3 was added)
#   BACKENDS=postgres SKIP_BUILD=1 bench/run.sh # one backend, with the jar already built
#
# Settings (environment): BACKENDS (filesystem postgres s3), CASES (every case: ingest_large download_large
# verification small_ingest batch_ingest small_read postmortem; the start-to-ready row runs only with every case),
# SKIP_BUILD (0), SIZE_MIB (1024), SMALL_COUNT (12000), WARMUP_ROUND (3000: the small and batch ingests warm up in
# rounds of this many artifacts until the JIT compiler settles) and WARMUP_MAX_SECONDS (120: the warm-up's limit),
# PEER_WARMUP (20000) and PEER_WARMUP_SECONDS (60: S3Proxy's own small PUTs' warm-up and its limit),
# SMALL_MAX_SECONDS (120: no new small artifact after that), WRK_SECONDS (10), STARTS (5),
# RUNS (20, timed requests of each page), PAGE_WARMUP_SECONDS (3, each page requested first, not counted),
# QUIET_LOAD (1.0) and QUIET_WAIT (180: after the build, measuring starts once the one-minute load average is below
# QUIET_LOAD, or after QUIET_WAIT seconds; the header says which),
# JVM_OPTIONS (tools/service.sh's service_jvm_options: as docs/operations.md runs the service), PORT (18481), NGINX_PORT (18482), S3PROXY_PORT (18483, only with s3), PGHOST (127.0.0.1), PGPORT (5432), DB_PREFIX
# (evidence_bench: the databases are DB_PREFIX_pgbench, _copy and _BACKEND; a run beside another one on the same
# PostgreSQL needs a prefix of its own, as it needs ports of its own), KEEP_DATA (0: drop the bench databases
# and blobs at the end, also when the run fails or is interrupted), OUT (bench/results/latest.md).
#
# The service is started, awaited and stopped, and its databases made and dropped, by tools/service.sh (shared with
# the fault suite and bench/profile.sh).
#
# Installs what is missing from Debian packages (nginx, wrk, pgbench, node, jq) with apt-get.
# PostgreSQL must accept user postgres without a password (trust auth), as for the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. tools/service.sh
. tools/s3proxy.sh
. tools/java.sh
java_use_25

BACKENDS=${BACKENDS:-filesystem postgres s3}
CASES_ALL="ingest_large download_large verification small_ingest batch_ingest small_read postmortem"

CASES=${CASES:-$CASES_ALL}
SIZE_MIB=${SIZE_MIB:-1024}
SMALL_COUNT=${SMALL_COUNT:-12000}
WARMUP_ROUND=${WARMUP_ROUND:-3000}
WARMUP_MAX_SECONDS=${WARMUP_MAX_SECONDS:-120}
PEER_WARMUP=${PEER_WARMUP:-20000}
PEER_WARMUP_SECONDS=${PEER_WARMUP_SECONDS:-60}
SMALL_MAX_SECONDS=${SMALL_MAX_SECONDS:-120}
WRK_SECONDS=${WRK_SECONDS:-10}
STARTS=${STARTS:-5}
RUNS=${RUNS:-20}
QUIET_LOAD=${QUIET_LOAD:-1.0}
QUIET_WAIT=${QUIET_WAIT:-180}
# the JIT compiles a page's own code over its first hundred renders or so: each page is requested for this long
# first, as wrk's 3 s before the small reads warm their route; a p50 of renders 21-40 measured the compiler
PAGE_WARMUP_SECONDS=${PAGE_WARMUP_SECONDS:-3}
PORT=${PORT:-18481}
NGINX_PORT=${NGINX_PORT:-18482}
S3PROXY_PORT=${S3PROXY_PORT:-18483}
PGHOST=${PGHOST:-127.0.0.1}
PGPORT=${PGPORT:-5432}
KEEP_DATA=${KEEP_DATA:-0}
OUT=${OUT:-bench/results/latest.md}
SERVICE_KEEP_DATABASES=$KEEP_DATA
WORK=$ROOT/bench/work
WWW=$WORK/www
ROWS=$WORK/rows.tsv
NOTES=$WORK/notes.md
WS=bench
API=http://127.0.0.1:$PORT/api/v1
DB_PREFIX=${DB_PREFIX:-evidence_bench}

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

# ---- 1. tools ----------------------------------------------------------------------------------------------------
PATH=$PATH:/usr/sbin:/usr/local/sbin
pgbench_path() { command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -n 1; }
missing=()
for tool in nginx wrk jq curl openssl psql; do
    command -v "$tool" > /dev/null || missing+=("$tool")
done
command -v node > /dev/null || missing+=(nodejs)
[ -n "$(pgbench_path)" ] || missing+=(postgresql-contrib)
command -v java > /dev/null || die "java (17+) is needed"
if [ ${#missing[@]} -gt 0 ]; then
    missing=("${missing[@]/#psql/postgresql-client}")
    log "installing ${missing[*]}"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > "$ROOT/bench/apt.log" 2>&1 \
        || { cat "$ROOT/bench/apt.log" >&2; die "apt-get install ${missing[*]}"; }
    rm -f "$ROOT/bench/apt.log"
fi
PGBENCH=$(pgbench_path)
psql_q() { service_psql "$@"; }
psql_q -d postgres -c 'select 1' > /dev/null || die "PostgreSQL on $PGHOST:$PGPORT does not accept user postgres"
WITH_S3=0
for backend in $BACKENDS; do [ "$backend" != s3 ] || WITH_S3=1; done
ports=("$PORT" "$NGINX_PORT")
[ "$WITH_S3" = 0 ] || ports+=("$S3PROXY_PORT")
for p in "${ports[@]}"; do
    curl -s -o /dev/null "http://127.0.0.1:$p/" && die "port $p is taken: set PORT, NGINX_PORT or S3PROXY_PORT"
done

# ---- 2. build ----------------------------------------------------------------------------------------------------
BUILT="including the build" AFTER_BUILD=" after the build"
if [ "${SKIP_BUILD:-0}" != 1 ] || [ ! -f target/quarkus-app/quarkus-run.jar ]; then
    log "building the jar and training its AOT cache (AotTrainingIT)"
    # test-compile included: writes target/s3proxy.classpath too
    ./mvnw -q -B verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=AotTrainingIT
else
    # the header's commit names the checkout; a jar built before (SKIP_BUILD=1) may be of other code
    BUILT="with the jar built before it (SKIP_BUILD=1)" AFTER_BUILD=""
fi
# as production runs it: with the AOT cache the build wrote, when it wrote one (tools/service.sh)
JVM_OPTIONS=${JVM_OPTIONS:-$(service_jvm_options)}
SERVICE_JVM_OPTIONS=$JVM_OPTIONS
if [ "$WITH_S3" = 1 ] && { [ ! -f target/s3proxy.classpath ] \
        || [ ! -f target/test-classes/dev/evidencestore/support/S3ProxyProcess.class ]; }; then
    log "compiling the tests for S3Proxy (target/s3proxy.classpath)"
    ./mvnw -q -B test-compile
fi

mkdir -p "$WORK" "$WWW" "$(dirname "$OUT")"
: > "$ROWS"
: > "$NOTES"
# the files one case leaves for another or for the rows written at the end: none from an earlier run
rm -f "$WORK"/small-ingest-*.json "$WORK"/small-read-*.txt
# S3Proxy's certificate, made once per run: S3Proxy and every service that trusts it use the same
[ "$WITH_S3" = 0 ] || s3proxy_tls "$WORK/s3proxy-tls" || die "could not make S3Proxy's key and certificate (keytool)"
# the build leaves the load average at 2-4 for a minute; a run counts only when it starts on a quiet machine (issue
# 17: at most 1.5), so the measuring waits until the one-minute load average is below QUIET_LOAD, at most QUIET_WAIT s
QUIET_WAITED=0
until awk -v limit="$QUIET_LOAD" '{ exit !($1 < limit) }' /proc/loadavg || [ "$QUIET_WAITED" -ge "$QUIET_WAIT" ]; do
    [ "$QUIET_WAITED" != 0 ] || log "waiting for the load average ($(cut -d' ' -f1 /proc/loadavg)) to fall below $QUIET_LOAD"
    sleep 5
    QUIET_WAITED=$((QUIET_WAITED + 5))
done
PSI_START=$(awk -F'total=' '/^some/ { print $2 }' /proc/pressure/cpu 2> /dev/null || echo "")
LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
T_START=$(date +%s%N)
NGINX_CONF=$WORK/nginx/nginx.conf
# whatever ends the run: the service stopped and the bench databases dropped (service_cleanup), S3Proxy and nginx
# stopped; INT and TERM only exit, so that this runs on Ctrl-C and kill too
cleanup() {
    service_cleanup
    s3proxy_stop
    [ ! -f "$WORK/nginx/nginx.pid" ] || kill "$(cat "$WORK/nginx/nginx.pid")" 2> /dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# production refuses the published dev keys: the benchmark makes throwaway ones
KEYS=$WORK/keys
service_keys "$KEYS"
TOKEN=$(KEY="$KEYS/jwt.pem" dev/token.sh bench collector,investigator,reviewer,reader)
AUTH="Authorization: Bearer $TOKEN"

# ---- helpers -----------------------------------------------------------------------------------------------------
BACKEND_INDEX=0
# row CASE_NO CASE OURS REFERENCE RATIO GOAL MET: one table row, sorted by case, then backend, at the end
row() {
    local no=$1; shift
    printf '%s.%s\t| %s | %s | %s | %s | %s | %s |\n' "$no" "$BACKEND_INDEX" "$@" >> "$ROWS"
}
note() { echo "- $*" >> "$NOTES"; }
# label BACKEND: how a row names the backend; s3 runs against S3Proxy on this machine, not against AWS S3
label() { case $1 in s3) echo "\`s3\` (S3Proxy over local files)" ;; *) echo "\`$1\`" ;; esac; }
calc() { awk "BEGIN { $1 }"; }
mbps() { calc "printf \"%.0f\", $1 / 1e6 / $2"; }
# READS: how many times each large read, ours and its reference, is timed; the fastest counts, as for the JVM's own
# SHA-256 (Sha256Rate's best of three): a single pass on a shared machine measures its neighbours as much as the read
READS=3
# fastest SECONDS...: the smallest of the times
fastest() { printf '%s\n' "$@" | sort -g | head -n 1; }
ratio() { calc "printf \"%.2f\", $1 / $2"; }
at_least() { calc "print ($1 >= $2) ? \"yes\" : \"**no**\""; }
at_most() { calc "print ($1 <= $2) ? \"yes\" : \"**no**\""; }
all_yes() { for m in "$@"; do [ "$m" = yes ] || { echo "**no**"; return; }; done; echo yes; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
hex_to_b64() { printf '%b' "$(sed 's/../\\x&/g' <<< "$1")" | openssl base64 -A; }
# wrk_rps FILE, wrk_p99 FILE (ms), wrk_errors FILE: from `wrk --latency` output
wrk_rps() { awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$1"; }
wrk_p99() {
    awk '$1 == "99%" { v = $2
        if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) }
        else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }
        printf "%.1f", v }' "$1"
}
wrk_errors() { awk '/Non-2xx/ { n += $NF } /Socket errors/ { gsub(/,/, ""); n += $4 + $6 + $8 + $10 } END { print n + 0 }' "$1"; }

# ---- the service ---------------------------------------------------------------------------------------------------
PEAK_RSS=0
declare -A PEAK_BY HWM_AFTER
# start_service BACKEND [extra -D arguments]: starts the jar on a database of its own and waits until it is ready;
# sets SERVICE_PID and READY_MS (from process spawn to the first 200 of /q/health/ready, polled every 20 ms)
start_service() {
    local backend=$1; shift
    local waited=0
    while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/"; do # the last one may still be going
        [ $((waited += 1)) -lt 100 ] || die "port $PORT is still taken"
        sleep 0.1
    done
    # the service as docs/operations.md runs it (tools/service.sh): -Xmx128m, JVM_OPTIONS, from target/quarkus-app; the
    # filesystem backend's blob directory comes in the extra arguments
    service_start "$WORK/service-$backend.log" "$PORT" "${DB_PREFIX}_$backend" "$backend" "" "${SERVICE_LIFTED_CAPS[@]}" "$@"
    if ! service_await_ready "$PORT" 180 0.02; then
        kill -0 "$SERVICE_PID" 2> /dev/null || { tail -n 30 "$WORK/service-$backend.log" >&2; die "the service exited"; }
        die "the service was not ready within 180 s"
    fi
}
# stop_service BACKEND: records the process's peak RSS (VmHWM), then stops it
stop_service() {
    local rss
    rss=$(service_peak_rss_mb "$SERVICE_PID")
    [ "$rss" -le "$PEAK_RSS" ] || PEAK_RSS=$rss
    [ "$rss" -le "${PEAK_BY[$1]:-0}" ] || PEAK_BY[$1]=$rss
    service_stop "$SERVICE_PID"
    SERVICE_PID=""
}
# curl_api ARGS...: curl with the token, printing "status seconds bytes"
curl_api() { curl -sS -H "$AUTH" -w '%{http_code} %{time_total} %{size_download}\n' "$@"; }

# ingest_ceiling BACKEND, read_ceiling BACKEND: "MB/s|what it is" of the reference each backend's large ingest,
# and its downloads and verifications, are held to; goal_ingest_large and goal_read_large: the ratios asked of them
ingest_ceiling() {
    case $1 in
        filesystem) if calc "exit !($REF_DISK < $REF_OPENSSL)"; then echo "$REF_DISK|the disk (dd conv=fsync)"
                    else echo "$REF_OPENSSL|openssl dgst -sha256"; fi ;;
        postgres) echo "$REF_PG_COPY_IN|PostgreSQL's own binary COPY into 1 MiB bytea rows" ;;
        s3) echo "$REF_S3_PUT|S3Proxy's own PUT (curl)" ;;
    esac
}
read_ceiling() {
    local peer="" what=""
    case $1 in
        postgres) peer=$REF_PG_COPY_OUT; what="PostgreSQL's own binary COPY out of the rows" ;;
        s3) peer=$REF_S3_GET; what="S3Proxy's own GET (curl)" ;;
    esac
    if [ -n "$peer" ] && calc "exit !($peer < $REF_JVM_SHA)"; then echo "$peer|$what"
    else echo "$REF_JVM_SHA|SHA-256 in the JVM"; fi
}
goal_ingest_large() { case $1 in filesystem) echo 0.85 ;; postgres) echo 0.5 ;; *) echo 0.7 ;; esac; }
goal_read_large() { case $1 in filesystem) echo 0.9 ;; *) echo 0.8 ;; esac; }

# start_s3proxy: S3Proxy in a JVM of its own over https (tools/s3proxy.sh), objects as files under
# bench/work/s3proxy (emptied first), bucket evidence, the test keys. Sets S3PROXY_PID and S3PROXY_URL.
start_s3proxy() {
    s3proxy_start "$WORK/s3proxy.log" "$S3PROXY_PORT" "$WORK/s3proxy" || die "S3Proxy did not start"
}
# s3proxy_reference: the peer object store without the service in front, the s3 rows' ceiling: a PUT and a GET of
# the same large file straight to S3Proxy with curl (SigV4 with the test keys). The PUT carries the file's SHA-256 as
# x-amz-checksum-sha256, as the service's does: S3Proxy 4 checks it, as S3 does, so both cost S3Proxy the same.
# Sets REF_S3_PUT and REF_S3_GET.
s3proxy_reference() {
    local sigv4=(--aws-sigv4 "aws:amz:us-east-1:s3" --user evidence-test:evidence-test-secret
        --cacert "$S3PROXY_TLS/cert.pem")
    local url=$S3PROXY_URL/evidence/reference-$SIZE_MIB.bin code secs
    log "reference: S3Proxy's own PUT and GET of $SIZE_MIB MiB (curl --aws-sigv4)"
    # a PUT of WARM_MIB first, not counted, as the service's ingest gets one (case_ingest_large)
    read -r code _ < <(curl -sS -o /dev/null -w '%{http_code}\n' "${sigv4[@]}" -H 'Expect:' \
        -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" \
        -H "x-amz-checksum-sha256: $(hex_to_b64 "${WARM_DIGEST#sha256:}")" -T "$WARM" "$url")
    [ "$code" = 200 ] || die "S3Proxy PUT of $WARM_MIB MiB answered $code"
    read -r code secs < <(curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' "${sigv4[@]}" -H 'Expect:' \
        -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -H "x-amz-checksum-sha256: $(hex_to_b64 "$BIG_HEX")" \
        -T "$BIG" "$url")
    [ "$code" = 200 ] || die "S3Proxy PUT answered $code"
    REF_S3_PUT=$(mbps "$BIG_BYTES" "$secs")
    local times=()
    for _ in $(seq "$READS"); do
        read -r code secs < <(curl -sS -o /dev/null -w '%{http_code} %{time_total}\n' "${sigv4[@]}" \
            -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$url")
        [ "$code" = 200 ] || die "S3Proxy GET answered $code"
        times+=("$secs")
    done
    REF_S3_GET=$(mbps "$BIG_BYTES" "$(fastest "${times[@]}")")
    curl -sS -o /dev/null "${sigv4[@]}" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -X DELETE "$url"
}

# s3proxy_small_reference: S3Proxy's own rates for 10 KiB objects, the s3 small-ingest row's peer and the condition
# "ahead of S3Proxy's GET" of every read row: bench/lib/S3SmallRate.java (AWS SDK v2, 64 connections) PUTs distinct
# objects with 16 clients (a warm-up of PEER_WARMUP first, then at most SMALL_COUNT, none started after WRK_SECONDS),
# then GETs the small file with 32 clients for WRK_SECONDS. Only when the run has small_ingest or small_read. Sets
# REF_S3_SMALL_PUT, REF_S3_SMALL_PUT_P99, REF_S3_SMALL_GET, REF_S3_SMALL_GET_P99.
s3proxy_small_reference() {
    local put_count=0 get_seconds=0 j=$WORK/s3proxy-small.json
    case " $CASES " in *" small_ingest "*) put_count=$SMALL_COUNT ;; esac
    case " $CASES " in *" small_read "*) get_seconds=$WRK_SECONDS ;; esac
    [ "$put_count" != 0 ] || [ "$get_seconds" != 0 ] || return 0
    log "reference: S3Proxy's own PutObject (16 clients) and GetObject (32 clients) of 10 KiB (bench/lib/S3SmallRate.java)"
    java "${S3PROXY_TRUST[@]}" "${S3PROXY_LOGGING[@]}" -cp "$(cat target/s3proxy.classpath)" \
        bench/lib/S3SmallRate.java "$S3PROXY_URL" evidence \
        "$SMALL" "$PEER_WARMUP" "$put_count" "$WRK_SECONDS" "$get_seconds" 16 32 "$PEER_WARMUP_SECONDS" \
        > "$j" 2> "$WORK/s3proxy-small.log" \
        || { tail -n 30 "$WORK/s3proxy-small.log" >&2; die "S3SmallRate against S3Proxy"; }
    REF_S3_SMALL_PUT=$(jq -r '.putPerSecond // empty' "$j"); REF_S3_SMALL_PUT_P99=$(jq -r '.putP99 // empty' "$j")
    REF_S3_SMALL_GET=$(jq -r '.getPerSecond // empty' "$j"); REF_S3_SMALL_GET_P99=$(jq -r '.getP99 // empty' "$j")
    [ "$get_seconds" = 0 ] || [ -n "$REF_S3_SMALL_GET" ] || die "S3SmallRate: no GET of S3Proxy succeeded: $(cat "$j")"
    [ "$(jq -r '.getErrors // 0' "$j")" = 0 ] \
        || note "\`s3\`: S3Proxy's own GetObject of 10 KiB: $(jq -r .getErrors "$j") requests failed (bench/work/s3proxy-small.log)"
}

# stop_s3proxy: notes S3Proxy's own peak RSS (kept out of the service's), then stops it
stop_s3proxy() {
    [ -n "$S3PROXY_PID" ] || return 0
    local rss
    rss=$(service_peak_rss_mb "$S3PROXY_PID")
    note "\`s3\`: S3Proxy (its own JVM, default heap, objects under bench/work/s3proxy) peaked at $rss MB RSS (VmHWM); not counted in the service's peak RSS"
    s3proxy_stop
}

# backend_arguments BACKEND: sets BACKEND_ARGUMENTS, the -D arguments the service needs for that backend; the
# filesystem backend's directory is emptied
backend_arguments() {
    case $1 in
        filesystem)
            rm -rf "$WORK/blobs-filesystem"
            BACKEND_ARGUMENTS=(-Devidence.storage.filesystem.path="$WORK/blobs-filesystem") ;;
        postgres) BACKEND_ARGUMENTS=() ;;
        s3)
            s3proxy_service_arguments "$S3PROXY_PORT" || die "s3proxy_service_arguments"
            BACKEND_ARGUMENTS=("${S3PROXY_SERVICE_ARGUMENTS[@]}") ;;
        *) die "unknown backend $1: add a case for it in bench/run.sh (its extra -D arguments)" ;;
    esac
}

# ---- start to ready, first --------------------------------------------------------------------------------------
# On the quiet machine, before any reference or case: their load (PostgreSQL's checkpoints and autovacuum after the
# 1 GiB COPY and pgbench, the page cache, the JIT of an earlier service) lingers for minutes, and a start measured
# after the filesystem backend's cases took 2.58 s where the same start on a quiet machine takes 1.5 s. Each backend
# migrates a database of its own once, then starts STARTS times on it; the cases use fresh databases.
if [ "$CASES" = "${CASES_ALL}" ]; then
    [ "$WITH_S3" = 0 ] || start_s3proxy
    for backend in $BACKENDS; do
        BACKEND_INDEX=$((BACKEND_INDEX + 1))
        backend_arguments "$backend"
        service_db_fresh "${DB_PREFIX}_$backend"
        : > "$WORK/service-$backend.log"
        start_service "$backend" "${BACKEND_ARGUMENTS[@]}"
        log "$backend: start to ready, $STARTS times"
        : > "$WORK/ready-$backend.txt"
        for _ in $(seq 1 "$STARTS"); do
            stop_service "$backend"
            start_service "$backend" "${BACKEND_ARGUMENTS[@]}"
            echo "$READY_MS" >> "$WORK/ready-$backend.txt"
        done
        stop_service "$backend"
        ready_s=$(median < "$WORK/ready-$backend.txt" | awk '{ printf "%.2f", $1 / 1000 }')
        row 9 "start to ready, $(label "$backend") (median of $STARTS, migrated database)" "$ready_s s" "—" "—" \
            "≤ 1.5 s" "$(at_most "$ready_s" 1.5)"
    done
    BACKEND_INDEX=0
    s3proxy_stop
fi

# ---- the files, and the references that do not need the service -------------------------------------------------
BIG=$WWW/blob-${SIZE_MIB}MiB.bin
if [ ! -f "$BIG" ] || [ "$(stat -c %s "$BIG")" -ne $((SIZE_MIB * 1048576)) ]; then
    log "writing $SIZE_MIB MiB of random bytes to $BIG"
    head -c $((SIZE_MIB * 1048576)) /dev/urandom > "$BIG"
fi
BIG_BYTES=$(stat -c %s "$BIG")
WARM_MIB=64
WARM=$WWW/warm-${WARM_MIB}MiB.bin
head -c $((WARM_MIB * 1048576)) /dev/urandom > "$WARM" # new bytes every run: the service stores them anew
WARM_DIGEST=sha256:$(sha256sum "$WARM" | cut -d' ' -f1)
if [ $((SIZE_MIB % 1024)) = 0 ]; then SIZE=$((SIZE_MIB / 1024))" GiB"; else SIZE="$SIZE_MIB MiB"; fi
SMALL=$WWW/small-10KiB.json
hex=$(openssl rand -hex 5113 | tr -d '\n')
printf '{"samples":"%s"}\n' "${hex:0:10225}" > "$SMALL"
[ "$(stat -c %s "$SMALL")" = 10240 ] || die "small file is not 10 KiB"
SMALL_DIGEST=sha256:$(sha256sum "$SMALL" | cut -d' ' -f1)

cat "$BIG" > /dev/null # in the page cache, for openssl, nginx and the uploads alike
log "reference: openssl dgst -sha256 on $SIZE_MIB MiB"
t0=$(date +%s.%N)
BIG_HEX=$(openssl dgst -sha256 -r "$BIG" | cut -d' ' -f1)
REF_OPENSSL=$(mbps "$BIG_BYTES" "$(calc "print $(date +%s.%N) - $t0")")
BIG_DIGEST=sha256:$BIG_HEX

# the physical limit of a durable ingest: the disk under bench/work writing the same bytes and syncing them, as the
# filesystem backend does (a copy to a new file, then fsync); the service's ingest cannot beat it
log "reference: the disk, dd conv=fsync of $SIZE_MIB MiB"
t0=$(date +%s.%N)
dd if="$BIG" of="$WORK/dd-durable.bin" bs=1M conv=fsync status=none
REF_DISK=$(mbps "$BIG_BYTES" "$(calc "print $(date +%s.%N) - $t0")")
rm -f "$WORK/dd-durable.bin"

# the ceiling of a checked read: SHA-256 in the JVM (the service hashes every whole download and every verification)
log "reference: SHA-256 in the JVM (bench/lib/Sha256Rate.java) on $SIZE_MIB MiB"
read -r REF_JVM_SHA jvm_hex < <(java bench/lib/Sha256Rate.java "$BIG")
[ "$jvm_hex" = "$BIG_HEX" ] || die "Sha256Rate computed $jvm_hex"

mkdir -p "$WORK/nginx/tmp"
{
    [ "$(id -u)" != 0 ] || echo "user root;"
    cat << EOF
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path $WORK/nginx/tmp/body;
    proxy_temp_path $WORK/nginx/tmp/proxy;
    fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
    uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
    scgi_temp_path $WORK/nginx/tmp/scgi;
    types { application/json json; application/octet-stream bin; }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $WWW;
    }
}
EOF
} > "$NGINX_CONF"
nginx -p "$WORK/nginx" -c "$NGINX_CONF" -e "$WORK/nginx/error.log"
NGINX=http://127.0.0.1:$NGINX_PORT

log "reference: nginx serving $SIZE_MIB MiB"
read -r code secs size < <(curl -sS -o /dev/null -w '%{http_code} %{time_total} %{size_download}\n' "$NGINX/$(basename "$BIG")")
[ "$code" = 200 ] && [ "$size" = "$BIG_BYTES" ] || die "nginx answered $code with $size bytes"
REF_NGINX_BIG=$(mbps "$BIG_BYTES" "$secs")

log "reference: nginx serving 10 KiB, wrk -t2 -c32 -d${WRK_SECONDS}s"
wrk -t2 -c32 -d"${WRK_SECONDS}s" --latency "$NGINX/$(basename "$SMALL")" > "$WORK/wrk-nginx.txt"
[ "$(wrk_errors "$WORK/wrk-nginx.txt")" = 0 ] || die "wrk against nginx: $(cat "$WORK/wrk-nginx.txt")"
REF_NGINX_RPS=$(wrk_rps "$WORK/wrk-nginx.txt")
REF_NGINX_P99=$(wrk_p99 "$WORK/wrk-nginx.txt")

log "reference: pgbench inserting 10 KiB rows, 16 clients, $SMALL_COUNT transactions"
service_db_fresh "${DB_PREFIX}_pgbench"
psql_q -d "${DB_PREFIX}_pgbench" -c 'CREATE TABLE bench_row (id bigserial PRIMARY KEY, body text NOT NULL)' \
    -c 'ALTER TABLE bench_row ALTER body SET STORAGE EXTERNAL' # stored as written, like the postgres backend's chunks
rm -rf "$WORK/pgbench" && mkdir -p "$WORK/pgbench"
echo "INSERT INTO bench_row (body) VALUES (repeat(md5(random()::text), 320));" > "$WORK/pgbench/insert.sql"
(cd "$WORK/pgbench" && "$PGBENCH" -n -h "$PGHOST" -p "$PGPORT" -U postgres -c 16 -j 2 -t $((SMALL_COUNT / 16)) \
    -l --log-prefix=tx -f insert.sql "${DB_PREFIX}_pgbench" > pgbench.txt 2>&1) \
    || die "pgbench: $(cat "$WORK/pgbench/pgbench.txt")"
REF_PG_TPS=$(awk '/^tps = / { printf "%.0f", $3 }' "$WORK/pgbench/pgbench.txt")
cat "$WORK"/pgbench/tx.* | awk '{ print $3 / 1000 }' | sort -n > "$WORK/pgbench/latencies-ms.txt"
pct() { awk -v p="$2" '{ v[NR] = $1 } END { r = int((p / 100) * NR + 0.999999); if (r < 1) r = 1; printf "%.1f", v[r] }' "$1"; }
REF_PG_P50=$(pct "$WORK/pgbench/latencies-ms.txt" 50)
REF_PG_P99=$(pct "$WORK/pgbench/latencies-ms.txt" 99)
[ "$KEEP_DATA" = 1 ] || service_db_drop "${DB_PREFIX}_pgbench"

# the ceilings of the postgres backend: PostgreSQL's own binary COPY of the same bytes into and out of 1 MiB bytea
# rows stored as written (EXTERNAL, as the backend's chunks), from and to a client on this machine
REF_PG_COPY_IN=""
REF_PG_COPY_OUT=""
case " $BACKENDS " in *" postgres "*)
    log "reference: PostgreSQL's binary COPY of $SIZE_MIB MiB into and out of 1 MiB bytea rows"
    service_db_fresh "${DB_PREFIX}_copy"
    psql_q -d "${DB_PREFIX}_copy" -c 'CREATE TABLE bench_bytea (seq integer PRIMARY KEY, data bytea NOT NULL)' \
        -c 'ALTER TABLE bench_bytea ALTER data SET STORAGE EXTERNAL'
    java bench/lib/PgCopyRows.java "$BIG" "$WORK/big.pgcopy"
    t0=$(date +%s.%N)
    psql_q -d "${DB_PREFIX}_copy" -c "\\copy bench_bytea FROM '$WORK/big.pgcopy' WITH (FORMAT binary)"
    REF_PG_COPY_IN=$(mbps "$BIG_BYTES" "$(calc "print $(date +%s.%N) - $t0")")
    rm -f "$WORK/big.pgcopy"
    copy_out_times=()
    for _ in $(seq "$READS"); do
        t0=$(date +%s.%N)
        psql_q -d "${DB_PREFIX}_copy" -c "\\copy (SELECT data FROM bench_bytea ORDER BY seq) TO '/dev/null' WITH (FORMAT binary)"
        copy_out_times+=("$(calc "print $(date +%s.%N) - $t0")")
    done
    REF_PG_COPY_OUT=$(mbps "$BIG_BYTES" "$(fastest "${copy_out_times[@]}")")
    [ "$KEEP_DATA" = 1 ] || service_db_drop "${DB_PREFIX}_copy"
    ;;
esac

# request_p50 WARMUP_SECONDS URL [curl arguments...]: the median in ms of RUNS requests' own time, after the same
# request repeated for WARMUP_SECONDS, not counted. curl's time_total (connect, request, the whole answer), not the
# process's: curl's own start takes ~17 ms here, more than a page, and is no part of what the service answers in
request_p50() {
    local until=$(($(date +%s%N) + $1 * 1000000000)) url=$2 i
    shift 2
    while [ "$(date +%s%N)" -lt "$until" ]; do curl -sf -o /dev/null "$@" "$url" || return 1; done
    for ((i = 0; i < RUNS; i++)); do curl -sf -o /dev/null -w '%{time_total}\n' "$@" "$url" || return 1; done \
        | sort -n | awk '{ t[NR] = $1 } END { m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
                                               printf "%.1f", m * 1000 }'
}

log "reference: curl fetching nginx's 10 KiB file, $RUNS times (the client's own floor)"
CURL_FLOOR_MS=$(request_p50 1 "$NGINX/$(basename "$SMALL")") || die "curl against nginx"

# S3Proxy's own small PUT and GET, measured with the s3 backend (s3proxy_small_reference)
REF_S3_SMALL_PUT=""; REF_S3_SMALL_PUT_P99=""; REF_S3_SMALL_GET=""; REF_S3_SMALL_GET_P99=""

LARGE_ID=artifact:$WS:v1:BENCH-1:large
SMALL_ID=artifact:$WS:v1:BENCH-1:small

case_ingest_large() {
    local code secs size
    # one upload of WARM_MIB first, not counted, as S3Proxy's own PUT gets one (s3proxy_reference): the timed upload
    # is then not the first through the JIT compiler, as the timed reads are not (the fastest of READS)
    read -r code _ < <(curl_api -o "$WORK/put.json" -T "$WARM" -H 'Expect:' \
        -H 'Content-Type: application/octet-stream' "$API/blobs/$WARM_DIGEST")
    [ "$code" = 201 ] || die "PUT of $WARM_MIB MiB answered $code: $(cat "$WORK/put.json")"
    read -r code secs size < <(curl_api -o "$WORK/put.json" -T "$BIG" -H 'Expect:' \
        -H 'Content-Type: application/octet-stream' "$API/blobs/$BIG_DIGEST")
    [ "$code" = 201 ] || die "PUT of $SIZE_MIB MiB answered $code: $(cat "$WORK/put.json")"
    read -r code _ < <(curl_api -o "$WORK/bind.json" -H 'Content-Type: application/json' \
        -d "{\"name\":\"large\",\"digest\":\"$BIG_DIGEST\",\"mediaType\":\"application/octet-stream\",\"source\":\"bench\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T10:20:00Z\"}" \
        "$API/workspaces/$WS/incidents/BENCH-1/artifacts")
    [ "$code" = 201 ] || die "binding the large blob answered $code: $(cat "$WORK/bind.json")"
    local ours goal ceiling what; ours=$(mbps "$BIG_BYTES" "$secs"); goal=$(goal_ingest_large "$1")
    IFS='|' read -r ceiling what <<< "$(ingest_ceiling "$1")"
    row 1 "ingest $SIZE, $(label "$1")" "$ours MB/s" "$ceiling MB/s ($what); openssl $REF_OPENSSL MB/s, the disk $REF_DISK MB/s" \
        "$(ratio "$ours" "$ceiling")×" "≥ ${goal}×" "$(at_least "$(ratio "$ours" "$ceiling")" "$goal")"
}

case_download_large() {
    local code secs size times=()
    for _ in $(seq "$READS"); do
        read -r code secs size < <(curl_api -o /dev/null -D "$WORK/get.headers" "$API/artifacts/$LARGE_ID/content")
        [ "$code" = 200 ] && [ "$size" = "$BIG_BYTES" ] || die "GET of the large artifact: $code, $size bytes"
        grep -qi "^repr-digest: sha-256=:$(hex_to_b64 "$BIG_HEX"):" "$WORK/get.headers" \
            || die "GET of the large artifact: wrong Repr-Digest: $(cat "$WORK/get.headers")"
        times+=("$secs")
    done
    # the timed downloads go to /dev/null; another one checks the bytes themselves
    local served
    served=$(curl -sS -H "$AUTH" "$API/artifacts/$LARGE_ID/content" | openssl dgst -sha256 -r | cut -d' ' -f1)
    [ "$served" = "$BIG_HEX" ] || die "the large artifact came back with digest $served"
    local ours goal ceiling what; ours=$(mbps "$BIG_BYTES" "$(fastest "${times[@]}")"); goal=$(goal_read_large "$1")
    IFS='|' read -r ceiling what <<< "$(read_ceiling "$1")"
    row 2 "download $SIZE, $(label "$1")" "$ours MB/s" "$ceiling MB/s ($what, the ceiling of a checked download); nginx $REF_NGINX_BIG MB/s" \
        "$(ratio "$ours" "$ceiling")×" "≥ ${goal}×" "$(at_least "$(ratio "$ours" "$ceiling")" "$goal")"
}

case_verification() {
    local code secs times=()
    for _ in $(seq "$READS"); do
        read -r code secs _ < <(curl_api -o "$WORK/verify.json" -X POST -H 'Content-Type: application/json' \
            -d "{\"digest\":\"$BIG_DIGEST\"}" "$API/artifacts/$LARGE_ID/verifications")
        [ "$code" = 201 ] && [ "$(jq -r .verified "$WORK/verify.json")" = true ] \
            || die "verification answered $code: $(cat "$WORK/verify.json")"
        times+=("$secs")
    done
    local ours goal ceiling what; ours=$(mbps "$BIG_BYTES" "$(fastest "${times[@]}")"); goal=$(goal_read_large "$1")
    IFS='|' read -r ceiling what <<< "$(read_ceiling "$1")"
    row 5 "verification of a $SIZE artifact, $(label "$1")" "$ours MB/s" "$ceiling MB/s ($what); openssl $REF_OPENSSL MB/s" \
        "$(ratio "$ours" "$ceiling")×" "≥ ${goal}×" "$(at_least "$(ratio "$ours" "$ceiling")" "$goal")"
}

# warm_until_settled WHAT COMMAND...: runs COMMAND ROUND (one round of the case's own workload, ROUND counting from
# 1) until the JIT compiler took less than a tenth of the service's CPU over a round, or WARMUP_MAX_SECONDS passed,
# and notes how long that took. On 2 cores the compiler works on the ingest path for its first 15,000-20,000
# artifacts, at up to a third of the service's CPU: postgres one by one went 384, 561, 657, 806, 806, 797/s in rounds of
# 6,000, the service's CPU per artifact from 3.5 to 1.1 ms, the compiler's share from 29% to 5%. A fixed warm-up of
# 8,000 measured the compiler's work more than the service's.
warm_until_settled() {
    local what=$1; shift
    local start=$SECONDS round=0 jit0 cpu0 jit cpu
    while :; do
        round=$((round + 1))
        # clock ticks: only their ratio is used
        jit0=$(service_cpu_ticks $(service_compiler_stats "$SERVICE_PID"))
        cpu0=$(service_cpu_ticks "/proc/$SERVICE_PID/stat")
        "$@" "$round" > /dev/null
        jit=$(($(service_cpu_ticks $(service_compiler_stats "$SERVICE_PID")) - jit0))
        cpu=$(($(service_cpu_ticks "/proc/$SERVICE_PID/stat") - cpu0))
        [ $((jit * 10)) -ge "$cpu" ] && [ $((SECONDS - start)) -lt "$WARMUP_MAX_SECONDS" ] || break
    done
    local settled="the compiler at $((jit * 100 / (cpu > 0 ? cpu : 1)))% of the service's CPU in the last round"
    [ $((jit * 10)) -lt "$cpu" ] || settled="stopped at the $WARMUP_MAX_SECONDS s limit, $settled"
    note "$what: warmed up with $((round * WARMUP_ROUND)) artifacts in $((SECONDS - start)) s ($settled)"
}
small_ingest_round() {
    node bench/small-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "warm$1" \
        --count "$WARMUP_ROUND" --warmup 0 --max-seconds "$WARMUP_MAX_SECONDS" --concurrency 16
}
batch_ingest_round() {
    node bench/batch-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "warmbatch$1" \
        --count "$WARMUP_ROUND" --batch 1000 --concurrency 2 --work "$WORK/batches"
}

case_small_ingest() {
    warm_until_settled "small ingest, \`$1\`" small_ingest_round
    node bench/small-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "$WS" \
        --count "$SMALL_COUNT" --warmup 0 --max-seconds "$SMALL_MAX_SECONDS" --concurrency 16 \
        > "$WORK/small-ingest-$1.json"
    local j=$WORK/small-ingest-$1.json
    local rate p50 p99 retries done stopped=""
    rate=$(jq -r '.perSecond | round' "$j"); p50=$(jq -r .p50 "$j"); p99=$(jq -r .p99 "$j"); retries=$(jq -r .retries503 "$j")
    done=$(jq -r .done "$j")
    [ "$retries" = 0 ] || note "small ingest, \`$1\`: $retries answers 503 service-busy, retried after Retry-After (latency includes the wait)"
    [ "$done" = "$SMALL_COUNT" ] || stopped=" (stopped at the $SMALL_MAX_SECONDS s limit after $done)"
    local what ours pgbench
    what="ingest 10 KiB JSON artifacts (blob + bind), 16 clients, $SMALL_COUNT, $(label "$1")"
    ours="$rate artifacts/s, p50 $p50 ms, p99 $p99 ms$stopped"
    pgbench="pgbench: $REF_PG_TPS rows/s, p50 $REF_PG_P50 ms, p99 $REF_PG_P99 ms"
    # filesystem and postgres: a rate and a latency of their own; s3: a ratio to S3Proxy's own small PUT
    if [ "$1" = s3 ]; then
        row 3 "$what" "$ours" \
            "S3Proxy's own PutObject of distinct 10 KiB objects, 16 clients (AWS SDK v2): $REF_S3_SMALL_PUT objects/s, p99 $REF_S3_SMALL_PUT_P99 ms; $pgbench" \
            "$(ratio "$rate" "$REF_S3_SMALL_PUT")×" "≥ 0.8× S3Proxy's PutObject" \
            "$(at_least "$(ratio "$rate" "$REF_S3_SMALL_PUT")" 0.8)"
    else
        row 3 "$what" "$ours" "$pgbench" "—" "≥ 1,000 artifacts/s, p99 ≤ 50 ms" \
            "$(all_yes "$(at_least "$rate" 1000)" "$(at_most "$p99" 50)")"
    fi
}

# the batch upload (POST .../artifact-batches): the same 10 KiB documents, 1,000 to a tar, two batches at a time,
# beside the one-by-one rate of the same backend measured just before (small_ingest)
case_batch_ingest() {
    warm_until_settled "batch ingest, \`$1\`" batch_ingest_round
    node bench/batch-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "$WS" \
        --count "$SMALL_COUNT" --batch 1000 --concurrency 2 --work "$WORK/batches" \
        > "$WORK/batch-ingest-$1.json"
    local j=$WORK/batch-ingest-$1.json rate p99 single=""
    # each case runs in a subshell: the one-by-one rate comes from small_ingest's file
    [ -f "$WORK/small-ingest-$1.json" ] && single=$(jq -r '.perSecond | round' "$WORK/small-ingest-$1.json")
    rate=$(jq -r '.perSecond | round' "$j"); p99=$(jq -r .p99 "$j")
    if [ -z "$single" ]; then
        row 3 "ingest 10 KiB JSON artifacts in batches of 1,000, 2 at a time, $SMALL_COUNT, $(label "$1")" \
            "$rate artifacts/s, p99 $p99 ms a batch" "one by one: not measured in this run (CASES)" "-" "≥ 5×" "-"
        return
    fi
    row 3 "ingest 10 KiB JSON artifacts in batches of 1,000, 2 at a time, $SMALL_COUNT, $(label "$1")" \
        "$rate artifacts/s, p99 $p99 ms a batch" "one by one (blob + bind, 16 clients, same backend): $single artifacts/s" \
        "$(ratio "$rate" "$single")×" "≥ 5×" "$(at_least "$(ratio "$rate" "$single")" 5)"
}

case_small_read() {
    local served
    served=sha256:$(curl -sS -H "$AUTH" "$API/artifacts/$SMALL_ID/content" | sha256sum | cut -d' ' -f1)
    [ "$served" = "$SMALL_DIGEST" ] || die "the small artifact came back with digest $served"
    # both paths warmed up first (not counted), as the JIT compiler is still at work on a route's first seconds
    wrk -t2 -c32 -d3s "http://127.0.0.1:$PORT/q/health/live" > /dev/null
    wrk -t2 -c32 -d3s -H "$AUTH" "$API/artifacts/$SMALL_ID/content" > /dev/null
    wrk -t2 -c32 -d"${WRK_SECONDS}s" --latency "http://127.0.0.1:$PORT/q/health/live" > "$WORK/wrk-live-$1.txt"
    local live; live=$(wrk_rps "$WORK/wrk-live-$1.txt")
    wrk -t2 -c32 -d"${WRK_SECONDS}s" --latency -H "$AUTH" "$API/artifacts/$SMALL_ID/content" > "$WORK/wrk-$1.txt"
    local errors rps p99
    errors=$(wrk_errors "$WORK/wrk-$1.txt"); rps=$(wrk_rps "$WORK/wrk-$1.txt"); p99=$(wrk_p99 "$WORK/wrk-$1.txt")
    [ "$errors" = 0 ] || note "small reads, \`$1\`: $errors failed requests (non-2xx or socket errors) of $(awk '/requests in/ { print $1 }' "$WORK/wrk-$1.txt")"
    # the row waits for the end of the run (small_read_rows): its goals need the filesystem's read and S3Proxy's GET
    echo "$rps $p99 $live $errors" > "$WORK/small-read-$1.txt"
}

# small_read_rows: the read rows, once every backend has run: filesystem held to its own /q/health/live, postgres and
# s3 to the filesystem read of the same run, and every backend to be ahead of S3Proxy's own GET of the same 10 KiB
# (measured only when s3 is in BACKENDS); a condition that could not be checked is said so in the goal
small_read_rows() {
    local backend rps p99 live errors fs="" reference ratios goal first second met
    [ ! -f "$WORK/small-read-filesystem.txt" ] || read -r fs _ < "$WORK/small-read-filesystem.txt"
    BACKEND_INDEX=0
    for backend in $BACKENDS; do
        BACKEND_INDEX=$((BACKEND_INDEX + 1))
        [ -f "$WORK/small-read-$backend.txt" ] || continue
        read -r rps p99 live errors < "$WORK/small-read-$backend.txt"
        if [ "$backend" = filesystem ]; then
            reference="the service's own /q/health/live, the framework's ceiling: $live req/s"
            ratios="$(ratio "$rps" "$live")× /q/health/live"
            goal="≥ 0.7× /q/health/live"
            first=$(at_least "$(ratio "$rps" "$live")" 0.7)
        elif [ -n "$fs" ]; then
            reference="\`filesystem\` in this run: $fs req/s; /q/health/live $live req/s"
            ratios="$(ratio "$rps" "$fs")× filesystem"
            goal="≥ 0.8× \`filesystem\`"
            first=$(at_least "$(ratio "$rps" "$fs")" 0.8)
        else
            reference="\`filesystem\`: no read of it in this run (BACKENDS, CASES, or the case failed); /q/health/live $live req/s"
            ratios="-"
            goal="≥ 0.8× \`filesystem\` (not measured)"
            first="-"
        fi
        if [ -n "$REF_S3_SMALL_GET" ]; then
            reference="$reference; S3Proxy's own GetObject of the same 10 KiB, 32 clients (AWS SDK v2): $REF_S3_SMALL_GET req/s, p99 $REF_S3_SMALL_GET_P99 ms"
            ratios="$ratios, $(ratio "$rps" "$REF_S3_SMALL_GET")× S3Proxy"
            goal="$goal; ahead of S3Proxy's GetObject"
            second=$(calc "print ($rps > $REF_S3_SMALL_GET) ? \"yes\" : \"**no**\"")
        else
            goal="$goal; ahead of S3Proxy's GetObject: not checked (s3 not in this run)"
            second=yes
        fi
        reference="$reference; nginx: $REF_NGINX_RPS req/s, p99 $REF_NGINX_P99 ms"
        met=$(all_yes "$second" "$([ "$errors" = 0 ] && echo yes)")
        if [ "$met" = yes ] && [ "$first" = "-" ]; then met="-"
        elif [ "$met" = yes ]; then met=$first; fi
        row 4 "read a 10 KiB artifact, 32 connections, $(label "$backend")" "$rps req/s, p99 $p99 ms" \
            "$reference" "$ratios" "$goal" "$met"
    done
}

case_postmortem() {
    node bench/seed-incident.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "$WS" --incident PM-1 \
        --artifacts 200 --artifact-size 65536 --findings 100 --timeline 50 > "$WORK/seed-$1.json"
    local inc=$API/workspaces/$WS/incidents/PM-1 code
    # once for correctness: the postmortem ends with the manifest's digest; the bundle's files check out
    read -r code _ < <(curl_api -o "$WORK/postmortem.md" -H 'Accept: text/markdown' "$inc/postmortem")
    [ "$code" = 200 ] || die "postmortem answered $code"
    read -r code _ < <(curl_api -o "$WORK/manifest.json" "$inc/evidence-manifest")
    [ "$code" = 200 ] || die "manifest answered $code"
    tail -n 1 "$WORK/postmortem.md" | grep -q "$(sha256sum "$WORK/manifest.json" | cut -d' ' -f1)" \
        || die "the postmortem's last line does not name the manifest's digest"
    read -r code _ < <(curl_api -o "$WORK/bundle.zip" "$inc/evidence-bundle")
    [ "$code" = 200 ] || die "bundle answered $code"
    rm -rf "$WORK/bundle" && mkdir -p "$WORK/bundle"
    (cd "$WORK/bundle" && jar xf ../bundle.zip && sha256sum --quiet -c SHA256SUMS) || die "the bundle does not check"
    [ "$(ls "$WORK/bundle/artifacts" | wc -l)" = 200 ] || die "the bundle does not hold 200 artifacts"
    rm -rf "$WORK/bundle" "$WORK/bundle.zip"

    local md bundle manifest auth="Authorization: Bearer $TOKEN"
    md=$(request_p50 "$PAGE_WARMUP_SECONDS" "$inc/postmortem" -H "$auth" -H 'Accept: text/markdown') || die "postmortem runs"
    manifest=$(request_p50 "$PAGE_WARMUP_SECONDS" "$inc/evidence-manifest" -H "$auth") || die "manifest runs"
    bundle=$(request_p50 "$PAGE_WARMUP_SECONDS" "$inc/evidence-bundle" -H "$auth") || die "bundle runs"
    row 6 "postmortem Markdown, incident of 200 artifacts, 100 findings, 50 timeline entries, $(label "$1")" \
        "p50 $md ms" "—" "—" "≤ 25 ms" "$(at_most "$md" 25)"
    row 7 "evidence bundle of the same incident (200 × 64 KiB), $(label "$1")" "p50 $bundle ms" "—" "—" "≤ 300 ms" \
        "$(at_most "$bundle" 300)"
    row 8 "evidence manifest of the same incident, $(label "$1")" "p50 $manifest ms" "—" "—" "—" "—"
}

run_case() {
    local name=$1 backend=$2
    case " $CASES " in *" ${name#case_} "*) ;; *) return 0 ;; esac
    log "$backend: $name"
    # each case in a subshell, so that a failing one is reported and the others still run
    set +e
    (set -e; "$name" "$backend")
    local rc=$?
    set -e
    [ $rc = 0 ] || { note "\`$backend\`: case ${name#case_} FAILED (see the log above); its row is missing"; FAILED=1; }
    # the peak so far after each case, so that the note can say which case set it
    HWM_AFTER[$backend]+="${HWM_AFTER[$backend]:+, }${name#case_} $(service_peak_rss_mb "$SERVICE_PID")"
}

FAILED=0
for backend in $BACKENDS; do
    BACKEND_INDEX=$((BACKEND_INDEX + 1))
    backend_arguments "$backend"
    if [ "$backend" = s3 ]; then
        log "s3: starting S3Proxy on port $S3PROXY_PORT (objects under bench/work/s3proxy)"
        start_s3proxy
        s3proxy_reference
        s3proxy_small_reference
    fi
    service_db_fresh "${DB_PREFIX}_$backend"
    : > "$WORK/service-$backend.log"
    log "$backend: starting the service (fresh database ${DB_PREFIX}_$backend)"
    start_service "$backend" "${BACKEND_ARGUMENTS[@]}"
    note "\`$backend\`: first start, migrating an empty database, ready after $READY_MS ms"

    read -r code _ < <(curl_api -o "$WORK/incident.json" -H 'Content-Type: application/json' \
        -d '{"key":"BENCH-1","title":"Benchmark evidence","severity":"SEV-3"}' "$API/workspaces/$WS/incidents")
    [ "$code" = 201 ] || die "creating incident BENCH-1 answered $code: $(cat "$WORK/incident.json")"
    read -r code _ < <(curl_api -o "$WORK/put.json" -T "$SMALL" -H 'Content-Type: application/octet-stream' \
        "$API/blobs/$SMALL_DIGEST")
    [ "$code" = 201 ] || die "PUT of the small file answered $code: $(cat "$WORK/put.json")"
    read -r code _ < <(curl_api -o "$WORK/bind.json" -H 'Content-Type: application/json' \
        -d "{\"name\":\"small\",\"digest\":\"$SMALL_DIGEST\",\"mediaType\":\"application/json\",\"source\":\"bench\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T10:20:00Z\"}" \
        "$API/workspaces/$WS/incidents/BENCH-1/artifacts")
    [ "$code" = 201 ] || die "binding the small file answered $code: $(cat "$WORK/bind.json")"

    run_case case_ingest_large "$backend"
    run_case case_download_large "$backend"
    run_case case_verification "$backend"
    run_case case_small_ingest "$backend"
    run_case case_batch_ingest "$backend"
    run_case case_small_read "$backend"
    run_case case_postmortem "$backend"
    stop_service "$backend"

    warnings=$(grep -cE '^[0-9:,]+ (WARN|ERROR) ' "$WORK/service-$backend.log" || true)
    if [ "$warnings" != 0 ]; then
        note "\`$backend\`: the service logged $warnings WARN/ERROR lines (bench/work/service-$backend.log), most often:"
        grep -E '^[0-9:,]+ (WARN|ERROR) ' "$WORK/service-$backend.log" | sed -E 's/^[0-9:,]+ +//; s/ \([^)]*\) / /' \
            | cut -c1-150 | sort | uniq -c | sort -rn | head -n 3 \
            | awk '{ n = $1; $1 = ""; print "  - " n "× `" substr($0, 2) "`" }' >> "$NOTES"
    fi
    [ "$backend" != s3 ] || stop_s3proxy
    if [ "$KEEP_DATA" != 1 ]; then
        service_db_drop "${DB_PREFIX}_$backend"
        rm -rf "$WORK/blobs-filesystem" "$WORK/s3proxy"
    fi
done

small_read_rows
BACKEND_INDEX=0
peaks=""
for backend in $BACKENDS; do peaks="$peaks${peaks:+, }$backend ${PEAK_BY[$backend]:-?} MB"; done
row 10 "peak RSS of the service across the run (VmHWM, -Xmx128m)" "$PEAK_RSS MB ($peaks)" "—" "—" "≤ 300 MB" \
    "$(at_most "$PEAK_RSS" 300)"
for backend in $BACKENDS; do
    [ -z "${HWM_AFTER[$backend]:-}" ] || note "\`$backend\`: peak RSS (MB) after each case: ${HWM_AFTER[$backend]}"
done

kill "$(cat "$WORK/nginx/nginx.pid")" 2> /dev/null || true

# ---- the table -----------------------------------------------------------------------------------------------------
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)
java_version=$(java -version 2>&1 | head -n 1 | sed 's/"//g')
pg_version=$(psql_q -d postgres -tAc 'show server_version' | cut -d' ' -f1)
commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)
pressure="unknown"
if [ -n "$PSI_START" ]; then # the share of the time during which something waited for a CPU (Linux PSI "some")
    psi_end=$(awk -F'total=' '/^some/ { print $2 }' /proc/pressure/cpu)
    pressure=$(calc "printf \"%.0f%%\", ($psi_end - $PSI_START) / 10 / (($(date +%s%N) - $T_START) / 1e6)")
fi
git diff --quiet HEAD -- src pom.xml 2> /dev/null || commit="$commit + uncommitted changes"
{
    echo "# Benchmark, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo "- Commit $commit; $(nproc) cores ($cpu), $mem GiB; $java_version, the service with \`-Xmx128m\`;"
    echo "  PostgreSQL $pg_version on the same machine."
    echo "- Every figure, ours and reference, was measured in this one run of \`bench/run.sh\`, which took"
    echo "  $((SECONDS / 60)) min $((SECONDS % 60)) s $BUILT."
    echo "- Load on the machine while measuring: CPU pressure $pressure (PSI \"some\": the share of the time"
    echo "  something waited for a CPU), load average $LOAD_START at the start (after $QUIET_WAITED s of waiting for it to"
    echo "  fall below $QUIET_LOAD$AFTER_BUILD) and $(cut -d' ' -f1 /proc/loadavg) at the end."
    echo "  Other work on the machine makes the figures noisy."
    echo
    echo "| case | ours | reference (same run) | ratio | goal | met? |"
    echo "| --- | --- | --- | --- | --- | --- |"
    sort -t$'\t' -k1,1V "$ROWS" | cut -f2-
    echo
    echo "How each case is measured:"
    echo
    echo "- Large blobs: $SIZE of random bytes, uploaded with \`curl -T\` to \`PUT /api/v1/blobs/{digest}\` (after an"
    echo "  upload of $WARM_MIB MiB of other bytes, not counted, as S3Proxy's own PUT gets one) and"
    echo "  bound as an artifact; downloaded from \`GET /api/v1/artifacts/{id}/content\` to /dev/null (another"
    echo "  download checks the bytes' digest, and the timed ones the \`Repr-Digest\`); verified with"
    echo "  \`POST /api/v1/artifacts/{id}/verifications\`. MB/s = 10^6 bytes per second of curl's total time. Every read,"
    echo "  ours and its reference (SHA-256 in the JVM, PostgreSQL's COPY out, S3Proxy's GET), is the fastest of $READS. Goal"
    echo "  (issue 17): ingest ≥ 0.85× min(openssl, the disk's durable write) on \`filesystem\`, ≥ 0.5× PostgreSQL's own"
    echo "  binary COPY in on \`postgres\`, ≥ 0.7× S3Proxy's own PUT (curl, with the file's SHA-256 as its"
    echo "  \`x-amz-checksum-sha256\`, which S3Proxy checks, as with the service's PUT) on \`s3\`; download and"
    echo "  verification ≥ 0.9×"
    echo "  SHA-256 in the JVM on \`filesystem\`, ≥ 0.8× min(SHA-256 in the JVM, PostgreSQL's own binary COPY out or"
    echo "  S3Proxy's own GET) on \`postgres\` and \`s3\`."
    echo "- Small ingest: \`bench/small-ingest.mjs\`, 16 concurrent clients each doing PUT blob then bind artifact, over"
    echo "  20 incidents; latency per pair; after a warm-up that is not counted, in rounds of $WARMUP_ROUND artifacts until the"
    echo "  JIT compiler took less than a tenth of the service's CPU in a round (at most $WARMUP_MAX_SECONDS s; the notes say"
    echo "  how long each took): on 2 cores the JIT compiler works on this path for its first"
    echo "  20,000 or so artifacts, at up to a third of the service's CPU, so a short warm-up measured mostly the"
    echo "  compiler (docs/operations.md, Sizing);"
    echo "  no new artifact after $SMALL_MAX_SECONDS s. Goal (issue 17): ≥ 1,000 artifacts/s with p99 ≤ 50 ms on"
    echo "  \`filesystem\` and \`postgres\`; pgbench beside them (16 clients, each transaction inserting one 10 KiB"
    echo "  uncompressed text row, $SMALL_COUNT transactions) for scale. \`s3\`: ≥ 0.8× S3Proxy's own PutObject of distinct"
    echo "  10 KiB objects by 16 clients (\`bench/lib/S3SmallRate.java\`: AWS SDK v2 on the Apache client as the service"
    echo "  uses it, 64 connections; after a warm-up of $PEER_WARMUP (at most $PEER_WARMUP_SECONDS s), at most"
    echo "  $SMALL_COUNT, none started after ${WRK_SECONDS} s). Batch upload: ≥ 5× the one-by-one rate of the same"
    echo "  backend, after a warm-up in batches until the compiler settles, as one by one."
    echo "- Small reads: after 3 s of each not counted, \`wrk -t2 -c32 -d${WRK_SECONDS}s --latency\` on the artifact's content, on the same service's"
    echo "  \`/q/health/live\` just before, and on nginx serving the same file (\`sendfile on\`, for scale). Goal:"
    echo "  \`filesystem\` ≥ 0.7× its own \`/q/health/live\`, \`postgres\` and \`s3\` ≥ 0.8× \`filesystem\` in the same"
    echo "  run, and every backend ahead of S3Proxy's own GetObject of the same 10 KiB by 32 clients for ${WRK_SECONDS} s"
    echo "  (\`bench/lib/S3SmallRate.java\`), which is measured only when \`s3\` is in the run."
    echo "- Postmortem, manifest, bundle: an incident built by \`bench/seed-incident.mjs\` (every artifact verified once,"
    echo "  findings proposed, a proposed root cause, 5 actions); the median of $RUNS requests' own time (curl's"
    echo "  \`time_total\`: connect, request, the whole answer; not curl's start) after ${PAGE_WARMUP_SECONDS} s of each not"
    echo "  counted, as the small reads warm their routes (the JIT compiles a page's code over its first renders);"
    echo "  curl fetching nginx's 10 KiB file the same way takes $CURL_FLOOR_MS ms. Goal: postmortem p50 ≤ 25 ms,"
    echo "  bundle p50 ≤ 300 ms, on every backend."
    echo "- Start to ready: from spawning \`java\` to the first 200 of \`/q/health/ready\`, polled every 20 ms by"
    echo "  the shell itself (no process per poll), on the database the backend's first start just migrated, before any"
    echo "  reference or case loads the machine; goal ≤ 1.5 s, median"
    echo "  of $STARTS. Peak RSS: \`VmHWM\` of each service"
    echo "  process before it is stopped; goal ≤ 300 MB with \`-Xmx128m\`."
    if [ "$WITH_S3" = 1 ]; then
        echo "- \`s3\`: the service's s3 backend (AWS SDK v2, path-style) against S3Proxy on https://127.0.0.1:$S3PROXY_PORT,"
        echo "  which keeps its objects as files under bench/work/s3proxy (its filesystem backend): a local"
        echo "  stand-in on the same machine, not AWS S3, so its rows say nothing of network latency or S3's own"
        echo "  throughput. Its goals are ratios to S3Proxy's own PUT and GET where issue 17 sets them so (large ingest,"
        echo "  download and verification, 10 KiB ingest); S3Proxy's own RSS is in the notes, not in the peak RSS row."
    fi
    if [ -s "$NOTES" ]; then
        echo
        echo "Notes from this run:"
        echo
        cat "$NOTES"
    fi
} > "$WORK/latest.md"
cp "$WORK/latest.md" "$OUT"
cat "$OUT"
log "written to $OUT"
[ "$FAILED" = 0 ] || die "some cases failed; see the notes"
