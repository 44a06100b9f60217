// The fault suite's HTTP client: Node 20, no npm dependencies.
//
//   node client.mjs load   --base URL --token T --ws W --incident KEY --clients N --stop FILE --journal FILE [--large 0.15]
//       writers that upload blobs (small and large) and bind each acknowledged blob as an artifact, until FILE
//       exists; every attempt and its outcome (status, or the transport error) goes to the journal
//   node client.mjs verify --base URL --token T --ws W --incident KEY --journal FILE [--retry]
//       after the faults: every acknowledged upload is there and hashes right, nothing unacknowledged is visible
//       unless its request was cut off by the fault, nothing half-written is served; --retry re-sends what was
//       not acknowledged and checks that it now succeeds. Prints one JSON line of figures.
//   node client.mjs writes --base URL --token T --ws W --clients N --stop FILE --journal FILE [--every 250]
//       small writes (incident creates, small blob uploads) with their timing, for the database outage: N clients
//       that wait for each answer, and one more write every --every ms that waits for none
//   node client.mjs verify-audit --base URL --db DATABASE --journal FILE [--wait 30]
//       every acknowledged write of a load or writes journal has its entry in audit_entry, once audit_pending has
//       drained; also counts the journal's 500s. Prints one JSON line of figures.
//   node client.mjs burst  --base URL --token T --ws W --incident KEY --n 2000 --journal FILE
//       N requests released at once, a third each: cheap GETs, incident creates, small blob uploads
//   node client.mjs idempotency --base URL --token T --ws W --db DATABASE [--n 8]
//       every write of the contract that takes Idempotency-Key: a retry gets the first answer, marked replayed; the
//       key with another body 422; N identical requests at once run once. Prints one JSON line of figures.
import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

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
                resolve({ status: res.statusCode, headers: res.headers, rawHeaders: res.rawHeaders,
                    ms: performance.now() - started,
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
const bindPath = () => `/api/v1/workspaces/${args.ws}/incidents/${args.incident}/artifacts`;
const bind = (name, digest) => request('POST', bindPath(),
    { body: bindBody(name, digest), headers: { 'Content-Type': 'application/json' } });
/** What the audit log records of a write, to find its entry later: method, path, and the Location it was answered. */
const audited = (method, path, r) => ({ method, path, location: r.headers?.location });

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
            journal.push({ op: 'blob', seed, size, digest, ...audited('PUT', `/api/v1/blobs/${digest}`, up),
                status: up.status, error: up.error, at: Date.now() });
            if (!ok(up.status)) {
                if (up.status === 0) await awaitService(() => stop); else await sleep(50);
                continue;
            }
            const name = `k-${run}-${w}-${i}`;
            const b = await bind(name, digest);
            journal.push({ op: 'bind', name, digest, ...audited('POST', bindPath(), b), status: b.status,
                error: b.error, at: Date.now() });
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
    // besides the clients, which wait for each answer, one write every --every ms (250) whatever the answers: a write
    // that committed as the database stopped waits for its audit entry's place in the log until it is back, and
    // writers stuck in those must not leave the outage without requests
    const pacedWrites = [];
    let paced = 0;
    const pacer = setInterval(() => { if (!stop) pacedWrites.push(writeOnce(journal, paced++)); },
        Number(args.every || 250));
    await Promise.all(Array.from({ length: clients }, async () => {
        for (let i = 0; !stop; i++) {
            if (!ok(await writeOnce(journal, i))) await sleep(100);
        }
    }));
    clearInterval(pacer);
    await Promise.all(pacedWrites);
    clearInterval(poll);
    fs.writeFileSync(args.journal, journal.map((j) => JSON.stringify(j)).join('\n') + '\n');
}

/** One small write, an incident create (even i) or a blob upload, journaled with its timing; returns its status. */
async function writeOnce(journal, i) {
    const started = Date.now();
    let r; let entry;
    if (i % 2 === 0) {
        const key = `DB-${crypto.randomInt(1, 999999999)}`;
        r = await request('POST', `/api/v1/workspaces/${args.ws}/incidents`, { timeout: 30000,
            body: JSON.stringify({ key, title: 'database outage', severity: 'SEV-3' }),
            headers: { 'Content-Type': 'application/json' } });
        entry = { op: 'incident', key, ...audited('POST', `/api/v1/workspaces/${args.ws}/incidents`, r) };
    } else {
        const seed = crypto.randomBytes(8).toString('hex');
        const size = 1 + crypto.randomInt(20000);
        const bytes = bytesFor(seed, size);
        const digest = sha256(bytes);
        r = await request('PUT', `/api/v1/blobs/${digest}`, { timeout: 30000, body: bytes,
            headers: { 'Content-Type': 'application/octet-stream' } });
        entry = { op: 'blob', seed, size, digest, ...audited('PUT', `/api/v1/blobs/${digest}`, r) };
    }
    journal.push({ ...entry, status: r.status, error: r.error, started, ms: Math.round(r.ms),
        contentType: r.headers?.['content-type'], retryAfter: r.headers?.['retry-after'], type: problemType(r) });
    return r.status;
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

/**
 * After a fault: every acknowledged write of a journal (`load` or `writes`) has its entry in audit_entry. An entry
 * commits with its write, pending; the sequencer, of this instance or of the one restarted after a kill, gives it its
 * place, so the case first waits (at most --wait seconds, 30) for audit_pending to drain. Prints one JSON line.
 */
async function verifyAudit() {
    const journal = readJournal(args.journal);
    const deadline = Date.now() + 1000 * Number(args.wait || 30);
    let pendingLeft = countRows('SELECT count(*) FROM audit_pending');
    while (pendingLeft > 0 && Date.now() < deadline) {
        await sleep(250);
        pendingLeft = countRows('SELECT count(*) FROM audit_pending');
    }
    // the targets of the entries for each method, path and status: an acknowledged write answered with a Location
    // must find one with that target, any other one any entry (each entry used once)
    const entries = new Map();
    for (const line of psqlLines("SELECT json_build_object('key', method || ' ' || path || ' ' || status, "
        + "'target', target) FROM audit_entry")) {
        const { key, target } = JSON.parse(line);
        if (!entries.has(key)) entries.set(key, []);
        entries.get(key).push(target);
    }
    const acked = journal.filter((j) => ok(j.status) && j.method);
    const missing = [];
    const byLocationFirst = [...acked].sort((a, b) => (b.location ? 1 : 0) - (a.location ? 1 : 0));
    for (const j of byLocationFirst) {
        const targets = entries.get(`${j.method} ${j.path} ${j.status}`) || [];
        const target = j.location && new URL(j.location, args.base).pathname;
        const at = target ? targets.indexOf(target) : targets.length - 1;
        if (at < 0) missing.push(`${j.method} ${j.path} ${j.status} ${target || ''}`.trim());
        else targets.splice(at, 1);
    }
    console.log(JSON.stringify({ acked: acked.length, missing: missing.length, pendingLeft,
        internalErrors: journal.filter((j) => j.status === 500).length, examples: missing.slice(0, 5) }));
    process.exitCode = missing.length || pendingLeft ? 1 : 0;
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

// ---- case 7: idempotent retries -----------------------------------------------------------------------------------

/** Headers that belong to the connection or mark the replay, not to the answer a replay must repeat. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'idempotent-replayed']);

function answerHeaders(r) {
    const out = [];
    for (let i = 0; i < (r.rawHeaders || []).length; i += 2) {
        const name = r.rawHeaders[i].toLowerCase();
        if (!TRANSPORT.has(name)) out.push(`${name}: ${r.rawHeaders[i + 1]}`);
    }
    return out.sort().join('\n');
}

const sameAnswer = (a, b) => a.status === b.status && Buffer.compare(a.body, b.body) === 0
    && answerHeaders(a) === answerHeaders(b);
const replayed = (r) => r.headers?.['idempotent-replayed'] === '?1';
const problemOf = (r) => {
    try { return JSON.parse(r.body.toString('utf8')).type?.replace('https://evidence-store.dev/problems/', ''); }
    catch { return undefined; }
};
const isProblem = (r, status, type) => r.status === status && problemOf(r) === type
    && String(r.headers?.['content-type']).startsWith('application/problem+json');

/** Counts rows with psql: what a write did, seen from the database rather than from its answer. */
function countRows(sql) {
    return Number(psqlLines(sql)[0]);
}
function psqlLines(sql) {
    const out = execFileSync('psql', ['-qAt', '-h', process.env.PGHOST || '127.0.0.1', '-p', process.env.PGPORT || '5432',
        '-U', 'postgres', '-d', args.db, '-c', sql], { encoding: 'utf8', maxBuffer: 1 << 28 });
    return out.split('\n').filter(Boolean);
}

/**
 * Writes that executed: every one appends an audit entry; a replay appends one marked replayed. Counted whether the
 * sequencer has numbered the entry yet (audit_entry) or not (audit_pending): it moves them in one commit.
 */
const EXECUTED_WHERE = 'WHERE NOT replayed AND status BETWEEN 200 AND 299';
const EXECUTED = `SELECT (SELECT count(*) FROM audit_entry ${EXECUTED_WHERE}) + (SELECT count(*) FROM audit_pending ${EXECUTED_WHERE})`;

/**
 * Every write of the contract that takes Idempotency-Key, each able to make a fresh target for itself: the request
 * (method, path, body), another body for the same key, and the table whose rows are its side effect (none for
 * PATCH, which changes a row: the audit log's executed writes count those).
 */
function idempotentWrites(fixtures) {
    const ws = args.ws;
    const incident = (key) => `/api/v1/workspaces/${ws}/incidents/${key}`;
    const jsonBody = (value) => Buffer.from(JSON.stringify(value));
    const json = { 'Content-Type': 'application/json' };
    const mergePatch = { 'Content-Type': 'application/merge-patch+json' };
    const octets = { 'Content-Type': 'application/octet-stream' };
    const contentDigest = (bytes) => `sha-256=:${crypto.createHash('sha256').update(bytes).digest('base64')}:`;
    return {
        createIncident: { table: 'incident', async fresh() {
            const key = fixtures.incidentKey();
            const other = fixtures.incidentKey();
            return { method: 'POST', path: `/api/v1/workspaces/${ws}/incidents`, headers: json,
                body: jsonBody({ key, title: 'idempotency', severity: 'SEV-3' }),
                other: jsonBody({ key: other, title: 'idempotency', severity: 'SEV-3' }) };
        } },
        patchIncident: { table: null, async fresh() {
            const key = await fixtures.incident();
            return { method: 'PATCH', path: incident(key), headers: mergePatch, body: jsonBody({ title: 'patched once' }),
                other: jsonBody({ title: 'patched otherwise' }) };
        } },
        bindArtifact: { table: 'artifact', async fresh() {
            const key = await fixtures.incident();
            const digest = await fixtures.blob();
            const body = (name) => jsonBody({ name, digest, mediaType: 'application/octet-stream', source: 'faults',
                kind: 'snapshot', capturedAt: '2026-06-18T09:00:00Z' });
            return { method: 'POST', path: `${incident(key)}/artifacts`, headers: json, body: body('bound-once'),
                other: body('bound-otherwise') };
        } },
        recordTimelineEntry: { table: 'timeline_entry', async fresh() {
            const key = await fixtures.incident();
            const body = (event) => jsonBody({ at: '2026-06-18T09:18:00Z', event });
            return { method: 'POST', path: `${incident(key)}/timeline`, headers: json, body: body('Rollback started.'),
                other: body('Rollback finished.') };
        } },
        createAction: { table: 'action_item', async fresh() {
            const key = await fixtures.incident();
            const body = (action) => jsonBody({ action, owner: 'Edward Green', due: '2026-06-26', status: 'open' });
            return { method: 'POST', path: `${incident(key)}/actions`, headers: json, body: body('Requeue failed deliveries.'),
                other: body('Requeue every delivery.') };
        } },
        proposeFinding: { table: 'finding', async fresh() {
            const { key, artifactId } = await fixtures.artifact();
            const body = (statement) => jsonBody({ name: 'queue-after-deploy', kind: 'supporting', statement,
                artifactIds: [artifactId] });
            return { method: 'POST', path: `${incident(key)}/findings`, headers: json, body: body('Queue rose.'),
                other: body('Queue fell.') };
        } },
        putRootCause: { table: 'root_cause', async fresh() {
            const { key, findingId } = await fixtures.finding();
            const body = (statement) => jsonBody({ statement, confidence: 'high', findingIds: [findingId] });
            return { method: 'PUT', path: `${incident(key)}/root-cause`, headers: json, body: body('The batch size.'),
                other: body('The deployment.') };
        } },
        reviewRootCause: { table: 'root_cause_review', async fresh() {
            const { key } = await fixtures.rootCause();
            const body = (note) => jsonBody({ decision: 'rejected', note });
            return { method: 'POST', path: `${incident(key)}/root-cause/reviews`, headers: json,
                body: body('Not shown.'), other: body('Not shown either.') };
        } },
        uploadArtifactBatch: { table: 'artifact', async fresh() {
            const key = await fixtures.incident();
            const bytes = crypto.randomBytes(100_000);
            const batch = (name) => tarArchive([
                { name: 'batch.json', bytes: jsonBody([{ path: 'evidence.bin', name, digest: sha256(bytes),
                    mediaType: 'application/octet-stream', source: 'faults', kind: 'snapshot',
                    capturedAt: '2026-06-18T09:00:00Z' }]) },
                { name: 'evidence.bin', bytes }]);
            const body = batch('batched-once');
            const other = batch('batched-otherwise');
            const tar = { 'Content-Type': 'application/x-tar' };
            return { method: 'POST', path: `${incident(key)}/artifact-batches`,
                headers: { ...tar, 'Content-Digest': contentDigest(body) }, body,
                other, otherHeaders: { ...tar, 'Content-Digest': contentDigest(other) } };
        } },
        uploadBlob: { table: 'blob', async fresh() {
            const bytes = crypto.randomBytes(300_000);
            const other = crypto.randomBytes(300_000);
            return { method: 'POST', path: '/api/v1/blobs', headers: { ...octets, 'Content-Digest': contentDigest(bytes) },
                body: bytes, other, otherHeaders: { ...octets, 'Content-Digest': contentDigest(other) } };
        } },
        putBlob: { table: 'blob', async fresh() {
            const bytes = crypto.randomBytes(2_000_000);
            // the same path with other bytes: another declared Content-Length, so another request
            return { method: 'PUT', path: `/api/v1/blobs/${sha256(bytes)}`, headers: octets, body: bytes,
                other: bytes.subarray(0, 1_000_000) };
        } },
        verifyArtifact: { table: 'verification', async fresh() {
            const { artifactId, digest } = await fixtures.artifact();
            return { method: 'POST', path: `/api/v1/artifacts/${artifactId}/verifications`, headers: json,
                body: jsonBody({}), other: jsonBody({ digest }) };
        } },
        patchAction: { table: null, async fresh() {
            const actionId = await fixtures.action();
            return { method: 'PATCH', path: `/api/v1/actions/${actionId}`, headers: mergePatch,
                body: jsonBody({ status: 'in-progress' }), other: jsonBody({ status: 'done' }) };
        } },
        reviseFinding: { table: null, async fresh() {
            const { findingId } = await fixtures.finding();
            return { method: 'PATCH', path: `/api/v1/findings/${findingId}`, headers: mergePatch,
                body: jsonBody({ statement: 'Revised once.' }), other: jsonBody({ statement: 'Revised otherwise.' }) };
        } },
        reviewFinding: { table: 'finding_review', async fresh() {
            const { findingId } = await fixtures.finding();
            const body = (note) => jsonBody({ decision: 'rejected', note });
            return { method: 'POST', path: `/api/v1/findings/${findingId}/reviews`, headers: json,
                body: body('Not shown.'), other: body('Not shown either.') };
        } },
        createAuditCheckpoint: { table: 'audit_tree_checkpoint', async fresh() {
            // no body: another request with the key is one that sends a body
            return { method: 'POST', path: '/api/v1/audit/checkpoints', headers: {}, body: undefined,
                other: jsonBody({}), otherHeaders: json };
        } },
    };
}

/** What the case needs to exist before a write: incidents, blobs, artifacts, findings, root causes, actions. */
function idempotencyFixtures() {
    const run = crypto.randomBytes(3).toString('hex').toUpperCase();
    let n = 0;
    const ws = args.ws;
    const must = async (r, what) => {
        if (!ok(r.status)) throw new Error(`${what}: ${r.status} ${r.body || r.error}`);
        return JSON.parse(r.body);
    };
    const post = (method, path, value) => request(method, path, { body: JSON.stringify(value),
        headers: { 'Content-Type': 'application/json' } });
    const fixtures = {
        incidentKey: () => `ID${run}-${++n}`,
        async incident() {
            const key = fixtures.incidentKey();
            await must(await post('POST', `/api/v1/workspaces/${ws}/incidents`, { key, title: 'idempotency',
                severity: 'SEV-3', impactStart: '2026-06-18T09:00:00Z' }), 'creating an incident');
            return key;
        },
        async blob() {
            const bytes = crypto.randomBytes(1000);
            await must(await putBlob(sha256(bytes), bytes), 'uploading a blob');
            return sha256(bytes);
        },
        async artifact() {
            const key = await fixtures.incident();
            const digest = await fixtures.blob();
            const a = await must(await post('POST', `/api/v1/workspaces/${ws}/incidents/${key}/artifacts`,
                JSON.parse(bindBody('evidence', digest))), 'binding an artifact');
            return { key, artifactId: a.id, digest };
        },
        async finding() {
            const { key, artifactId } = await fixtures.artifact();
            const f = await must(await post('POST', `/api/v1/workspaces/${ws}/incidents/${key}/findings`,
                { name: 'cited', kind: 'supporting', statement: 'Cited.', artifactIds: [artifactId] }), 'proposing a finding');
            return { key, findingId: f.id };
        },
        async rootCause() {
            const { key, findingId } = await fixtures.finding();
            await must(await post('PUT', `/api/v1/workspaces/${ws}/incidents/${key}/root-cause`,
                { statement: 'Proposed.', confidence: 'high', findingIds: [findingId] }), 'proposing a root cause');
            return { key };
        },
        async action() {
            const key = await fixtures.incident();
            const a = await must(await post('POST', `/api/v1/workspaces/${ws}/incidents/${key}/actions`,
                { action: 'Fix.', owner: 'Edward Green', due: '2026-06-26', status: 'open' }), 'creating an action');
            return a.id;
        },
    };
    return fixtures;
}

/**
 * A POSIX ustar archive of small files, as the batch upload takes: a 512-byte header per entry (name, mode, size in
 * octal, the header's checksum), its bytes padded to 512, and two zero blocks at the end.
 */
function tarArchive(entries) {
    const blocks = [];
    for (const { name, bytes } of entries) {
        const header = Buffer.alloc(512);
        header.write(name, 0, 100, 'utf8');
        header.write('0000644\0', 100);
        header.write('0000000\0', 108);
        header.write('0000000\0', 116);
        header.write(`${bytes.length.toString(8).padStart(11, '0')}\0`, 124);
        header.write('00000000000\0', 136);
        header.write(' '.repeat(8), 148);
        header.write('0', 156);
        header.write('ustar\0', 257);
        header.write('00', 263);
        const sum = header.reduce((total, byte) => total + byte, 0);
        header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
        blocks.push(header, bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512));
    }
    blocks.push(Buffer.alloc(1024));
    return Buffer.concat(blocks);
}

/** The operations of the contract that declare the Idempotency-Key parameter, as "operationId". */
async function contractIdempotentOperations() {
    const r = await request('GET', '/q/openapi?format=json', { headers: { Accept: 'application/json' } });
    if (r.status !== 200) throw new Error(`GET /q/openapi answers ${r.status}`);
    const contract = JSON.parse(r.body);
    const takesKey = (p) => p.$ref?.endsWith('/IdempotencyKey') || p.name === 'Idempotency-Key'
        || (p.$ref && contract.components.parameters[p.$ref.split('/').pop()]?.name === 'Idempotency-Key');
    const out = [];
    for (const item of Object.values(contract.paths)) {
        for (const [method, op] of Object.entries(item)) {
            if (op && typeof op === 'object' && (op.parameters || []).some(takesKey)) out.push(op.operationId);
        }
    }
    return out.sort();
}

const keyed = (key, headers) => ({ ...headers, 'Idempotency-Key': `"${key}"` });
const send = (req, key, body = req.body, headers = req.headers) =>
    request(req.method, req.path, { body, headers: keyed(key, headers), binary: true });
const delta = (table, before) => (table ? countRows(`SELECT count(*) FROM ${table}`) : 0) - before;
const rowsOf = (table) => (table ? countRows(`SELECT count(*) FROM ${table}`) : 0);

/** A retry with the key gets the first answer again, marked; nothing happens a second time. */
async function replayOnce(name, write, problems, figures) {
    const req = await write.fresh();
    const key = crypto.randomUUID();
    const rows = rowsOf(write.table);
    const executed = countRows(EXECUTED);
    const first = await send(req, key);
    const retries = [];
    for (let i = 0; i < 2; i++) retries.push(await send(req, key));
    if (!ok(first.status) || replayed(first)) problems.push(`${name}: the first request answered ${first.status}`
        + `${replayed(first) ? ' marked replayed' : ''} ${first.body}`);
    for (const retry of retries) {
        figures.replays++;
        if (sameAnswer(first, retry) && replayed(retry)) figures.replaysIdentical++;
        else problems.push(`${name}: a retry answered ${retry.status} replayed=${replayed(retry)}, not the first answer`
            + ` ${first.status} (${answerHeaders(first) === answerHeaders(retry) ? 'same' : 'other'} headers)`);
    }
    const reused = await send(req, key, req.other, req.otherHeaders || req.headers);
    figures.reused++;
    if (isProblem(reused, 422, 'idempotency-key-reused') && !replayed(reused)) figures.reused422++;
    else problems.push(`${name}: the key with another body answered ${reused.status} ${reused.body}`);
    const effects = delta(write.table, rows);
    const runs = countRows(EXECUTED) - executed;
    if ((write.table && effects !== 1) || runs !== 1) {
        problems.push(`${name}: one request, two retries and one reuse of its key made ${effects} rows of `
            + `${write.table} and ${runs} executed writes in the audit log (expected 1 and 1)`);
    }
}

/** N identical requests with one key at once: one runs, the others get its answer or 409 in flight. */
async function concurrently(name, write, n, problems, figures) {
    const req = await write.fresh();
    const key = crypto.randomUUID();
    const rows = rowsOf(write.table);
    const executed = countRows(EXECUTED);
    const answers = await Promise.all(Array.from({ length: n }, () => send(req, key)));
    figures.concurrent += n;
    const ran = answers.filter((r) => ok(r.status) && !replayed(r));
    if (ran.length !== 1) problems.push(`${name}: ${ran.length} of ${n} concurrent requests ran (statuses `
        + `${answers.map((r) => r.status + (replayed(r) ? 'r' : '')).join(',')})`);
    for (const r of answers) {
        if (ran.length === 1 && r !== ran[0] && replayed(r) && sameAnswer(r, ran[0])) figures.concurrentReplayed++;
        else if (isProblem(r, 409, 'idempotency-key-in-flight') && r.headers?.['retry-after']) figures.concurrentInFlight++;
        else if (r !== ran[0]) problems.push(`${name}: a concurrent duplicate answered ${r.status} ${r.error || ''}`
            + `${r.body ? r.body.toString('utf8').slice(0, 200) : ''}`);
    }
    const effects = delta(write.table, rows);
    const runs = countRows(EXECUTED) - executed;
    figures.sideEffects += write.table ? effects : runs;
    if ((write.table && effects !== 1) || runs !== 1) {
        problems.push(`${name}: ${n} concurrent requests with one key made ${effects} rows of ${write.table} and ${runs} `
            + 'executed writes in the audit log (expected 1 and 1)');
    }
}

async function idempotency() {
    const n = Number(args.n || 8);
    const problems = [];
    const figures = { operations: 0, replays: 0, replaysIdentical: 0, reused: 0, reused422: 0, concurrent: 0,
        concurrentReplayed: 0, concurrentInFlight: 0, sideEffects: 0, uncovered: [] };
    const writes = idempotentWrites(idempotencyFixtures());
    const inContract = await contractIdempotentOperations();
    figures.uncovered = inContract.filter((op) => !writes[op]);
    for (const op of figures.uncovered) problems.push(`${op} takes Idempotency-Key in the contract and is not covered`);
    for (const name of Object.keys(writes).filter((op) => !inContract.includes(op))) {
        problems.push(`${name} is covered but takes no Idempotency-Key in the contract`);
    }
    for (const [name, write] of Object.entries(writes)) {
        figures.operations++;
        try {
            await replayOnce(name, write, problems, figures);
            await concurrently(name, write, n, problems, figures);
        } catch (e) {
            problems.push(`${name}: ${e.message}`);
        }
    }
    console.log(JSON.stringify({ ...figures, contract: inContract.length, problems: problems.slice(0, 20),
        problemCount: problems.length }));
    process.exitCode = problems.length ? 1 : 0;
}

const commands = { load, verify, writes, 'verify-writes': verifyWrites, 'verify-audit': verifyAudit, burst, idempotency };
const command = commands[args._[0]];
if (!command) {
    console.error(`usage: node client.mjs ${Object.keys(commands).join('|')} --base URL --token T ...`);
    process.exit(2);
}
await command();
