// Long polls: GET /lists latency while many `GET /__admin/requests/wait` are pending over a full
// journal of 64 KiB bodies, against the same fake with none pending.
// `node bench/waits.mjs [--waits 500] [--seconds 8]`: prints one JSON object (bench/run.mjs
// includes it).
import { fork } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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
child.kill('SIGTERM');
process.stdout.write(`${JSON.stringify({ waits: WAITS, statuses, idle, waiting })}\n`);
