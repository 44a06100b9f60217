// The fault suite's HTTP client: Node 20, no npm dependencies.
//
//   node client.mjs load   --base URL --token T --ws W --incident KEY --clients N --stop FILE --journal FILE [--large 0.15]
//       writers that upload blobs (small and large) and bind each acknowledged blob as an artifact, until FILE
//       exists; every attempt and its outcome (status, or the transport error) goes to the journal
//   node client.mjs verify --base URL --token T --ws W --incident KEY --journal FILE [--retry]
//       after the faults: every acknowledged upload is there and hashes right, nothing unacknowledged is visible
//       unless its request was cut off by the fault, nothing half-written is served; --retry re-sends what was
//       not acknowledged and checks that it now succeeds. Prints one JSON line of figures.
//   node client.mjs writes --base URL --token T --ws W --clients N --stop FILE --journal FILE
//       small writes (incident creates, small blob uploads) with their timing, for the database outage
//   node client.mjs burst  --base URL --token T --ws W --incident KEY --n 2000 --journal FILE
//       N requests released at once, a third each: cheap GETs, incident creates, small blob uploads
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';

const args = parseArgs(process.argv.slice(2));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function parseArgs(argv) {
    const out = { _: [] };
    for (let i = 0; i < argv.length; i++) {
        if (argv[i].startsWith('--')) {
            const key = argv[i].slice(2);
            const next = argv[i + 1];
            if (next === undefined || next.startsWith('--')) out[key] = true; else { out[key] = next; i++; }
        } else out._.push(argv[i]);
    }
    return out;
}

/** Deterministic bytes for a seed, so that an upload can be re-sent and re-checked without keeping it. */
export function bytesFor(seed, size) {
    const key = crypto.createHash('sha256').update(String(seed)).digest();
    const cipher = crypto.createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
    return Buffer.concat([cipher.update(Buffer.alloc(size)), cipher.final()]);
}

const sha256 = (buffer) => 'sha256:' + crypto.createHash('sha256').update(buffer).digest('hex');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One request; never throws: transport failures come back as {status: 0, error}. */
function request(method, path, { body, headers = {}, timeout = 60000, binary = false } = {}) {
    const url = new URL(path, args.base);
    const started = performance.now();
    return new Promise((resolve) => {
        const req = http.request(url, {
            method, agent, timeout,
            headers: { Authorization: `Bearer ${args.token}`, ...headers,
                ...(body !== undefined ? { 'Content-Length': Buffer.byteLength(body) } : {}) },
        }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const raw = Buffer.concat(chunks);
                resolve({ status: res.statusCode, headers: res.headers, ms: performance.now() - started,
                    body: binary ? raw : raw.toString('utf8') });
            });
            res.on('error', (e) => resolve({ status: 0, error: e.code || e.message, ms: performance.now() - started }));
        });
        req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
        req.on('error', (e) => resolve({ status: 0, error: e.code || e.message, ms: performance.now() - started }));
        if (body !== undefined) req.end(body); else req.end();
    });
}

const putBlob = (digest, bytes) => request('PUT', `/api/v1/blobs/${digest}`,
    { body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });

const bindBody = (name, digest) => JSON.stringify({ name, digest, mediaType: 'application/octet-stream',
    source: 'faults', kind: 'snapshot', capturedAt: '2026-06-18T09:00:00Z' });
const bind = (name, digest) => request('POST', `/api/v1/workspaces/${args.ws}/incidents/${args.incident}/artifacts`,
    { body: bindBody(name, digest), headers: { 'Content-Type': 'application/json' } });

const ok = (status) => status >= 200 && status < 300;

/** After a transport failure, wait until the service is back rather than pile up attempts against a dead port. */
async function awaitService(stopped) {
    while (!stopped()) {
        const r = await request('GET', '/q/health/ready', { timeout: 2000 });
        if (r.status === 200) return;
        await sleep(200);
    }
}
/** Which answers tell a client that the request was refused, as opposed to cut off with its outcome unknown. */
const outcomeKnown = (r) => r.status !== 0;

