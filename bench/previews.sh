#!/usr/bin/env bash
# What showing the evidence costs: the server-side time of the demo's artifact pages (each drawing its preview:
# Grafana charts, the diff, the Kubernetes tables and charts, the unavailable notice) and of its incident page (the
# postmortem with its evidence charts), beside references measured in the same run: the same artifact's metadata
# JSON (no preview) and nginx serving the rendered page as a static file. Then a 1 GiB artifact's page, to show that a
# preview reads a bounded prefix whatever the blob's size. Prints one Markdown table and writes it to
# bench/results/previews.md.
#
#   bench/previews.sh                 # build the jar, then measure (about 3 minutes on 2 cores)
#   SKIP_BUILD=1 bench/previews.sh    # with target/quarkus-app already built
#
# Settings (environment): RUNS (20 timed requests per page, after WARMUP 5), BIG_MIB (1024), PORT (18491),
# NGINX_PORT (18492), SKIP_BUILD (0), OUT (bench/results/previews.md). Times are curl's time_total over one
# keep-alive connection to 127.0.0.1, so they are the server's time plus a loopback round trip.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
. tools/service.sh

RUNS=${RUNS:-20}
WARMUP=${WARMUP:-5}
BIG_MIB=${BIG_MIB:-1024}
PORT=${PORT:-18491}
NGINX_PORT=${NGINX_PORT:-18492}
SKIP_BUILD=${SKIP_BUILD:-0}
OUT=${OUT:-bench/results/previews.md}
WORK=$ROOT/bench/work-previews
BASE=http://127.0.0.1:$PORT
WS=demo
INCIDENT=INC-1423

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
die() { log "FAILED: $*"; exit 1; }

for tool in curl jq nginx openssl; do
    command -v "$tool" > /dev/null || PATH=$PATH:/usr/sbin
    command -v "$tool" > /dev/null || die "needs $tool (apt-get install $tool)"
done

rm -rf "$WORK"
mkdir -p "$WORK/www" "$WORK/nginx/tmp"
cleanup() {
    service_cleanup
    [ ! -f "$WORK/nginx/nginx.pid" ] || kill "$(cat "$WORK/nginx/nginx.pid")" 2> /dev/null || true
    rm -rf "$WORK/blobs" "$WORK/big.txt"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "$SKIP_BUILD" != 1 ]; then
    log "building the jar"
    ./mvnw -q package -DskipTests -DskipITs > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; die "build"; }
fi

service_keys "$WORK/keys"
service_db_fresh evidence_bench_previews
log "starting the service with the demo loaded (-Xmx128m, filesystem backend)"
service_start "$WORK/service.log" "$PORT" evidence_bench_previews filesystem "$WORK/blobs" \
    -Devidence.demo.load=true -Devidence.public-read-workspaces=$WS -Devidence.http.public-url=$BASE
service_await_ready "$PORT" 180 || { tail -40 "$WORK/service.log"; die "the service did not become ready"; }
TOKEN=$(KEY="$WORK/keys/jwt.pem" dev/token.sh bench collector,investigator,reviewer,reader)

# times URL: RUNS timed requests after WARMUP untimed ones, on one keep-alive connection; prints p50 and p90 in ms
times() {
    local url=$1 args=() i
    for i in $(seq 1 $((WARMUP + RUNS))); do args+=(-o /dev/null "$url"); done
    curl -s -w '%{http_code} %{time_total}\n' "${args[@]}" > "$WORK/times.txt"
    awk '$1 != 200 { bad = 1 } END { exit bad }' "$WORK/times.txt" || die "$url answered $(sort -u "$WORK/times.txt" | cut -d' ' -f1 | tr '\n' ' ')"
    tail -n "$RUNS" "$WORK/times.txt" | awk '{ print $2 * 1000 }' | sort -n | awk '
        { v[NR] = $1 } END { printf "%.1f %.1f\n", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)] }'
}
bytes() { curl -s -o /dev/null -w '%{size_download}' "$1"; }

{
    [ "$(id -u)" != 0 ] || echo "user root;"
    cat << EOF
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    keepalive_requests 100000;
    client_body_temp_path $WORK/nginx/tmp/body;
    proxy_temp_path $WORK/nginx/tmp/proxy;
    fastcgi_temp_path $WORK/nginx/tmp/fastcgi;
    uwsgi_temp_path $WORK/nginx/tmp/uwsgi;
    scgi_temp_path $WORK/nginx/tmp/scgi;
    types { text/html html; }
    server { listen 127.0.0.1:$NGINX_PORT; root $WORK/www; }
}
EOF
} > "$WORK/nginx/nginx.conf"
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log"

