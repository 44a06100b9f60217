#!/usr/bin/env bash
# Where the time goes in one benchmark case: runs the packaged service as bench/run.sh does, records a JFR profile
# while the case runs, and prints the share of CPU samples per layer, then what request threads waited on.
#
#   bench/profile.sh small-read [filesystem|postgres]
#   bench/profile.sh small-ingest postgres
#   bench/profile.sh batch filesystem          # batches of 1,000 10 KiB artifacts, two at a time
#   bench/profile.sh download filesystem        # also: ingest, verification, postmortem, bundle; backend s3 runs
#                                               # against S3Proxy as bench/run.sh does
#
# Needs what bench/run.sh needs, and the jar built (./mvnw package -DskipTests). Port 18484, database
# evidence_bench_profile (dropped at the end, also on failure and Ctrl-C), files under bench/work/profile; JAVA_EXTRA
# adds JVM options, e.g. -Dquarkus.rest.output-buffer-size=1M to try a setting; WARMUP_COUNT (1000) is how many
# artifacts small-ingest and batch send before the recording (the JIT compiler works on the ingest path for its
# first 15,000-20,000: 20000 profiles the steady state);
# BATCH_COUNT (4000) how many artifacts the recorded batch run sends. Share figures are of samples, so they hold on a
# busy machine too; rates printed alongside are not comparable with bench/run.sh's. The service is started and
# stopped, and the database made, by tools/service.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/service.sh
. tools/s3proxy.sh
CASE=${1:?usage: bench/profile.sh small-read|small-ingest|batch|download|ingest|verification|postmortem|bundle [backend]}
BACKEND=${2:-filesystem}
PORT=18484
DB=evidence_bench_profile
WORK=$PWD/bench/work/profile
API=http://127.0.0.1:$PORT/api/v1
SECONDS_RUN=${SECONDS_RUN:-15}
# whatever ends the run: the service and S3Proxy stopped, the database dropped; INT and TERM only exit, so that this
# runs on Ctrl-C and kill too
trap 's3proxy_stop; service_cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rm -rf "$WORK" && mkdir -p "$WORK"
service_db_fresh "$DB"

service_keys "$WORK/keys" # fresh ones each run: $WORK was just emptied
TOKEN=$(KEY="$WORK/keys/jwt.pem" dev/token.sh bench collector,investigator,reviewer,reader)
AUTH="Authorization: Bearer $TOKEN"

S3=()
if [ "$BACKEND" = s3 ]; then # S3Proxy over local files and https, as bench/run.sh runs it (port 18485)
    [ -f target/s3proxy.classpath ] || ./mvnw -q -B test-compile
    s3proxy_tls "$WORK/s3proxy-tls" && s3proxy_start "$WORK/s3proxy.log" 18485 "$WORK/s3proxy" \
        && s3proxy_service_arguments 18485 || { echo "S3Proxy did not start" >&2; exit 1; }
    S3=("${S3PROXY_SERVICE_ARGUMENTS[@]}")
fi
# JFR records from the start, so that its instrumentation is in place before the warm-up: a recording started
# only at the measured run retransformed the JDK's event classes and deoptimised their callers, and the JIT's
# recompiling then took a fifth of the service's CPU in the window. The start's recording is a small ring that the
# measured one replaces.
SERVICE_JVM_OPTIONS="$(service_jvm_options) -XX:StartFlightRecording=name=warm,settings=profile,disk=false,maxsize=4m ${JAVA_EXTRA:-}"
# the caps lifted as bench/run.sh lifts them: without, 16 clients of one token got 503s to retry
service_start "$WORK/service.log" "$PORT" "$DB" "$BACKEND" "$WORK/blobs" "${SERVICE_LIFTED_CAPS[@]}" "${S3[@]}"
PID=$SERVICE_PID
service_await_ready "$PORT" 180 || { tail -n 30 "$WORK/service.log" >&2; echo "the service was not ready" >&2; exit 1; }

json() { curl -sf -o /dev/null -H "$AUTH" -H 'Content-Type: application/json' -d "$2" "$API$1"; }
upload() { curl -sf -o /dev/null -H "$AUTH" -H 'Expect:' -H 'Content-Type: application/octet-stream' -T "$1" "$API/blobs/sha256:$(sha256sum "$1" | cut -d' ' -f1)"; }
bind() { json /workspaces/bench/incidents/BENCH-1/artifacts "{\"name\":\"$1\",\"digest\":\"sha256:$(sha256sum "$2" | cut -d' ' -f1)\",\"mediaType\":\"application/octet-stream\",\"source\":\"bench\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T10:20:00Z\"}"; }
json /workspaces/bench/incidents '{"key":"BENCH-1","title":"Benchmark evidence","severity":"SEV-3"}'
big() { [ -f "$WORK/big.bin" ] || head -c $((512 * 1024 * 1024)) /dev/urandom > "$WORK/big.bin"; }