async function load() {
    const clients = Number(args.clients || 6);
    const largeShare = Number(args.large || 0.15);
    const run = args.run || crypto.randomBytes(4).toString('hex');
    const journal = [];
    let stop = false;
    const poll = setInterval(() => { if (fs.existsSync(args.stop)) stop = true; }, 100);
    await Promise.all(Array.from({ length: clients }, async (_, w) => {
        for (let i = 0; !stop; i++) {
            const seed = `${run}-${w}-${i}`;
            const size = Math.random() < largeShare ? 1_000_000 + Math.floor(Math.random() * 7_000_000)
                : 1 + Math.floor(Math.random() * 64_000);
            const bytes = bytesFor(seed, size);
            const digest = sha256(bytes);
            const up = await putBlob(digest, bytes);
            journal.push({ op: 'blob', seed, size, digest, status: up.status, error: up.error, at: Date.now() });
            if (!ok(up.status)) {
                if (up.status === 0) await awaitService(() => stop); else await sleep(50);
                continue;
            }
            const name = `k-${run}-${w}-${i}`;
            const b = await bind(name, digest);
            journal.push({ op: 'bind', name, digest, status: b.status, error: b.error, at: Date.now() });
            if (b.status === 0) await awaitService(() => stop); else if (!ok(b.status)) await sleep(50);
        }
    }));
    clearInterval(poll);
    fs.writeFileSync(args.journal, journal.map((j) => JSON.stringify(j)).join('\n') + '\n');
    const count = (op, pred) => journal.filter((j) => j.op === op && pred(j)).length;
    console.log(JSON.stringify({ blobs: count('blob', () => true), blobsAcked: count('blob', (j) => ok(j.status)),
        binds: count('bind', () => true), bindsAcked: count('bind', (j) => ok(j.status)),
        cutOff: journal.filter((j) => j.status === 0).length }));
}

