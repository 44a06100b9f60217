// The readers fault case's client (faults/cases/readers.sh): Node 20, no npm dependencies.
//
//   node readers.mjs --base URL --content PATH --size BYTES --token T --ws W --incident KEY
//                    [--stalled 64] [--seconds 20] [--hold 40]
//       opens --stalled anonymous connections, each from its own loopback address, that each send GET PATH and
//       never read; meanwhile, for --seconds, a writer (authenticated small blob uploads), a metadata reader (GET
//       the workspace's incidents) and a health probe (GET /q/health/live) each send one request after the other and
//       time it. Then, --hold seconds after the stalled connections opened, it reads what each still has: one the
//       server cut ends short of --size.
//       Prints one JSON line of figures.
import net from 'node:net';
import crypto from 'node:crypto';

const args = parseArgs(process.argv.slice(2));
const base = new URL(args.base);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function parseArgs(argv) {
    const out = {};
    for (let i = 0; i < argv.length; i += 2) out[argv[i].replace(/^--/, '')] = argv[i + 1];
    return out;
}

/**
 * A connection that asks for the content and then reads nothing until told to. Each comes from an address of its
 * own on the loopback network (127.0.1.1, 127.0.1.2, ...), as a crowd of clients would, so that the per-client cap
 * does not turn them away and the download budget is what protects the others, who call from 127.0.0.1.
 */
function stalledReader(path, i) {
    return new Promise((resolve) => {
        const localAddress = `127.0.${1 + Math.floor(i / 250)}.${1 + (i % 250)}`;
        const socket = net.connect({ host: base.hostname, port: Number(base.port), localAddress });
        const reader = { socket, received: 0, ended: false, error: null, head: '' };
        socket.on('connect', () => {
            socket.write(`GET ${path} HTTP/1.1\r\nHost: ${base.host}\r\n\r\n`);
            // never read: the kernel's buffers fill, then the server's writes block
            socket.pause();
            resolve(reader);
        });
        socket.on('data', (chunk) => {
            reader.received += chunk.length;
            if (reader.head.length < 64) reader.head += chunk.toString('latin1', 0, 64);
        });
        socket.on('end', () => { reader.ended = true; });
        socket.on('close', () => { reader.ended = true; });
        socket.on('error', (e) => { reader.error = e.code || String(e); reader.ended = true; });
    });
}

/** The status of the answer a connection got, 0 while none came. */
const statusOf = (reader) => Number((/^HTTP\/1\.1 (\d{3})/.exec(reader.head) || [])[1] || 0);

/**
 * Reads what a stalled connection still has, for up to ten seconds: whether the server ended the download early.
 * A refusal (503, kept alive as HTTP/1.1 allows) is known by its status line and not waited for.
 */
async function drain(reader) {
    reader.socket.resume();
    const deadline = Date.now() + 10000;
    const downloading = () => [0, 200].includes(statusOf(reader));
    while (!reader.ended && downloading() && Date.now() < deadline) await sleep(50);
    reader.status = statusOf(reader);
    reader.socket.destroy();
    return reader;
}

async function timed(label, send, stopAt, samples) {
    while (Date.now() < stopAt) {
        const started = performance.now();
        let status = 0;
        try {
            const res = await send();
            status = res.status;
            await res.arrayBuffer();
        } catch (e) {
            status = 0;
        }
        samples.push({ label, status, ms: performance.now() - started });
        await sleep(50);
    }
}

function figures(samples, label, ok) {
    const mine = samples.filter((s) => s.label === label);
    const ms = mine.map((s) => s.ms).sort((a, b) => a - b);
    const at = (q) => ms.length ? Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]) : null;
    const statuses = {};
    for (const s of mine) statuses[s.status] = (statuses[s.status] || 0) + 1;
    return { n: mine.length, failed: mine.filter((s) => !ok(s.status)).length, statuses,
        p50ms: at(0.5), p99ms: at(0.99), maxMs: ms.length ? Math.round(ms[ms.length - 1]) : null };
}

const auth = { Authorization: `Bearer ${args.token}` };
const timeout = () => AbortSignal.timeout(10000);
const upload = () => fetch(new URL('/api/v1/blobs', base), {
    method: 'POST', signal: timeout(), body: crypto.randomBytes(512),
    headers: { ...auth, 'Content-Type': 'application/octet-stream' } });
const incidents = () => fetch(new URL(`/api/v1/workspaces/${args.ws}/incidents?limit=20`, base),
    { signal: timeout(), headers: auth });
const live = () => fetch(new URL('/q/health/live', base), { signal: timeout() });

const stalledCount = Number(args.stalled || 64);
const opened = Date.now();
const readers = await Promise.all(Array.from({ length: stalledCount }, (_, i) => stalledReader(args.content, i)));
// let the stalled responses fill what they can before measuring
await sleep(2000);
const samples = [];
const stopAt = Date.now() + Number(args.seconds || 20) * 1000;
await Promise.all([timed('write', upload, stopAt, samples), timed('read', incidents, stopAt, samples),
    timed('live', live, stopAt, samples)]);
const holdUntil = opened + Number(args.hold || 40) * 1000;
if (Date.now() < holdUntil) await sleep(holdUntil - Date.now());
const drained = await Promise.all(readers.map(drain));
const size = Number(args.size);
console.log(JSON.stringify({
    stalled: stalledCount,
    // turned away by admission: the download budget was taken
    refused: drained.filter((r) => r.status === 503).length,
    // ended by the server before the whole body: what the stalled transfer timeout does
    cutShort: drained.filter((r) => r.status === 200 && r.ended && r.received < size).length,
    complete: drained.filter((r) => r.received >= size).length,
    open: drained.filter((r) => r.status === 200 && !r.ended).length,
    other: drained.filter((r) => ![200, 503].includes(r.status)).length,
    write: figures(samples, 'write', (s) => s === 201 || s === 200),
    read: figures(samples, 'read', (s) => s === 200),
    live: figures(samples, 'live', (s) => s === 200),
}));