# each case: a warm-up outside the recording, then the recorded run (run_case)
case $CASE in
    small-read)
        head -c 10240 /dev/urandom > "$WORK/small.bin"; upload "$WORK/small.bin"; bind small "$WORK/small.bin"
        run_case() { wrk -t2 -c32 -d"${SECONDS_RUN}s" -H "$AUTH" "$API/artifacts/artifact:bench:v1:BENCH-1:small/content" | grep -E 'Requests/sec|Latency'; }
        run_case > /dev/null ;;
    small-ingest)
        run_case() { node bench/small-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "bench$RANDOM" \
            --count 3000 --warmup 0 --max-seconds "$SECONDS_RUN" --concurrency 16; echo; }
        node bench/small-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace warm --count "${WARMUP_COUNT:-1000}" \
            --warmup 0 --max-seconds 120 --concurrency 16 > /dev/null ;;
    batch)
        run_case() { node bench/batch-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace "bench$RANDOM" \
            --count "${BATCH_COUNT:-4000}" --batch 1000 --concurrency 2 --work "$WORK/batches"; echo; }
        node bench/batch-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace warm \
            --count "${WARMUP_COUNT:-1000}" --batch 1000 --concurrency 2 --work "$WORK/batches" > /dev/null ;;
    ingest)
        big; upload "$WORK/big.bin"
        run_case() { head -c 100 /dev/urandom >> "$WORK/big.bin"; curl -sS -o /dev/null -w 'PUT %{http_code} %{time_total}s\n' -H "$AUTH" -H 'Expect:' \
            -H 'Content-Type: application/octet-stream' -T "$WORK/big.bin" "$API/blobs/sha256:$(sha256sum "$WORK/big.bin" | cut -d' ' -f1)"; } ;;
    download|verification)
        big; upload "$WORK/big.bin"; bind large "$WORK/big.bin"
        if [ "$CASE" = download ]; then
            run_case() { for _ in 1 2 3; do curl -sS -o /dev/null -w 'GET %{http_code} %{time_total}s\n' -H "$AUTH" "$API/artifacts/artifact:bench:v1:BENCH-1:large/content"; done; }
        else
            run_case() { for _ in 1 2 3; do curl -sS -o /dev/null -w 'verify %{http_code} %{time_total}s\n' -H "$AUTH" -H 'Content-Type: application/json' \
                -d "{\"digest\":\"sha256:$(sha256sum "$WORK/big.bin" | cut -d' ' -f1)\"}" "$API/artifacts/artifact:bench:v1:BENCH-1:large/verifications"; done; }
        fi
        run_case > /dev/null ;;
    postmortem)
        node bench/seed-incident.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace bench --incident PM-1 \
            --artifacts 200 --artifact-size 65536 --findings 100 --timeline 50 > /dev/null
        run_case() { for _ in $(seq 50); do curl -sf -o /dev/null -w '%{time_total}\n' -H "$AUTH" -H 'Accept: text/markdown' \
            "$API/workspaces/bench/incidents/PM-1/postmortem"; done | sort -n | awk '{ v[NR] = $1 } END { print "postmortem p50 " v[int(NR / 2)] * 1000 " ms" }'; }
        run_case > /dev/null ;;
    bundle)
        node bench/seed-incident.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace bench --incident PM-1 \
            --artifacts 200 --artifact-size 65536 --findings 100 --timeline 50 > /dev/null
        run_case() { for _ in $(seq 20); do curl -sf -o /dev/null -w '%{time_total}\n' -H "$AUTH" \
            "$API/workspaces/bench/incidents/PM-1/evidence-bundle"; done | sort -n | awk '{ v[NR] = $1 } END { print "bundle p50 " v[int(NR / 2)] * 1000 " ms" }'; }
        run_case > /dev/null ;;
    *) echo "unknown case $CASE" >&2; exit 2 ;;
esac

# CPU seconds (user + system) of the service and of every PostgreSQL process: JFR sees only the JVM's threads
cpu_of() { awk '{ t += $14 + $15 } END { printf "%.2f", t / 100 }' "$@" 2> /dev/null; }
sys_of() { awk '{ t += $15 } END { printf "%.2f", t / 100 }' "$@" 2> /dev/null; }
postgres_stats() { for p in $(pgrep -x postgres); do echo "/proc/$p/stat"; done; }
# every CPU's busy time (user, nice, system, irq, softirq, steal) from /proc/stat: what the machine spent, the
# benchmark's clients and the kernel's threads included
machine_busy() { awk '/^cpu / { printf "%.2f", ($2 + $3 + $4 + $7 + $8 + $9) / 100 }' /proc/stat; }
# since BEFORE NOW: how much a counter grew from BEFORE to NOW, to two decimals
since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
jcmd "$PID" JFR.start name=profile settings=profile filename="$WORK/profile.jfr" > /dev/null
jcmd "$PID" JFR.stop name=warm > /dev/null
# ASYNC_PROFILER=/path/libasyncProfiler.so (Maven Central: tools.profiler:async-profiler:4.2:jar:linux-x64) adds
# samples of every thread, the kernel, the JIT compiler and the collector included: collapsed stacks per thread in
# $WORK/cpu.collapsed; ASYNC_EVENT=wall samples waiting threads too (default cpu)
[ -z "${ASYNC_PROFILER:-}" ] \
    || jcmd "$PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"start,event=${ASYNC_EVENT:-cpu},interval=1ms,threads\"" > /dev/null
