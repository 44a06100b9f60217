#!/usr/bin/env bash
# Streams a 1 GiB blob up and down through each storage backend with -Xmx128m, beside `openssl dgst -sha256` on
# the same file in the same run, and reports MB/s, the ratio to openssl, and the service's peak RSS.
#
#   bench/large-blobs.sh            # 1 GiB
#   SIZE_MIB=256 bench/large-blobs.sh
set -euo pipefail
cd "$(dirname "$0")/.."

SIZE_MIB=${SIZE_MIB:-1024}
PORT=${PORT:-18080}
PGHOST=${PGHOST:-127.0.0.1}
DB=evidence_bench
WORK=bench/work
OUT=bench/results/large-blobs.md
mkdir -p "$WORK" bench/results

[ -f target/quarkus-app/quarkus-run.jar ] || ./mvnw -q -B package -DskipTests

# production refuses the published dev keys: the benchmark makes throwaway ones
KEYS="$WORK/keys"
mkdir -p "$KEYS"
[ -f "$KEYS/jwt.pem" ] || openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$KEYS/jwt.pem" 2>/dev/null
openssl pkey -in "$KEYS/jwt.pem" -pubout -out "$KEYS/jwt-public.pem"
[ -f "$KEYS/audit.pem" ] || openssl genpkey -algorithm ed25519 -out "$KEYS/audit.pem"
TOKEN=$(KEY="$KEYS/jwt.pem" dev/token.sh bench collector,reader)

FILE="$WORK/blob-${SIZE_MIB}MiB.bin"
if [ ! -f "$FILE" ] || [ "$(stat -c %s "$FILE")" -ne $((SIZE_MIB * 1048576)) ]; then
    echo "writing $SIZE_MIB MiB of random bytes to $FILE" >&2
    head -c $((SIZE_MIB * 1048576)) /dev/urandom > "$FILE"
fi
BYTES=$(stat -c %s "$FILE")
mb_per_s() { awk -v b="$BYTES" -v s="$1" 'BEGIN { printf "%.0f", b / 1e6 / s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

start=$(date +%s.%N)
HEX=$(openssl dgst -sha256 -r "$FILE" | cut -d' ' -f1)
openssl_s=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
OPENSSL=$(mb_per_s "$openssl_s")
DIGEST="sha256:$HEX"

run_backend() {
    local backend=$1
    psql -q -h "$PGHOST" -U postgres -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
    rm -rf "$WORK/blobs"
    java -Xmx128m -Dquarkus.http.port="$PORT" \
        -Dquarkus.datasource.jdbc.url="jdbc:postgresql://$PGHOST:5432/$DB" -Dquarkus.datasource.username=postgres \
        -Devidence.storage.backend="$backend" -Devidence.storage.filesystem.path="$WORK/blobs" \
        -Dmp.jwt.verify.publickey.location="$KEYS/jwt-public.pem" \
        -DEVIDENCE_JWT_ISSUER=https://evidence-store.dev/dev-issuer \
        -Devidence.audit.signing-key-location="$KEYS/audit.pem" \
        -Dquarkus.log.level=WARN -jar target/quarkus-app/quarkus-run.jar > "$WORK/service-$backend.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$PORT/q/health/ready" > /dev/null && break
        sleep 0.2
    done
    local up down status
    up=$(curl -sS -o "$WORK/put.json" -w '%{http_code} %{time_total}' -T "$FILE" -H 'Content-Type: application/octet-stream' \
        -H "Authorization: Bearer $TOKEN" \
        "http://127.0.0.1:$PORT/api/v1/blobs/$DIGEST")
    status=${up% *}
    [ "$status" = 201 ] || { echo "upload to $backend answered $status: $(cat "$WORK/put.json")" >&2; kill "$pid"; exit 1; }
    down=$(curl -sS -o "$WORK/download.bin" -w '%{time_total}' -H "Authorization: Bearer $TOKEN" \
        "http://127.0.0.1:$PORT/api/v1/blobs/$DIGEST")
    local served
    served=$(openssl dgst -sha256 -r "$WORK/download.bin" | cut -d' ' -f1)
    rm -f "$WORK/download.bin"
    [ "$served" = "$HEX" ] || { echo "download from $backend has digest $served" >&2; kill "$pid"; exit 1; }
    local rss
    rss=$(awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    local up_mbs down_mbs
    up_mbs=$(mb_per_s "${up#* }")
    down_mbs=$(mb_per_s "$down")
    echo "| upload $SIZE_MIB MiB, \`$backend\` | $up_mbs MB/s | $OPENSSL MB/s | $(ratio "$up_mbs" "$OPENSSL")× | $rss MB |"
    echo "| download $SIZE_MIB MiB, \`$backend\` | $down_mbs MB/s | $OPENSSL MB/s | $(ratio "$down_mbs" "$OPENSSL")× | $rss MB |"
}

{
    echo "Large blobs, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, java -Xmx128m, reference: openssl dgst -sha256 on the same file"
    echo
    echo "| case | ours | reference (same run) | ratio | service peak RSS |"
    echo "| --- | --- | --- | --- | --- |"
    run_backend postgres
    run_backend filesystem
} | tee "$OUT"
rm -rf "$WORK/blobs"
