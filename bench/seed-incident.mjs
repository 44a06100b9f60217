// Builds an incident whose postmortem, manifest and bundle the benchmark then times: --artifacts random blobs of
// --artifact-size bytes, each verified once, --findings proposed findings citing two artifacts each, --timeline
// entries citing one artifact each, a proposed root cause and a few actions. Prints {seconds, ...} as JSON.
//
//   node bench/seed-incident.mjs --base http://127.0.0.1:18481 --token JWT --incident PM-1 [--workspace bench]
//        [--artifacts 200] [--artifact-size 65536] [--findings 100] [--timeline 50] [--concurrency 8]
//
// The token needs the roles collector, investigator and reviewer.
import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { args, artifact, client, incident, json, pool } from './lib.mjs';

const a = args();
const ws = a.workspace ?? 'bench';
const key = a.incident;
const artifacts = Number(a.artifacts ?? 200);
const artifactSize = Number(a['artifact-size'] ?? 65536);
const findings = Number(a.findings ?? 100);
const timeline = Number(a.timeline ?? 50);
const concurrency = Number(a.concurrency ?? 8);
const api = client(a.base, a.token, concurrency);
const inc = `/api/v1/workspaces/${ws}/incidents/${key}`;
const artifactId = (i) => `artifact:${ws}:v1:${key}:evidence-${String(i).padStart(3, '0')}`;
const prose = (n, what) => Array.from({ length: n }, (_, i) => `${what} ${i + 1}: the webhook batch size change ` +
    'raised queue depth and retries; the rollback brought both back within the hour.');

const start = performance.now();
await api.expect([201], 'POST', `/api/v1/workspaces/${ws}/incidents`, json({
    ...incident(key, 'Checkout latency and webhook delays (benchmark record)'),
    impactEnd: '2026-06-18T10:24:00Z',
    summary: prose(3, 'Summary').join(' '),
    investigationQuestion: 'Why did checkout latency and webhook delivery degrade after 08:52?',
    impact: prose(2, 'Impact').join(' '),
    contributingFactors: prose(5, 'Factor'),
    wentWell: prose(3, 'Went well'),
    madeHarder: prose(3, 'Made harder'),
    detectionGap: 'Queue depth had no alert.',
}));

await pool(artifacts, concurrency, async (i) => {
    const body = randomBytes(artifactSize);
    const digest = 'sha256:' + createHash('sha256').update(body).digest('hex');
    await api.expect([201], 'PUT', `/api/v1/blobs/${digest}`, { body, contentType: 'application/octet-stream' });
    await api.expect([201], 'POST', `${inc}/artifacts`,
        json(artifact(`evidence-${String(i).padStart(3, '0')}`, digest, 'application/octet-stream')));
    const v = await api.expect([201], 'POST', `/api/v1/artifacts/${artifactId(i)}/verifications`,
        json({ digest }));
    if (JSON.parse(v.body).verified !== true) throw new Error(`verification of ${artifactId(i)} failed: ${v.body}`);
});

await pool(findings, concurrency, async (i) => {
    await api.expect([201], 'POST', `${inc}/findings`, json({
        name: `finding-${String(i).padStart(3, '0')}`,
        kind: i % 5 === 4 ? 'negative' : 'supporting',
        statement: `Finding ${i + 1}: queue depth and retry rate on shard ${i} rose after the deployment and fell after the rollback.`,
        artifactIds: [artifactId((2 * i) % artifacts), artifactId((2 * i + 1) % artifacts)],
    }));
});

await pool(timeline, concurrency, async (i) => {
    const at = new Date(Date.parse('2026-06-18T09:00:00Z') + i * 60_000).toISOString().replace('.000Z', 'Z');
    await api.expect([201], 'POST', `${inc}/timeline`, json({
        at, event: `Timeline entry ${i + 1}: responders looked at shard ${i}.`, artifactIds: [artifactId(i % artifacts)],
    }));
});

await api.expect([200, 201], 'PUT', `${inc}/root-cause`, json({
    statement: 'The 08:52 deployment raised the webhook batch size from 50 to 500.', confidence: 'high',
    findingIds: Array.from({ length: Math.min(findings, 10) }, (_, i) => `finding:${ws}:v1:${key}:finding-${String(i).padStart(3, '0')}`),
}));
for (let i = 0; i < 5; i++) {
    await api.expect([201], 'POST', `${inc}/actions`, json({
        action: `Follow-up ${i + 1}: alert on webhook queue depth.`, owner: 'Bench Owner', due: '2026-07-01', status: 'open',
    }));
}

console.log(JSON.stringify({ incident: key, artifacts, artifactSize, findings, timeline,
    seconds: Math.round((performance.now() - start) / 100) / 10 }));
api.close();
