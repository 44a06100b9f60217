// Ingests small JSON artifacts through the batch upload: each request is a tar (GNU tar, --format=posix) of
// batch.json and --batch documents, POSTed to .../artifact-batches. Prints one JSON object:
// {count, done, batches, seconds, perSecond (artifacts), p50, p99 (ms per batch), ...}.
//
//   node bench/batch-ingest.mjs --base http://127.0.0.1:18481 --token JWT --work DIR [--count 20000]
//        [--batch 1000] [--size 10240] [--concurrency 2] [--warmup 0] [--workspace bench]
//
// The documents and their archives are made before the clock starts, under --work (emptied first). A warm-up of
// --warmup artifacts in batches alike runs first and is not counted. Every item must come back 201: the figure is
// of artifacts newly stored and bound. The token needs the role collector.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { args, artifact, client, incident, json, percentile, pool } from './lib.mjs';

const a = args();
const count = Number(a.count ?? 20000);
const batch = Number(a.batch ?? 1000);
const size = Number(a.size ?? 10240);
const concurrency = Number(a.concurrency ?? 2);
const warmup = Number(a.warmup ?? 0);
const ws = a.workspace ?? 'bench';
const work = a.work;
const api = client(a.base, a.token, concurrency);

/** One archive of `n` fresh documents of `size` bytes, written under `dir`; returns its path. */
function archive(dir, first, n) {
    mkdirSync(dir, { recursive: true });
    const items = [];
    for (let i = 0; i < n; i++) {
        const head = `{"seq":${first + i},"source":"bench-batch","samples":"`;
        const tail = '"}\n';
        const hexLength = size - head.length - tail.length;
        const body = Buffer.from(head + randomBytes(Math.ceil(hexLength / 2)).toString('hex').slice(0, hexLength) + tail);
        const path = `doc-${String(first + i).padStart(6, '0')}.json`;
        writeFileSync(join(dir, path), body);
        const digest = 'sha256:' + createHash('sha256').update(body).digest('hex');
        items.push({ path, ...artifact(path.replace('.json', ''), digest, 'application/json') });
    }
    writeFileSync(join(dir, 'batch.json'), JSON.stringify(items));
    const tar = `${dir}.tar`;
    execFileSync('tar', ['--format=posix', '-cf', tar, '-C', dir, 'batch.json', ...items.map((item) => item.path)]);
    rmSync(dir, { recursive: true });
    return tar;
}

rmSync(work, { recursive: true, force: true });
/** The archives of `n` documents, numbered from `first`, `batch` to an archive. */
function archives(name, first, n) {
    return Array.from({ length: Math.ceil(n / batch) }, (_, b) => archive(join(work, `${name}-${b}`),
        first + b * batch, Math.min(batch, n - b * batch)));
}
const tars = archives('batch', 0, count);
const warm = archives('warmup', count, warmup);
const batches = tars.length;
// each run of its own incident: the service is fresh per backend, but a key may come at most 9 digits
const key = `BATCH-${Date.now() % 1_000_000_000}`;
await api.expect([201], 'POST', `/api/v1/workspaces/${ws}/incidents`, json(incident(key, 'Batch ingest')));

/** Posts the archives `all`, `concurrency` at a time; calls `done` with each answer's results and its latency. */
async function post(all, done) {
    await pool(all.length, concurrency, async (b) => {
        const t0 = performance.now();
        const res = await api.expect([200], 'POST', `/api/v1/workspaces/${ws}/incidents/${key}/artifact-batches`,
            { body: readFileSync(all[b]), contentType: 'application/x-tar' });
        const results = JSON.parse(res.body).results;
        const refused = results.filter((r) => r.status !== 201);
        if (refused.length > 0) throw new Error(`batch ${b}: ${JSON.stringify(refused[0])}`);
        done(results, performance.now() - t0);
    });
}

await post(warm, () => {});
const latencies = [];
let done = 0;
const start = performance.now();
await post(tars, (results, latency) => {
    done += results.length;
    latencies.push(latency);
});
const seconds = (performance.now() - start) / 1000;
latencies.sort((x, y) => x - y);
const round = (x) => Math.round(x * 10) / 10;
console.log(JSON.stringify({
    count, done, batch, batches, size, concurrency, seconds: round(seconds), perSecond: round(done / seconds),
    p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), retries503: api.stats.retries503,
}));
api.close();
rmSync(work, { recursive: true, force: true });
