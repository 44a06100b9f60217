#!/usr/bin/env bash
# Where the time goes in one benchmark case: runs the packaged service as bench/run.sh does, records a JFR profile
# while the case runs, and prints the share of CPU samples per layer, then what request threads waited on.
#
#   bench/profile.sh small-read [filesystem|postgres]
#   bench/profile.sh small-ingest postgres
#   bench/profile.sh download filesystem        # also: ingest, verification, postmortem
#
# Needs what bench/run.sh needs, and the jar built (./mvnw package -DskipTests). Port 18484, database
# evidence_bench_profile (dropped at the end), files under bench/work/profile; JAVA_EXTRA adds JVM options, e.g.
# -Dquarkus.rest.output-buffer-size=1M to try a setting. Share figures are of samples, so
# they hold on a busy machine too; rates printed alongside are not comparable with bench/run.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
CASE=${1:?usage: bench/profile.sh small-read|small-ingest|download|ingest|verification|postmortem [backend]}
BACKEND=${2:-filesystem}
PORT=18484
DB=evidence_bench_profile
WORK=$PWD/bench/work/profile
API=http://127.0.0.1:$PORT/api/v1
SECONDS_RUN=${SECONDS_RUN:-15}
rm -rf "$WORK" && mkdir -p "$WORK/keys"
psql_q() { psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -U postgres "$@"; }
psql_q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" 2> /dev/null

openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/keys/jwt.pem" 2> /dev/null
openssl pkey -in "$WORK/keys/jwt.pem" -pubout -out "$WORK/keys/jwt-public.pem"
openssl genpkey -algorithm ed25519 -out "$WORK/keys/audit.pem"
TOKEN=$(KEY="$WORK/keys/jwt.pem" dev/token.sh bench collector,investigator,reviewer,reader)
AUTH="Authorization: Bearer $TOKEN"

(cd target/quarkus-app && exec java -Xmx128m -XX:+UseSerialGC -XX:SharedArchiveFile=app-cds.jsa ${JAVA_EXTRA:-} \
    -Dquarkus.http.port=$PORT -Dquarkus.datasource.jdbc.url="jdbc:postgresql://127.0.0.1:5432/$DB" \
    -Dquarkus.datasource.username=postgres -Devidence.storage.backend="$BACKEND" \
    -Devidence.storage.filesystem.path="$WORK/blobs" -Dmp.jwt.verify.publickey.location="$WORK/keys/jwt-public.pem" \
    -DEVIDENCE_JWT_ISSUER=https://evidence-store.dev/dev-issuer -Devidence.audit.signing-key-location="$WORK/keys/audit.pem" \
    -jar quarkus-run.jar > "$WORK/service.log" 2>&1) &
PID=$!
trap 'kill $PID 2> /dev/null; psql_q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" 2> /dev/null' EXIT
until curl -sf -o /dev/null "http://127.0.0.1:$PORT/q/health/ready"; do sleep 0.1; done

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
        node bench/small-ingest.mjs --base "http://127.0.0.1:$PORT" --token "$TOKEN" --workspace warm --count 1000 \
            --warmup 0 --max-seconds 30 --concurrency 16 > /dev/null ;;
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
    *) echo "unknown case $CASE" >&2; exit 2 ;;
esac

jcmd "$PID" JFR.start name=profile settings=profile filename="$WORK/profile.jfr" > /dev/null
run_case
jcmd "$PID" JFR.stop name=profile > /dev/null
echo "JFR recording: $WORK/profile.jfr (jfr print / JDK Mission Control)"
jfr print --events jdk.ExecutionSample --stack-depth 64 "$WORK/profile.jfr" > "$WORK/samples.txt"
jfr print --events jdk.ThreadPark,jdk.FileForce,jdk.SocketRead,jdk.JavaMonitorEnter --stack-depth 64 "$WORK/profile.jfr" > "$WORK/waits.txt"
node bench/lib/profile-summary.mjs "$WORK/samples.txt" "$WORK/waits.txt"
