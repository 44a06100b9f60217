// Shared by the benchmark's Node clients: a keep-alive HTTP client with no dependencies, and small helpers.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** Parses `--name value` arguments into an object; every value is a string. */
export function args(argv = process.argv.slice(2)) {
    const out = {};
    for (let i = 0; i < argv.length; i += 2) {
        if (!argv[i].startsWith('--') || i + 1 >= argv.length) {
            throw new Error(`expected --name value pairs, got ${argv.slice(i).join(' ')}`);
        }
        out[argv[i].slice(2)] = argv[i + 1];
    }
    return out;
}

/** A client for one base URL and bearer token, keeping up to `sockets` connections alive. */
export function client(base, token, sockets = 16) {
    const url = new URL(base);
    const agent = new http.Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
    /** Sends one request; resolves to {status, headers, body (Buffer)}; never rejects on an HTTP status. */
    function request(method, path, { body, contentType, accept, headers = {} } = {}) {
        return new Promise((resolve, reject) => {
            const h = { Authorization: `Bearer ${token}`, ...headers };
            if (accept) h.Accept = accept;
            if (body !== undefined) {
                h['Content-Type'] = contentType;
                h['Content-Length'] = Buffer.byteLength(body);
            }
            const req = http.request({ host: url.hostname, port: url.port, method, path, agent, headers: h }, (res) => {
                const chunks = [];
                res.on('data', (c) => chunks.push(c));
                res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
                res.on('error', reject);
            });
            req.on('error', reject);
            req.end(body);
        });
    }
    /** Like request, but the status must be one of `ok`; answers 503 are retried after their Retry-After. */
    async function expect(ok, method, path, options) {
        for (let attempt = 0; ; attempt++) {
            const res = await request(method, path, options);
            if (res.status === 503 && attempt < 20) {
                stats.retries503++;
                const wait = Number(res.headers['retry-after'] ?? 1);
                await new Promise((r) => setTimeout(r, Math.min(wait, 5) * 1000));
                continue;
            }
            if (!ok.includes(res.status)) {
                const err = new Error(`${method} ${path} answered ${res.status}: ${res.body.toString().slice(0, 500)}`);
                err.status = res.status;
                throw err;
            }
            return res;
        }
    }
    const stats = { retries503: 0 };
    return { request, expect, stats, close: () => agent.destroy() };
}

export const json = (value) => ({ body: JSON.stringify(value), contentType: 'application/json' });

/** The p-th percentile (0..100) of an ascending array, nearest rank. */
export function percentile(sorted, p) {
    if (sorted.length === 0) return NaN;
    const rank = Math.ceil((p / 100) * sorted.length);
    return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/**
 * Runs `worker(i)` for i in [0, count) with `concurrency` at a time; the first error stops the run, and so does the
 * clock at `deadline` (a performance.now() value): nothing new starts after it. Resolves to how many were started.
 */
export async function pool(count, concurrency, worker, deadline = Infinity) {
    let next = 0;
    let failure;
    async function lane() {
        while (failure === undefined && next < count && performance.now() < deadline) {
            const i = next++;
            try {
                await worker(i);
            } catch (e) {
                failure ??= e;
            }
        }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
    if (failure !== undefined) throw failure;
    return next;
}

export function incident(key, title) {
    return {
        key, title, severity: 'SEV-2', status: 'investigating', services: ['Checkout API'], regions: ['EU West'],
        impactStart: '2026-06-18T09:00:00Z', commander: 'Bench Commander', responders: ['Bench Responder'],
        reviewOwner: 'Bench Reviewer',
    };
}

export function artifact(name, digest, mediaType) {
    return {
        name, digest, mediaType, source: 'bench', kind: 'snapshot', capturedAt: '2026-06-18T10:20:00Z',
        description: 'Benchmark evidence', capture: { collector: 'bench/run.sh' },
    };
}
