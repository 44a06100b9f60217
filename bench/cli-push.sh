#!/usr/bin/env bash
# Push throughput of the evidence CLI beside curl doing the same uploads, in one run against one packaged service
# (filesystem backend, -Xmx128m, as tools/service.sh runs it): 1 GiB from a file and from standard input, and 1,000
# small files sequentially and N at a time. curl does what a person without the CLI does for each file: sha256sum,
# PUT /api/v1/blobs/{digest} with the declared digest, POST the bind. Every case pushes bytes of its own, so no upload
# is answered "already stored". Prints one Markdown table and writes it to bench/results/cli-push.md.
#
#   bench/cli-push.sh                        # builds what is missing: the service jar and the CLI jar
#   SIZE_MIB=256 SMALL_COUNT=200 bench/cli-push.sh   # a quick look
#
# Settings (environment): SIZE_MIB (1024), SMALL_COUNT (1000), SMALL_BYTES (2048), PARALLEL (4), CLI_HEAP (64m),
# PORT (18491), KEEP_DATA (0), OUT (bench/results/cli-push.md). Needs curl, jq, openssl and sha256sum; PostgreSQL
# must accept user postgres without a password, as for the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. tools/service.sh

SIZE_MIB=${SIZE_MIB:-1024}
SMALL_COUNT=${SMALL_COUNT:-1000}
SMALL_BYTES=${SMALL_BYTES:-2048}
PARALLEL=${PARALLEL:-4}
CLI_HEAP=${CLI_HEAP:-64m}
PORT=${PORT:-18491}
KEEP_DATA=${KEEP_DATA:-0}
OUT=${OUT:-bench/results/cli-push.md}
SERVICE_KEEP_DATABASES=$KEEP_DATA
WORK=$ROOT/bench/work/cli-push
API=http://127.0.0.1:$PORT/api/v1
WS=bench-cli
DATABASE=evidence_bench_cli

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

cleanup() {
    service_cleanup
    [ "$KEEP_DATA" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for tool in curl jq openssl sha256sum; do
    command -v "$tool" > /dev/null || { echo "bench/cli-push.sh needs $tool" >&2; exit 2; }
done
[ -f target/quarkus-app/quarkus-run.jar ] || ./mvnw -q package -DskipTests
[ -f cli/target/evidence-cli.jar ] || ./mvnw -q -f cli/pom.xml package -DskipTests

rm -rf "$WORK" && mkdir -p "$WORK"
service_keys "$WORK/keys"
service_db_fresh "$DATABASE"
service_start "$WORK/service.log" "$PORT" "$DATABASE" filesystem "$WORK/blobs"
service_await_ready "$PORT" 180 || { echo "the service did not start; see $WORK/service.log" >&2; exit 1; }

TOKEN=$(KEY=$SERVICE_KEYS/jwt.pem dev/token.sh bench collector,investigator,reader "$WS")
printf '%s\n' "$TOKEN" > "$WORK/token"
export EVIDENCE_URL=http://127.0.0.1:$PORT EVIDENCE_WORKSPACE=$WS EVIDENCE_TOKEN_FILE=$WORK/token
export XDG_STATE_HOME=$WORK/state XDG_CONFIG_HOME=$WORK/config JAVA_OPTS="-Xmx$CLI_HEAP"
evidence() { cli/bin/evidence "$@"; }

incident() {
    curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
        -X POST "$API/workspaces/$WS/incidents" -d '{"key": "'"$1"'", "title": "CLI push benchmark",
        "severity": "SEV-4", "status": "investigating", "services": ["bench"], "regions": ["local"],
        "impactStart": "2026-06-18T09:00:00Z", "commander": "bench", "responders": [], "reviewOwner": "bench"}'
}

# curl_push FILE INCIDENT NAME: what the README's walk-through does for one file (-T streams the file; --data-binary
# would read it into memory first, which fails for 1 GiB)
curl_push() {
    local digest
    digest=sha256:$(sha256sum "$1" | cut -d' ' -f1)
    curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/octet-stream' \
        -H "Idempotency-Key: \"$(openssl rand -hex 16)\"" -T "$1" "$API/blobs/$digest"
    curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
        -H "Idempotency-Key: \"$(openssl rand -hex 16)\"" -X POST "$API/workspaces/$WS/incidents/$2/artifacts" \
        -d '{"name": "'"$3"'", "digest": "'"$digest"'", "mediaType": "application/octet-stream", "source": "bench",
             "kind": "snapshot", "capturedAt": "2026-06-18T10:00:00Z"}'
}
export -f curl_push
export TOKEN API WS

# small_set DIR: SMALL_COUNT files of SMALL_BYTES random bytes each
small_set() {
    mkdir -p "$1"
    for i in $(seq -w 1 "$SMALL_COUNT"); do head -c "$SMALL_BYTES" /dev/urandom > "$1/f$i.bin"; done
}