function readJournal(file) {
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function inBatches(items, size, fn) {
    for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

async function verify() {
    const journal = readJournal(args.journal);
    const problems = [];
    const figures = { blobsAcked: 0, blobsAckedIntact: 0, blobsUnacked: 0, blobsUnackedStored: 0,
        bindsAcked: 0, bindsAckedVerified: 0, bindsUnacked: 0, unackedVisible: 0, unackedVisibleCutOff: 0,
        retried: 0, retriedOk: 0 };
    // the same seed may appear once only, but a digest may be attempted twice; judge each digest by its best outcome
    const blobs = new Map();
    for (const j of journal.filter((x) => x.op === 'blob')) {
        const seen = blobs.get(j.digest);
        if (!seen || ok(j.status)) blobs.set(j.digest, j);
    }
    await inBatches([...blobs.values()], 4, async (j) => {
        const got = await request('GET', `/api/v1/blobs/${j.digest}`, { binary: true });
        if (ok(j.status)) {
            figures.blobsAcked++;
            if (got.status === 200 && sha256(got.body) === j.digest && got.body.length === j.size) figures.blobsAckedIntact++;
            else problems.push(`acknowledged blob ${j.digest} (${j.size} B) reads back as ${got.status} ${got.error || ''}`
                + (got.status === 200 ? ` ${got.body.length} B ${sha256(got.body)}` : ''));
        } else {
            figures.blobsUnacked++;
            if (got.status === 200) {
                figures.blobsUnackedStored++;
                if (sha256(got.body) !== j.digest) problems.push(`unacknowledged blob ${j.digest} is served half-written: `
                    + `${got.body.length} of ${j.size} B`);
                if (outcomeKnown(j)) problems.push(`blob ${j.digest} was refused with ${j.status} but is stored`);
            } else if (got.status !== 404) problems.push(`unacknowledged blob ${j.digest} reads as ${got.status} ${got.error || ''}`);
        }
    });
    const binds = journal.filter((x) => x.op === 'bind');
    const list = await request('GET', `/api/v1/workspaces/${args.ws}/incidents/${args.incident}/artifacts`);
    if (list.status !== 200) problems.push(`listing the incident's artifacts answers ${list.status} ${list.error || ''}`);
    const visible = new Map((list.status === 200 ? JSON.parse(list.body).items : []).map((a) => [a.name, a]));
    const attempted = new Map(binds.map((b) => [b.name, b]));
    for (const b of binds) {
        if (ok(b.status)) {
            figures.bindsAcked++;
            const a = visible.get(b.name);
            if (!a) { problems.push(`acknowledged artifact ${b.name} is missing from the list`); continue; }
            if (a.digest !== b.digest) problems.push(`artifact ${b.name} names ${a.digest}, bound to ${b.digest}`);
            const v = await request('POST', `/api/v1/artifacts/${encodeURIComponent(a.id)}/verifications`,
                { body: JSON.stringify({ digest: b.digest }), headers: { 'Content-Type': 'application/json' } });
            if (ok(v.status) && JSON.parse(v.body).verified === true) figures.bindsAckedVerified++;
            else problems.push(`verification of acknowledged ${a.id}: ${v.status} ${v.body || v.error}`);
        } else figures.bindsUnacked++;
    }
    for (const [name, a] of visible) {
        const b = attempted.get(name);
        if (!b) { problems.push(`artifact ${name} is visible but was never sent`); continue; }
        if (ok(b.status)) continue;
        figures.unackedVisible++;
        if (outcomeKnown(b)) problems.push(`artifact ${name} was refused with ${b.status} but is visible`);
        else figures.unackedVisibleCutOff++;
        if (a.digest !== b.digest) problems.push(`unacknowledged artifact ${name} names ${a.digest}, sent ${b.digest}`);
    }
    if (args.retry) {
        const retries = [...blobs.values()].filter((j) => !ok(j.status));
        await inBatches(retries, 4, async (j) => {
            figures.retried++;
            const r = await putBlob(j.digest, bytesFor(j.seed, j.size));
            if (ok(r.status)) figures.retriedOk++;
            else problems.push(`retry of blob ${j.digest} answers ${r.status} ${r.body || r.error}`);
        });
        for (const b of binds.filter((x) => !ok(x.status))) {
            figures.retried++;
            const r = await bind(b.name, b.digest);
            if (ok(r.status)) figures.retriedOk++;
            else problems.push(`retry of artifact ${b.name} answers ${r.status} ${r.body || r.error}`);
        }
    }
    console.log(JSON.stringify({ ...figures, problems: problems.slice(0, 20), problemCount: problems.length }));
    process.exitCode = problems.length ? 1 : 0;
}

async function writes() {
    const clients = Number(args.clients || 4);
    const journal = [];
    let stop = false;
    const poll = setInterval(() => { if (fs.existsSync(args.stop)) stop = true; }, 50);
    await Promise.all(Array.from({ length: clients }, async (_, w) => {
        for (let i = 0; !stop; i++) {
            const started = Date.now();
            let r; let entry;
            if (i % 2 === 0) {
                const key = `DB-${crypto.randomInt(1, 999999999)}`;
                r = await request('POST', `/api/v1/workspaces/${args.ws}/incidents`, { timeout: 30000,
                    body: JSON.stringify({ key, title: 'database outage', severity: 'SEV-3' }),
                    headers: { 'Content-Type': 'application/json' } });
                entry = { op: 'incident', key };
            } else {
                const seed = crypto.randomBytes(8).toString('hex');
                const size = 1 + crypto.randomInt(20000);
                const bytes = bytesFor(seed, size);
                const digest = sha256(bytes);
                r = await request('PUT', `/api/v1/blobs/${digest}`, { timeout: 30000, body: bytes,
                    headers: { 'Content-Type': 'application/octet-stream' } });
                entry = { op: 'blob', seed, size, digest };
            }
            journal.push({ ...entry, status: r.status, error: r.error, started, ms: Math.round(r.ms),
                contentType: r.headers?.['content-type'], retryAfter: r.headers?.['retry-after'],
                type: problemType(r) });
            if (!ok(r.status)) await sleep(100);
        }
    }));
    clearInterval(poll);
    fs.writeFileSync(args.journal, journal.map((j) => JSON.stringify(j)).join('\n') + '\n');
}

function problemType(r) {
    if (r.status < 400 || !r.body) return undefined;
    try { return JSON.parse(r.body).type?.replace('https://evidence-store.dev/problems/', ''); } catch { return 'not-json'; }
}

/** Checks that every acknowledged write of a `writes` journal is there. Prints one JSON line. */
async function verifyWrites() {
    const journal = readJournal(args.journal);
    const acked = journal.filter((j) => ok(j.status) && (j.op === 'incident' || j.op === 'blob'));
    const problems = [];
    await inBatches(acked, 8, async (j) => {
        if (j.op === 'incident') {
            const r = await request('GET', `/api/v1/workspaces/${args.ws}/incidents/${j.key}`);
            if (r.status !== 200) problems.push(`acknowledged incident ${j.key} reads as ${r.status}`);
        } else {
            const r = await request('GET', `/api/v1/blobs/${j.digest}`, { binary: true });
            if (r.status !== 200 || sha256(r.body) !== j.digest) problems.push(`acknowledged blob ${j.digest} reads as ${r.status}`);
        }
    });
    console.log(JSON.stringify({ acked: acked.length, problems: problems.slice(0, 20), problemCount: problems.length }));
    process.exitCode = problems.length ? 1 : 0;
}

async function burst() {
    const n = Number(args.n || 2000);
    const journal = [];
    const kinds = ['get', 'create', 'blob'];
    const requests = Array.from({ length: n }, (_, i) => {
        const kind = kinds[i % 3];
        if (kind === 'get') return { kind, go: () => request('GET', `/api/v1/workspaces/${args.ws}/incidents/${args.incident}`,
            { timeout: 120000 }) };
        if (kind === 'create') {
            const key = `BURST-${crypto.randomInt(1, 999999999)}`;
            return { kind, key, go: () => request('POST', `/api/v1/workspaces/${args.ws}/incidents`, { timeout: 120000,
                body: JSON.stringify({ key, title: 'burst', severity: 'SEV-3' }), headers: { 'Content-Type': 'application/json' } }) };
        }
        const seed = crypto.randomBytes(8).toString('hex');
        const size = 1000 + crypto.randomInt(30000);
        const bytes = bytesFor(seed, size);
        const digest = sha256(bytes);
        return { kind, seed, size, digest, go: () => request('PUT', `/api/v1/blobs/${digest}`, { timeout: 120000,
            body: bytes, headers: { 'Content-Type': 'application/octet-stream' } }) };
    });
    const started = Date.now();
    await Promise.all(requests.map(async ({ go, ...entry }) => {
        const r = await go();
        journal.push({ op: entry.kind === 'create' ? 'incident' : entry.kind, ...entry, status: r.status,
            error: r.error, ms: Math.round(r.ms), retryAfter: r.headers?.['retry-after'],
            contentType: r.headers?.['content-type'], type: problemType(r) });
    }));
    fs.writeFileSync(args.journal, journal.map((j) => JSON.stringify(j)).join('\n') + '\n');
    const statuses = {};
    for (const j of journal) {
        const key = j.status === 0 ? `err:${j.error}` : String(j.status);
        statuses[key] = (statuses[key] || 0) + 1;
    }
    const refused = journal.filter((j) => j.status === 429 || j.status === 503);
    const ms = journal.map((j) => j.ms).sort((a, b) => a - b);
    console.log(JSON.stringify({ n, seconds: (Date.now() - started) / 1000, statuses,
        refusedWithoutRetryAfter: refused.filter((j) => !j.retryAfter).length,
        errorsNotProblemJson: journal.filter((j) => j.status >= 400 && !String(j.contentType).startsWith('application/problem+json')).length,
        p50ms: ms[Math.floor(ms.length / 2)], p99ms: ms[Math.floor(ms.length * 0.99)], maxMs: ms[ms.length - 1] }));
}

const commands = { load, verify, writes, 'verify-writes': verifyWrites, burst };
const command = commands[args._[0]];
if (!command) {
    console.error(`usage: node client.mjs ${Object.keys(commands).join('|')} --base URL --token T ...`);
    process.exit(2);
}
await command();
