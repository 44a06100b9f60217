#!/usr/bin/env bash
# The audit log at scale: ENTRIES pending entries (10^6) are sequenced by the packaged service into the hash chain
# and the Merkle tree, then inclusion and consistency proofs are served against the tree of that size and the whole
# log is re-verified. Each figure stands beside a reference measured in the same run: the same rows inserted into a
# plain table by one statement, pgbench inserting one such row per transaction (16 clients), and the service's own
# cheapest request (GET /q/health/live) for proof latency. Prints a Markdown table, also written to OUT.
#
#   bench/audit-log.sh                      # builds the jar first
#   SKIP_BUILD=1 ENTRIES=100000 bench/audit-log.sh
#
# Settings (environment): ENTRIES (1000000), SKIP_BUILD (0), PORT (18491), RUNS (30, hyperfine runs per request),
# OUT (bench/results/audit-log.md), PGHOST, PGPORT (as tools/service.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/service.sh

ENTRIES=${ENTRIES:-1000000}
PORT=${PORT:-18491}
RUNS=${RUNS:-30}
OUT=${OUT:-bench/results/audit-log.md}
WORK=bench/work/audit-log
DB=evidence_bench_audit
API=http://127.0.0.1:$PORT/api/v1

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }
psql_db() { service_psql -d "$DB" -qAt "$@"; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
rate() { awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.0f", n * 1000 / ms }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

trap service_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
PATH=$PATH:$(dirname "$(ls /usr/lib/postgresql/*/bin/pgbench 2> /dev/null | sort -V | tail -n 1)")
missing=()
for tool in hyperfine jq curl pgbench; do command -v "$tool" > /dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
    missing=("${missing[@]/#pgbench/postgresql-contrib}")
    log "installing ${missing[*]}"
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi
mkdir -p "$WORK" "$(dirname "$OUT")"
[ "${SKIP_BUILD:-0}" = 1 ] || ./mvnw -B -q package -DskipTests -Dexec.skip
service_keys "$WORK/keys"
TOKEN=$(KEY="$WORK/keys/jwt.pem" dev/token.sh bench reader)
service_db_fresh "$DB"
: > "$WORK/service.log"
service_start "$WORK/service.log" "$PORT" "$DB" postgres "$WORK/blobs"
service_await_ready "$PORT" 180 || { log "the service did not start; see $WORK/service.log"; exit 1; }

# what every entry says: a write of its own, as the API writes them
ROWS="SELECT now(), 'bench', 'bench', 'POST', '/api/v1/workspaces/bench/incidents/B-' || i,
      '/api/v1/workspaces/bench/incidents/B-' || i, 201, NULL FROM generate_series(1, $ENTRIES) AS i"
COLUMNS="(at, actor, workspace, method, path, target, status, problem)"

log "reference: $ENTRIES rows into a plain table, one statement"
psql_db -c "CREATE TABLE bench_plain (LIKE audit_pending INCLUDING ALL)"
start=$(now_ms)
psql_db -c "INSERT INTO bench_plain $COLUMNS $ROWS"
plain_ms=$(( $(now_ms) - start ))

log "reference: pgbench, one such row per transaction, 16 clients"
echo "INSERT INTO bench_plain $COLUMNS VALUES (now(), 'bench', 'bench', 'POST', '/p', '/p', 201, NULL);" \
    > "$WORK/insert.sql"
pgbench -n -h "${PGHOST:-127.0.0.1}" -p "${PGPORT:-5432}" -U postgres -c 16 -j 2 -t 2000 -f "$WORK/insert.sql" "$DB" \
    > "$WORK/pgbench.txt" 2>&1
pgbench_tps=$(awk '/^tps/ { printf "%.0f", $3 }' "$WORK/pgbench.txt")

log "writing $ENTRIES pending entries, as the writes' own transactions would"
start=$(now_ms)
psql_db -c "INSERT INTO audit_pending $COLUMNS $ROWS"
pending_ms=$(( $(now_ms) - start ))

log "the sequencer numbers them, chains them and grows the tree"
start=$(now_ms)
while [ "$(psql_db -c 'SELECT count(*) FROM audit_pending')" != 0 ]; do sleep 1; done
sequenced_ms=$(( $(now_ms) - start ))
size=$(psql_db -c "SELECT count(*) FROM audit_tree_node WHERE level = 0")
nodes=$(psql_db -c "SELECT count(*) FROM audit_tree_node")
[ "$size" = "$ENTRIES" ] || { log "the tree has $size leaves, not $ENTRIES"; exit 1; }

index=$(( ENTRIES / 2 + 1 ))
inclusion="$API/audit/proof/inclusion?index=$index&size=$size"
consistency="$API/audit/proof/consistency?from=$(( ENTRIES / 3 ))&to=$size"
curl -sf "$inclusion" > "$WORK/inclusion.json"
curl -sf "$consistency" > "$WORK/consistency.json"
inclusion_hashes=$(jq '.hashes | length' "$WORK/inclusion.json")
consistency_hashes=$(jq '.hashes | length' "$WORK/consistency.json")
inclusion_bytes=$(stat -c %s "$WORK/inclusion.json")

log "proof latency, $RUNS runs each, beside GET /q/health/live"
hyperfine -N -w 5 -r "$RUNS" --export-json "$WORK/hyperfine.json" \
    "curl -sf -o /dev/null http://127.0.0.1:$PORT/q/health/live" \
    "curl -sf -o /dev/null $inclusion" "curl -sf -o /dev/null $consistency" > /dev/null
median_ms() { jq -r ".results[$1].median * 1000 | . * 100 | round / 100" "$WORK/hyperfine.json"; }
live_ms=$(median_ms 0)
inclusion_ms=$(median_ms 1)
consistency_ms=$(median_ms 2)

log "re-verifying the whole log"
start=$(now_ms)
curl -sf -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{}' "$API/audit/verify" \
    > "$WORK/verdict.json"
verify_ms=$(( $(now_ms) - start ))
[ "$(jq -r .intact "$WORK/verdict.json")" = true ] || { log "verify: $(cat "$WORK/verdict.json")"; exit 1; }

sequenced_rate=$(rate "$ENTRIES" "$sequenced_ms")
{
    echo "# The audit log at $ENTRIES entries, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    echo "- Commit $(git rev-parse --short HEAD); $(nproc) cores; PostgreSQL $(psql_db -c 'SHOW server_version');"
    echo "  the service with -Xmx${SERVICE_HEAP:-128m}. Every figure was measured in this run of \`bench/audit-log.sh\`."
    echo
    echo "| measure | ours | reference | ratio |"
    echo "| --- | --- | --- | --- |"
    echo "| append: pending entries sequenced into chain and tree | $sequenced_rate entries/s ($ENTRIES in $sequenced_ms ms, $nodes tree nodes) | pgbench, one row per transaction, 16 clients: $pgbench_tps rows/s | $(ratio "$sequenced_rate" "$pgbench_tps")× |"
    echo "| append: the pending rows themselves, one statement | $(rate "$ENTRIES" "$pending_ms") rows/s | the same rows into a plain table: $(rate "$ENTRIES" "$plain_ms") rows/s | $(ratio "$plain_ms" "$pending_ms")× |"
    echo "| inclusion proof of leaf $index in the tree of $size | $inclusion_hashes hashes, $inclusion_bytes bytes of JSON, median $inclusion_ms ms | GET /q/health/live: median $live_ms ms | $(ratio "$inclusion_ms" "$live_ms")× the time |"
    echo "| consistency proof, $(( ENTRIES / 3 )) to $size | $consistency_hashes hashes, median $consistency_ms ms | GET /q/health/live: median $live_ms ms | $(ratio "$consistency_ms" "$live_ms")× the time |"
    echo "| POST /audit/verify: chain, tree rebuilt and compared, checkpoints | $(( verify_ms / 1000 )) s for $ENTRIES entries ($(rate "$ENTRIES" "$verify_ms") entries/s) | — | — |"
} | tee "$OUT"