ROWS=()
# row CASE TOOL SECONDS UNIT_AMOUNT UNIT
row() {
    ROWS+=("| $1 | $2 | $(printf '%.1f' "$3") | $(awk -v a="$4" -v s="$3" 'BEGIN { printf "%.1f", a / s }') $5 |")
}
seconds_since() { awk -v s="$1" -v e="$(date +%s%N)" 'BEGIN { printf "%.3f", (e - s) / 1e9 }'; }

log "making the bytes: 3 × $SIZE_MIB MiB and 5 × $SMALL_COUNT small files"
for name in curl file stdin; do head -c "$((SIZE_MIB * 1024 * 1024))" /dev/urandom > "$WORK/large-$name.bin"; done
for name in curl-seq curl-par cli-seq cli-par cli-batch; do small_set "$WORK/small-$name"; done
for key in INC-1 INC-2 INC-3 INC-4 INC-5 INC-6 INC-7 INC-8; do incident "$key"; done
evidence log check > /dev/null 2>&1    # the witness's first use, outside the timings

log "1 GiB: curl"
start=$(date +%s%N); curl_push "$WORK/large-curl.bin" INC-1 large; row "$SIZE_MIB MiB" "sha256sum + curl PUT + curl bind" "$(seconds_since "$start")" "$SIZE_MIB" MiB/s
log "1 GiB: evidence push FILE"
start=$(date +%s%N); evidence push "$WORK/large-file.bin" -i INC-2 --source bench > /dev/null
row "$SIZE_MIB MiB" "evidence push FILE (-Xmx$CLI_HEAP)" "$(seconds_since "$start")" "$SIZE_MIB" MiB/s
log "1 GiB: evidence push - (standard input)"
start=$(date +%s%N); evidence push - --name large -i INC-3 --source bench < "$WORK/large-stdin.bin" > /dev/null
row "$SIZE_MIB MiB" "evidence push - from stdin (-Xmx$CLI_HEAP)" "$(seconds_since "$start")" "$SIZE_MIB" MiB/s

log "$SMALL_COUNT small files: curl, one after the other"
start=$(date +%s%N)
for file in "$WORK"/small-curl-seq/*.bin; do curl_push "$file" INC-4 "$(basename "$file" .bin)"; done
row "$SMALL_COUNT × $SMALL_BYTES B" "sha256sum + curl, sequential" "$(seconds_since "$start")" "$SMALL_COUNT" files/s
log "$SMALL_COUNT small files: curl, $PARALLEL at a time"
start=$(date +%s%N)
ls "$WORK"/small-curl-par/*.bin | xargs -P "$PARALLEL" -I{} bash -c 'curl_push "$1" INC-5 "$(basename "$1" .bin)"' _ {}
row "$SMALL_COUNT × $SMALL_BYTES B" "sha256sum + curl, $PARALLEL at a time (xargs -P)" "$(seconds_since "$start")" "$SMALL_COUNT" files/s
log "$SMALL_COUNT small files: one evidence push, one file after the other (--no-batch)"
start=$(date +%s%N); evidence push "$WORK"/small-cli-seq/*.bin -i INC-6 --source bench --no-batch > /dev/null
row "$SMALL_COUNT × $SMALL_BYTES B" "one evidence push --no-batch, sequential" "$(seconds_since "$start")" "$SMALL_COUNT" files/s
log "$SMALL_COUNT small files: one evidence push --no-batch --parallel $PARALLEL"
start=$(date +%s%N); evidence push "$WORK"/small-cli-par/*.bin -i INC-7 --source bench --no-batch --parallel "$PARALLEL" > /dev/null
row "$SMALL_COUNT × $SMALL_BYTES B" "one evidence push --no-batch --parallel $PARALLEL" "$(seconds_since "$start")" "$SMALL_COUNT" files/s
log "$SMALL_COUNT small files: one evidence push, one batch upload"
start=$(date +%s%N); evidence push "$WORK"/small-cli-batch/*.bin -i INC-8 --source bench > /dev/null
row "$SMALL_COUNT × $SMALL_BYTES B" "one evidence push (one batch upload)" "$(seconds_since "$start")" "$SMALL_COUNT" files/s

for key in INC-7 INC-8; do
    count=$(curl -sf -H "Authorization: Bearer $TOKEN" "$API/workspaces/$WS/incidents/$key/artifacts" | jq '.items | length')
    [ "$count" = "$SMALL_COUNT" ] || { echo "$key has $count artifacts, not $SMALL_COUNT" >&2; exit 1; }
done

{
    echo "# evidence push beside curl ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, Java $(java -version 2>&1 | head -n 1 | cut -d'"' -f2))"
    echo
    echo "One packaged service (filesystem backend, -Xmx${SERVICE_HEAP:-128m}) on this machine; the CLI is one JVM per"
    echo "command (its start included), curl one process per request. bench/cli-push.sh wrote this."
    echo
    echo "| case | client | seconds | rate |"
    echo "| --- | --- | --- | --- |"
    printf '%s\n' "${ROWS[@]}"
} | tee "$OUT"
