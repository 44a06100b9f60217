// Ingests many small JSON artifacts the way a collector does: PUT the blob under its digest, then bind it as an
// artifact of an incident. Each artifact's latency is that of the pair. Prints one JSON object:
// {count, done, seconds, perSecond, p50, p90, p99, max (ms), retries503, ...}.
//
//   node bench/small-ingest.mjs --base http://127.0.0.1:18481 --token JWT [--count 20000] [--size 10240]
//        [--concurrency 16] [--incidents 20] [--warmup 500] [--warmup-seconds 30] [--max-seconds 120]
//        [--workspace bench]
//
// The documents are made and hashed before the clock starts. A warm-up of --warmup artifacts (at most
// --warmup-seconds), into an incident of its own, runs first and is not counted. No new artifact starts after
// --max-seconds, so that a slow service cannot hold the benchmark up: `done` then tells how many of `count` were
// ingested, and the figures are over those. Answers 503 are retried after their Retry-After (`retries503`). The
// token needs the roles collector and investigator.
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { args, artifact, client, incident, json, percentile, pool } from './lib.mjs';

const a = args();
const count = Number(a.count ?? 20000);
const size = Number(a.size ?? 10240);
const concurrency = Number(a.concurrency ?? 16);
const incidents = Number(a.incidents ?? 20);
const warmup = Number(a.warmup ?? 500);
const warmupSeconds = Number(a['warmup-seconds'] ?? 30);
const maxSeconds = Number(a['max-seconds'] ?? 120);
const ws = a.workspace ?? 'bench';
const api = client(a.base, a.token, concurrency);

/** `n` distinct JSON documents of exactly `size` bytes each, with their digests. */
function documents(n, first) {
    const docs = [];
    for (let i = 0; i < n; i++) {
        const head = `{"seq":${first + i},"source":"bench","samples":"`;
        const tail = '"}\n';
        const hexLength = size - head.length - tail.length;
        const hex = randomBytes(Math.ceil(hexLength / 2)).toString('hex').slice(0, hexLength);
        const body = Buffer.from(head + hex + tail);
        docs.push({ body, digest: 'sha256:' + createHash('sha256').update(body).digest('hex') });
    }
    return docs;
}

async function ingest(docs, keyOf, seconds) {
    const latencies = [];
    const start = performance.now();
    const started = await pool(docs.length, concurrency, async (i) => {
        const { body, digest } = docs[i];
        const t0 = performance.now();
        await api.expect([200, 201], 'PUT', `/api/v1/blobs/${digest}`, { body, contentType: 'application/octet-stream' });
        await api.expect([201], 'POST', `/api/v1/workspaces/${ws}/incidents/${keyOf(i)}/artifacts`,
            json(artifact(`doc-${String(i).padStart(6, '0')}`, digest, 'application/json')));
        latencies.push(performance.now() - t0);
    }, start + seconds * 1000);
    return { seconds: (performance.now() - start) / 1000, latencies, started };
}

const warm = documents(warmup, count);
const docs = documents(count, 0);

const keys = Array.from({ length: incidents }, (_, i) => `INGEST-${i + 1}`);
for (const key of [...keys, 'WARMUP-1']) {
    await api.expect([201], 'POST', `/api/v1/workspaces/${ws}/incidents`, json(incident(key, `Small ingest ${key}`)));
}
if (warmup > 0) await ingest(warm, () => 'WARMUP-1', warmupSeconds);
const retriesBefore = api.stats.retries503;

const { seconds, latencies } = await ingest(docs, (i) => keys[i % incidents], maxSeconds);
latencies.sort((x, y) => x - y);
const round = (x) => Math.round(x * 10) / 10;
console.log(JSON.stringify({
    count, done: latencies.length, size, concurrency, incidents, warmup, maxSeconds,
    seconds: round(seconds),
    perSecond: round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p90: round(percentile(latencies, 90)),
    p99: round(percentile(latencies, 99)),
    max: round(latencies[latencies.length - 1]),
    retries503: api.stats.retries503 - retriesBefore,
}));
api.close();
