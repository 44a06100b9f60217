// The citation-check flood of the fault suite (case `citations`): Node 20, no npm dependencies.
//
//   node citations.mjs --base URL --token READER --other TOKEN --ws W --incident KEY --known ID,ID,...
//                      [--ids 2000] [--bytes 1048576] [--parallel 20] [--seconds 20]
//
// PARALLEL clients post the largest text a check takes (BYTES, citing IDS distinct IDs: the KNOWN ones and made-up
// ones of the incident, repeated to fill the body) with one reader token, again and again for SECONDS; meanwhile
// another caller lists the workspace's incidents, one request at a time, and times each. Prints one JSON line:
// the checks' statuses, latencies and largest answer, whether every 503 had Retry-After, and the other caller's
// statuses and latencies.
import http from 'node:http';

const args = parseArgs(process.argv.slice(2));
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const ids = Number(args.ids ?? 2000);
const bytes = Number(args.bytes ?? 1024 * 1024);
const parallel = Number(args.parallel ?? 20);
const seconds = Number(args.seconds ?? 20);

function parseArgs(argv) {
    const out = {};
    for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
    return out;
}

/** IDS distinct IDs, one per line, repeated until the text is as long as a check takes. */
function text() {
    const known = (args.known ?? '').split(',').filter(Boolean);
    const lines = [...known];
    for (let i = lines.length; i < ids; i++) lines.push(`artifact:${args.ws}:v1:${args.incident}:made-up-${i}`);
    const once = lines.map((id) => `- ${id}\n`).join('');
    let body = once;
    while (body.length + once.length <= bytes) body += once;
    return Buffer.from(body, 'utf8');
}

function request(method, path, token, body, headers = {}) {
    const started = performance.now();
    return new Promise((resolve) => {
        const req = http.request(new URL(path, args.base), {
            method, agent, timeout: 60000,
            headers: { Authorization: `Bearer ${token}`, ...headers,
                ...(body ? { 'Content-Length': body.length } : {}) },
        }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers,
                body: Buffer.concat(chunks), ms: performance.now() - started }));
            res.on('error', (e) => resolve({ status: `err:${e.code || e.message}`, ms: performance.now() - started }));
        });
        req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
        req.on('error', (e) => resolve({ status: `err:${e.code || e.message}`, ms: performance.now() - started }));
        req.end(body);
    });
}

function percentile(values, p) {
    if (values.length === 0) return null;
    const sorted = [...values].sort((a, b) => a - b);
    return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]);
}

function tally(results) {
    const statuses = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const ms = results.map((r) => r.ms);
    return { count: results.length, statuses, p50ms: percentile(ms, 50), p99ms: percentile(ms, 99),
        maxMs: ms.length ? Math.round(Math.max(...ms)) : null };
}

const body = text();
const deadline = performance.now() + seconds * 1000;
const checks = [];
let unboundedAnswers = 0;
let wrongVerdicts = 0;
let busyWithoutRetryAfter = 0;
let largestAnswer = 0;

async function checker() {
    while (performance.now() < deadline) {
        const r = await request('POST', '/api/v1/citations/check', args.token, body,
            { 'Content-Type': 'text/markdown' });
        checks.push({ status: r.status, ms: r.ms });
        if (r.status === 200) {
            largestAnswer = Math.max(largestAnswer, r.body.length);
            const verdict = JSON.parse(r.body.toString('utf8'));
            if (verdict.checked !== ids || verdict.citations.length !== ids) wrongVerdicts++;
            if (r.body.length > 512 * 1024) unboundedAnswers++;
        } else if (r.status === 503) {
            if (!r.headers['retry-after']) busyWithoutRetryAfter++;
            await new Promise((done) => setTimeout(done, 1000 * Number(r.headers['retry-after'] ?? 1)));
        }
    }
}

const other = [];
async function otherCaller() {
    while (performance.now() < deadline) {
        const r = await request('GET', `/api/v1/workspaces/${args.ws}/incidents?limit=20`, args.other);
        other.push({ status: r.status, ms: r.ms });
        await new Promise((done) => setTimeout(done, 50));
    }
}

await Promise.all([otherCaller(), ...Array.from({ length: parallel }, checker)]);
console.log(JSON.stringify({ bodyBytes: body.length, distinctIds: ids, parallel, seconds,
    checks: tally(checks), largestAnswer, unboundedAnswers, wrongVerdicts, busyWithoutRetryAfter,
    other: tally(other) }));
