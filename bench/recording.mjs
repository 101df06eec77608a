// Recording's cost alone, shorter than `npm run bench`: the same fake with the journal on (the
// default) and off, in alternating rounds, GET /lists and add-by-email. Besides req/s it reports
// the server's CPU time per request (Linux, /proc/<pid>/schedstat), which a busy shared machine
// disturbs far less than throughput.
//
//   npm run build && BENCH_SECONDS=5 BENCH_ROUNDS=3 node bench/recording.mjs
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const AUTH = `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`;
const SERVER = fileURLToPath(new URL('servers/fake.mjs', import.meta.url));
const SCENARIOS = {
  listsJson: { method: 'GET', path: '/marketing/v1/lists', headers: { authorization: AUTH } },
  addByEmail: {
    method: 'PUT',
    path: '/marketing/v1/lists/1/contacts',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: '{"emailAddress":"ann.adams@example.com"}',
  },
};

function start(env) {
  const child = fork(SERVER, ['0'], { env: { ...process.env, ...env }, stdio: 'ignore' });
  return new Promise((resolve) => {
    child.once('message', (message) => resolve({ url: message.ready, child }));
  });
}

/** Nanoseconds the process has run on a CPU. */
const cpuNs = (pid) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

async function load(url, pid, request) {
  await autocannon({ url, connections: 32, duration: 1, requests: [request] });
  const before = cpuNs(pid);
  const result = await autocannon({ url, connections: 32, duration: SECONDS, requests: [request] });
  const cpu = cpuNs(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`non-2xx or errors at ${url}`);
  return { rps: result.requests.average, cpuUs: cpu / 1000 / result.requests.total };
}

const results = {};
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const [label, env] of [
    ['on', {}],
    ['off', { FAKE_JOURNAL_SIZE: '0' }],
  ]) {
    const { url, child } = await start(env);
    for (const [scenario, request] of Object.entries(SCENARIOS)) {
      const { rps, cpuUs } = await load(url, child.pid, request);
      results[scenario] ??= { on: [], off: [], cpuOn: [], cpuOff: [] };
      const mine = results[scenario];
      mine[label].push(rps);
      mine[label === 'on' ? 'cpuOn' : 'cpuOff'].push(cpuUs);
      process.stderr.write(
        `round ${round} ${scenario} recording ${label}: ${Math.round(rps)} req/s, ${cpuUs.toFixed(1)} µs CPU/request\n`,
      );
    }
    child.kill('SIGTERM');
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [scenario, { on, off, cpuOn, cpuOff }] of Object.entries(results)) {
  console.log(
    `${scenario}: on ${Math.round(median(on))} req/s, off ${Math.round(median(off))} req/s, on/off ${(median(on) / median(off)).toFixed(3)} (rounds on ${on.map(Math.round).join(', ')}; off ${off.map(Math.round).join(', ')}); CPU per request on ${median(cpuOn).toFixed(1)} µs, off ${median(cpuOff).toFixed(1)} µs, off/on ${(median(cpuOff) / median(cpuOn)).toFixed(3)}`,
  );
}