cpu_service=$(cpu_of "/proc/$PID/stat"); sys_service=$(sys_of "/proc/$PID/stat"); cpu_pg=$(cpu_of $(postgres_stats))
cpu_jit=$(cpu_of /dev/null $(service_compiler_stats "$PID"))
cpu_s3=$([ -z "$S3PROXY_PID" ] || cpu_of "/proc/$S3PROXY_PID/stat")
busy=$(machine_busy)
t0=$(date +%s.%N)
run_case | tee "$WORK/run.txt"
wall=$(since "$t0" "$(date +%s.%N)")
busy=$(since "$busy" "$(machine_busy)")
cpu_service=$(since "$cpu_service" "$(cpu_of "/proc/$PID/stat")")
sys_service=$(since "$sys_service" "$(sys_of "/proc/$PID/stat")")
cpu_jit=$(since "$cpu_jit" "$(cpu_of /dev/null $(service_compiler_stats "$PID"))")
cpu_pg=$(since "$cpu_pg" "$(cpu_of $(postgres_stats))")
jcmd "$PID" JFR.stop name=profile > /dev/null
if [ -n "${ASYNC_PROFILER:-}" ]; then
    # the options quoted inside: jcmd would read "event=cpu" as an option of its own
    jcmd "$PID" JVMTI.agent_load "$ASYNC_PROFILER" "\"stop,file=$WORK/cpu.collapsed,collapsed\"" > /dev/null
    echo "async-profiler: the hottest frames (self), of every thread"
    awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); self[f[k]] += n; all += n }
         END { for (x in self) printf "%6.1f%%  %s\n", 100 * self[x] / all, x }' "$WORK/cpu.collapsed" \
        | sort -rn | awk 'NR <= 15' # not head: under pipefail, sort's SIGPIPE ended the script
fi
echo "during the recorded run: ${wall} s wall; CPU: the service ${cpu_service} s (${sys_service} s of it in the kernel, ${cpu_jit} s in the JIT compiler's threads), PostgreSQL ${cpu_pg} s (all its processes; exited ones not counted)"
[ -z "$S3PROXY_PID" ] || echo "S3Proxy (its own JVM): $(since "$cpu_s3" "$(cpu_of "/proc/$S3PROXY_PID/stat")") s of CPU"
cores=$(nproc)
echo "the machine: ${busy} s of CPU busy out of ${cores} × ${wall} s; the rest (the benchmark's clients, S3Proxy if it runs, the kernel's threads) $(awk -v b="$busy" -v s="$cpu_service" -v p="$cpu_pg" 'BEGIN { printf "%.2f", b - s - p }') s"
# artifacts the run stored (small-ingest, batch): the CPU each cost the service and PostgreSQL, and the rate the
# machine's cores would allow them if nothing but CPU bounded it and nothing else ran (the clients' CPU, which
# includes making the documents, left aside)
items=$(jq -nrR '[inputs | fromjson? | objects | .done // empty] | first // empty' "$WORK/run.txt")
if [ -n "$items" ] && [ "$items" -gt 0 ]; then
    awk -v n="$items" -v s="$cpu_service" -v p="$cpu_pg" -v c="$cores" 'BEGIN {
        printf "per artifact (%d): the service %.2f ms of CPU, PostgreSQL %.2f ms, together %.2f ms: ", n, 1000 * s / n, 1000 * p / n, 1000 * (s + p) / n
        printf "%d cores allow them at most %.0f artifacts/s\n", c, c * n / (s + p) }'
fi
echo "(the samples below cover Java code only: CPU in the kernel, in native copies and in GC and JIT threads is not in them)"
echo "JFR recording: $WORK/profile.jfr (jfr print / JDK Mission Control)"
jfr print --events jdk.ExecutionSample --stack-depth 64 "$WORK/profile.jfr" > "$WORK/samples.txt"
# time JFR's samples do not see: the collector's pauses and the JIT compiler's work
jfr print --events jdk.GarbageCollection,jdk.Compilation "$WORK/profile.jfr" | awk '
    /^jdk\.GarbageCollection/ { k = "gc" } /^jdk\.Compilation/ { k = "jit" }
    /^  duration = / { v = $3; u = $4; if (u == "s") v *= 1000; if (u == "us") v /= 1000; if (u == "ns") v /= 1e6; t[k] += v; n[k]++ }
    END { printf "garbage collection: %d collections, %.2f s; JIT compilations: %d, %.2f s\n", n["gc"], t["gc"] / 1000, n["jit"], t["jit"] / 1000 }'
jfr print --events jdk.ThreadPark,jdk.FileForce,jdk.SocketRead,jdk.JavaMonitorEnter --stack-depth 64 "$WORK/profile.jfr" > "$WORK/waits.txt"
node bench/lib/profile-summary.mjs "$WORK/samples.txt" "$WORK/waits.txt"
