// Long polls: GET /lists latency while many `GET /__admin/requests/wait` are pending over a full
// journal of 64 KiB bodies, against the same fake with none pending; then while bursts of as many
// waits with a body filter that never matches (each first scans the whole journal's bodies) are
// asked every second, the worst case of the first scans' shared budget.
// `node bench/waits.mjs [--waits 500] [--seconds 8]`: prints one JSON object (bench/run.mjs
// includes it).
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: { waits: { type: 'string' }, seconds: { type: 'string' } },
});
const WAITS = Number(values.waits ?? 500);
const SECONDS = Number(values.seconds ?? process.env.BENCH_SECONDS ?? 8);
const AUTH = `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`;
const BODY = JSON.stringify({
  emailAddress: 'not an address',
  firstName: 'x'.repeat(64 * 1024 - 50),
});
const LISTS = { method: 'GET', path: '/marketing/v1/lists', headers: { authorization: AUTH } };

const log = (message) => process.stderr.write(`${message}\n`);

function startFake() {
  const script = fileURLToPath(new URL('servers/fake.mjs', import.meta.url));
  const child = fork(script, ['0'], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ url: message.ready, child }));
    child.once('exit', (code) => reject(new Error(`the fake exited with ${code}`)));
  });
}

/** Fills the journal (1000 entries by default) with exchanges whose request body is 64 KiB. */
async function fillJournal(url) {
  let sent = 0;
  const worker = async () => {
    while (sent < 1000) {
      sent += 1;
      const response = await fetch(`${url}/marketing/v1/lists/1/contacts`, {
        method: 'PUT',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: BODY,
      });
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

/** Opens a long poll that nothing will answer; resolves with its status once it has one. */
function longPoll(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/__admin/requests/wait?path=/nothing/**&timeoutMs=60000',
        agent: false,
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode, req });
      },
    );
    req.on('error', () => resolve({ status: 0, req }));
    req.end();
    // Pending polls never answer: resolve them as pending after a moment.
    setTimeout(() => resolve({ status: 'pending', req }), 2000);
  });
}

/**
 * GET /lists latency, one request every 20 ms, while a worker thread asks `WAITS` waits with a
 * never-matching body filter at once, every second. The bursts come from another thread so that
 * making 500 connections does not delay this thread's timing; the GETs are paced so that the
 * journal keeps most of its large bodies for the waits to scan.
 */
async function latencyUnderBursts(url) {
  const worker = new Worker(fileURLToPath(new URL('wait-bursts.mjs', import.meta.url)), {
    workerData: { url, waits: WAITS, timeoutMs: 1000 },
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times = [];
  const until = performance.now() + SECONDS * 1000;
  while (performance.now() < until) {
    const begun = performance.now();
    const status = await new Promise((resolve, reject) => {
      const { hostname, port } = new URL(url);
      request({ host: hostname, port, agent, ...LISTS }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      })
        .on('error', reject)
        .end();
    });
    if (status !== 200) throw new Error(`GET /lists answered ${status}`);
    const ms = performance.now() - begun;
    times.push(ms);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20 - ms)));
  }
  agent.destroy();
  worker.postMessage('stop');
  const statuses = await new Promise((resolve) => worker.once('message', resolve));
  await worker.terminate();
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]);
  return {
    requests: times.length,
    p50: at(0.5),
    p99: at(0.99),
    max: Math.round(times.at(-1)),
    statuses,
  };
}

async function latency(url) {
  const options = { url: url + LISTS.path, connections: 8, headers: LISTS.headers };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  if (result.non2xx + result.errors + result.timeouts > 0) {
    throw new Error(`GET /lists failed: non-2xx ${result.non2xx}, errors ${result.errors}`);
  }
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
  };
}

const { url, child } = await startFake();
await fillJournal(url);
const idle = await latency(url);
log(`  GET /lists, no wait pending: p99 ${idle.p99} ms`);
const polls = await Promise.all(Array.from({ length: WAITS }, () => longPoll(url)));
const statuses = {};
for (const { status } of polls) statuses[status] = (statuses[status] ?? 0) + 1;
const waiting = await latency(url);
log(`  GET /lists, ${WAITS} waits asked (${JSON.stringify(statuses)}): p99 ${waiting.p99} ms`);
for (const { req } of polls) req.destroy();
await fillJournal(url);
const bodyFilters = await latencyUnderBursts(url);
log(
  `  GET /lists, ${WAITS} body-filter waits a second (${JSON.stringify(bodyFilters.statuses)}): ${bodyFilters.requests} GETs, p99 ${bodyFilters.p99} ms, max ${bodyFilters.max} ms`,
);
child.kill('SIGTERM');
process.stdout.write(`${JSON.stringify({ waits: WAITS, statuses, idle, waiting, bodyFilters })}\n`);
