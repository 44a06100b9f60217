// Summarises `jfr print` output for bench/profile.sh: CPU samples by layer (the first frame, from the leaf up, that
// belongs to a known layer), and the time request threads spent waiting, by what they waited on.
//   node bench/lib/profile-summary.mjs samples.txt waits.txt
import { readFileSync } from 'node:fs';

const LAYERS = [
  ['SHA-256 hashing', /sun\.security\.provider\.(SHA2|DigestBase|ByteArrayAccess)/],
  ['JWT verification (smallrye-jwt, jose4j, RSA)', /org\.jose4j|io\.smallrye\.jwt|sun\.security\.rsa|java\.math\.BigInteger/],
  ['Hibernate ORM', /org\.hibernate/],
  ['PostgreSQL JDBC driver', /org\.postgresql/],
  ['connection pool, JTA (Agroal, Narayana)', /io\.agroal|com\.arjuna|io\.quarkus\.narayana/],
  ['JSON (Jackson)', /com\.fasterxml\.jackson/],
  ['file and socket I/O (JDK NIO)', /sun\.nio\.ch|sun\.nio\.fs|java\.io\.File/],
  ['AWS SDK and its Apache HTTP client', /software\.amazon|org\.apache\.http/],
  ['evidence-store code', /dev\.evidencestore/],
  ['REST layer (RESTEasy Reactive)', /org\.jboss\.resteasy|io\.quarkus\.resteasy/],
  ['HTTP (Vert.x, Netty)', /io\.netty|io\.vertx/],
  ['Quarkus runtime, CDI, security, metrics', /io\.quarkus|io\.smallrye|org\.jboss|io\.micrometer/],
];

function events(text, type) {
  return text.split(new RegExp(`^${type.replace('.', '\\.')} \\{`, 'm')).slice(1);
}
function frames(event) {
  const m = event.match(/stackTrace = \[([\s\S]*?)\n {2}\]/);
  return m ? m[1].split('\n').map((l) => l.trim()).filter(Boolean) : [];
}
function duration(event) {
  const m = event.match(/duration = ([\d.]+) (ns|us|ms|s)\b/);
  if (!m) return 0;
  return Number(m[1]) * { ns: 1e-6, us: 1e-3, ms: 1, s: 1000 }[m[2]];
}
function table(title, rows, unit) {
  console.log(`\n${title}\n\n| ${unit[0]} | ${unit[1]} |\n| --- | ---: |`);
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`);
}

const [samplesFile, waitsFile] = process.argv.slice(2);
const samples = [];
for (const type of ['jdk.ExecutionSample']) {
  for (const e of events(readFileSync(samplesFile, 'utf8'), type)) samples.push(frames(e));
}
const byLayer = new Map();
for (const stack of samples) {
  let layer = 'JDK and other';
  outer: for (const f of stack) {
    for (const [name, re] of LAYERS) if (re.test(f)) { layer = name; break outer; }
  }
  byLayer.set(layer, (byLayer.get(layer) || 0) + 1);
}
table(`Java CPU samples by layer (${samples.length} samples; the first frame from the leaf up that belongs to a layer)`,
  [...byLayer].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, `${(100 * v / samples.length).toFixed(1)}%`]),
  ['layer', 'share']);

// waits of threads serving requests and of the audit writer; idle pool threads waiting for work are left out
const IDLE = /EnhancedQueueExecutor\$PoolThreadNode\.park|NioEventLoop\.select|AuditWriter\.run\(\) line|ScheduledThreadPoolExecutor|LinkedBlockingQueue\.take/;
const waits = new Map();
const waitsText = readFileSync(waitsFile, 'utf8');
for (const type of ['jdk.ThreadPark', 'jdk.FileForce', 'jdk.SocketRead', 'jdk.JavaMonitorEnter']) {
  for (const e of events(waitsText, type)) {
    const stack = frames(e);
    if (stack.some((f) => IDLE.test(f)) && !stack.some((f) => /dev\.evidencestore/.test(f) && !/AuditWriter\.run/.test(f))) continue;
    const ours = stack.find((f) => /dev\.evidencestore/.test(f)) || stack.find((f) => !/^(java|jdk|sun)\./.test(f));
    if (!ours) continue; // JDK threads only: idle pools
    const key = `${type.replace('jdk.', '')} in ${ours.replace(/\(.*$/, '')}`;
    const w = waits.get(key) || { ms: 0, n: 0 };
    w.ms += duration(e); w.n += 1;
    waits.set(key, w);
  }
}
table('Waits above JFR\'s thresholds (10-20 ms; shorter ones are not recorded), by the first evidence-store frame',
  [...waits].sort((a, b) => b[1].ms - a[1].ms).slice(0, 10)
    .map(([k, w]) => [k, `${(w.ms / 1000).toFixed(1)} s in ${w.n} waits (mean ${(w.ms / w.n).toFixed(1)} ms)`]),
  ['wait', 'total']);
