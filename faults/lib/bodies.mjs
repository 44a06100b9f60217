// Client of faults/cases/bodies.sh: Node 20, no npm dependencies.
//
//   node bodies.mjs --base URL --token T --ws W --n 50 --size 1048576 [--keyed] [--timeout 60000]
//       N POST .../incidents released at once, each a valid incident whose JSON body is just under --size bytes
//       (its contributing factors fill it), with a fresh Idempotency-Key each when --keyed. Prints one JSON line:
//       statuses (by code; "err:CODE" for a request that got no answer), 503s without Retry-After or not
//       service-busy, errors that are not problem+json, and the seconds the whole burst took.
import http from 'node:http';
import crypto from 'node:crypto';

const args = parseArgs(process.argv.slice(2));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

function parseArgs(argv) {
    const out = {};
    for (let i = 0; i < argv.length; i++) {
        const key = argv[i].slice(2);
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) out[key] = true; else { out[key] = next; i++; }
    }
    return out;
}

/** A valid incident as close under `size` bytes as 20,000-character factors allow (at most 100 of them). */
function body(key, size) {
    const head = { key, title: 'max-size body', severity: 'SEV-3', contributingFactors: [] };
    const factor = 'f'.repeat(20000);
    while (head.contributingFactors.length < 100
        && Buffer.byteLength(JSON.stringify(head)) + factor.length + 3 <= size) {
        head.contributingFactors.push(factor);
    }
    return JSON.stringify(head);
}

function post(path, payload, headers, timeout) {
    return new Promise((resolve) => {
        const req = http.request(new URL(path, args.base), {
            method: 'POST', agent, timeout,
            headers: { Authorization: `Bearer ${args.token}`, 'Content-Type': 'application/json',
                'Content-Length': Buffer.byteLength(payload), ...headers },
        }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers,
                text: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', (e) => resolve({ status: 0, error: e.code || String(e) }));
        });
        req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
        req.on('error', (e) => resolve({ status: 0, error: e.code || String(e) }));
        req.end(payload);
    });
}

async function main() {
    const n = Number(args.n || 50);
    const size = Number(args.size || 1048576);
    const timeout = Number(args.timeout || 60000);
    const run = crypto.randomBytes(3).toString('hex').toUpperCase();
    const bodies = [];
    for (let i = 0; i < n; i++) bodies.push(body(`BODY${run}-${i + 1}`, size));
    const started = performance.now();
    const answers = await Promise.all(bodies.map((payload) => post(`/api/v1/workspaces/${args.ws}/incidents`, payload,
        args.keyed ? { 'Idempotency-Key': `"${crypto.randomUUID()}"` } : {}, timeout)));
    const seconds = (performance.now() - started) / 1000;
    const statuses = {};
    let busyWithoutRetryAfter = 0, errorsNotProblemJson = 0, otherServiceUnavailable = 0;
    const details = {};
    for (const a of answers) {
        const key = a.status === 0 ? `err:${a.error}` : String(a.status);
        statuses[key] = (statuses[key] || 0) + 1;
        if (a.status >= 400) {
            let problem = null;
            try { problem = JSON.parse(a.text); } catch { /* counted below */ }
            if (!String(a.headers['content-type']).startsWith('application/problem+json') || !problem) {
                errorsNotProblemJson++;
                continue;
            }
            const type = String(problem.type).split('/').pop();
            details[`${a.status} ${type}: ${problem.detail}`] = (details[`${a.status} ${type}: ${problem.detail}`] || 0) + 1;
            if (a.status === 503 && type !== 'service-busy') otherServiceUnavailable++;
            if (a.status === 503 && !a.headers['retry-after']) busyWithoutRetryAfter++;
        }
    }
    console.log(JSON.stringify({ n, bodyBytes: Buffer.byteLength(bodies[0]), keyed: Boolean(args.keyed), statuses,
        busyWithoutRetryAfter, otherServiceUnavailable, errorsNotProblemJson, details, seconds: Number(seconds.toFixed(2)) }));
}

main();