ROWS=$WORK/rows.md
: > "$ROWS"
for name in grafana-checkout github-deployment kubernetes-workers intercom-readiness; do
    id=artifact:$WS:v1:$INCIDENT:$name
    page=$BASE/artifacts/$id
    log "page of $name"
    read -r p50 p90 < <(times "$page")
    curl -s -o "$WORK/www/$name.html" "$page"
    read -r json50 _ < <(times "$BASE/api/v1/artifacts/$id")
    read -r nginx50 _ < <(times "http://127.0.0.1:$NGINX_PORT/$name.html")
    printf '| artifact page, %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$(bytes "$page")" "$p50" "$p90" \
        "$json50" "$nginx50" "$(awk -v a="$p50" -v b="$json50" 'BEGIN { printf "%.1f×", a / b }')" >> "$ROWS"
done
log "incident page"
page=$BASE/workspaces/$WS/incidents/$INCIDENT
read -r p50 p90 < <(times "$page")
curl -s -o "$WORK/www/incident.html" "$page"
read -r json50 _ < <(times "$BASE/api/v1/workspaces/$WS/incidents/$INCIDENT/postmortem")
read -r nginx50 _ < <(times "http://127.0.0.1:$NGINX_PORT/incident.html")
printf '| incident page, %s (reference: the API postmortem as Markdown) | %s | %s | %s | %s | %s | %s |\n' \
    "$INCIDENT" "$(bytes "$page")" "$p50" "$p90" "$json50" "$nginx50" \
    "$(awk -v a="$p50" -v b="$json50" 'BEGIN { printf "%.1f×", a / b }')" >> "$ROWS"

log "a $BIG_MIB MiB text artifact"
key=BIG-$(( $(date +%s) % 1000000000 ))
curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"key\":\"$key\",\"title\":\"A large capture\",\"severity\":\"SEV-3\",\"status\":\"investigating\"}" \
    "$BASE/api/v1/workspaces/$WS/incidents" || die "incident"
# yes ends by SIGPIPE, which pipefail would count as the pipeline failing
head -c $((BIG_MIB * 1024 * 1024)) < <(yes 'worker lease held 31.2 s for batch 8812 (500 deliveries); delivery timeout, requeue') \
    > "$WORK/big.txt"
digest=$(curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/octet-stream' \
    -X POST -T "$WORK/big.txt" "$BASE/api/v1/blobs" | jq -r .digest)
rm -f "$WORK/big.txt"
curl -sf -o /dev/null -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    -d "{\"name\":\"worker-log\",\"digest\":\"$digest\",\"mediaType\":\"text/plain\",\"source\":\"kubernetes\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T10:20:00Z\"}" \
    "$BASE/api/v1/workspaces/$WS/incidents/$key/artifacts" || die "bind"
id=artifact:$WS:v1:$key:worker-log
page=$BASE/artifacts/$id
read -r p50 p90 < <(times "$page")
read -r json50 _ < <(times "$BASE/api/v1/artifacts/$id")
curl -s -o "$WORK/www/big.html" "$page"
read -r nginx50 _ < <(times "http://127.0.0.1:$NGINX_PORT/big.html")
printf '| artifact page, %s MiB text (preview of its first 2 MiB) | %s | %s | %s | %s | %s | %s |\n' "$BIG_MIB" \
    "$(bytes "$page")" "$p50" "$p90" "$json50" "$nginx50" \
    "$(awk -v a="$p50" -v b="$json50" 'BEGIN { printf "%.1f×", a / b }')" >> "$ROWS"
grep -q 'Showing the first 2.0 MiB' "$WORK/www/big.html" || die "the large page does not say it shows a prefix"

{
    echo "# Previews: what showing the evidence costs"
    echo
    echo "\`bench/previews.sh\` on $(date -u +%Y-%m-%d) at $(date -u +%H:%M) UTC, commit $(git rev-parse --short HEAD)," \
        "$(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg) at the end; the service with -Xmx128m," \
        "the filesystem backend, the demo loaded; $RUNS timed requests per row after $WARMUP untimed ones, one" \
        "keep-alive connection, curl's time_total (the server's time plus a loopback round trip)."
    echo
    echo "| page | HTML bytes | p50 ms | p90 ms | reference: its metadata JSON, p50 ms | reference: nginx serving the same HTML, p50 ms | page / JSON |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    cat "$ROWS"
} | tee "$OUT"
