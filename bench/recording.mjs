// Recording's cost alone, shorter than `npm run bench`: the same fake with the journal on (the
// default) and off, in alternating rounds, GET /lists and add-by-email. Besides req/s it reports
// the server's CPU time per request (Linux, /proc/<pid>/schedstat), which a busy shared machine
// disturbs far less than throughput, and the bytes the young-generation collections copied per
// request (V8's --trace-gc-nvp: `new_space_survived` plus `promoted`), which it does not disturb
// at all: what an entry holds while it is young is what recording costs the garbage collector.
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
  const child = fork(SERVER, ['0'], {
    env: { ...process.env, ...env },
    execArgv: ['--trace-gc-nvp'],
    stdio: ['ignore', 'pipe', 'ignore', 'ipc'],
  });
  // Bytes the scavenges copied so far: survivors kept young, and survivors promoted.
  const gc = { copied: 0 };
  let partial = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      if (!line.includes(' gc=s ')) continue;
      const survived = Number(/ new_space_survived=(\d+)/.exec(line)?.[1] ?? 0);
      const promoted = Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      gc.copied += survived + promoted;
    }
  });
  return new Promise((resolve) => {
    child.once('message', (message) => resolve({ url: message.ready, child, gc }));
  });
}

/** Nanoseconds the process has run on a CPU. */
const cpuNs = (pid) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);

async function load(url, pid, gc, request) {
  await autocannon({ url, connections: 32, duration: 1, requests: [request] });
  const before = cpuNs(pid);
  const copiedBefore = gc.copied;
  const result = await autocannon({ url, connections: 32, duration: SECONDS, requests: [request] });
  const cpu = cpuNs(pid) - before;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`non-2xx or errors at ${url}`);
  const total = result.requests.total;
  return {
    rps: result.requests.average,
    cpuUs: cpu / 1000 / total,
    gcBytes: (gc.copied - copiedBefore) / total,
  };
}

const results = {};
for (let round = 1; round <= ROUNDS; round += 1) {
  for (const [label, env] of [
    ['on', {}],
    ['off', { FAKE_JOURNAL_SIZE: '0' }],
  ]) {
    const { url, child, gc } = await start(env);
    for (const [scenario, request] of Object.entries(SCENARIOS)) {
      const { rps, cpuUs, gcBytes } = await load(url, child.pid, gc, request);
      results[scenario] ??= { on: [], off: [], cpuOn: [], cpuOff: [], gcOn: [], gcOff: [] };
      const mine = results[scenario];
      mine[label].push(rps);
      mine[label === 'on' ? 'cpuOn' : 'cpuOff'].push(cpuUs);
      mine[label === 'on' ? 'gcOn' : 'gcOff'].push(gcBytes);
      process.stderr.write(
        `round ${round} ${scenario} recording ${label}: ${Math.round(rps)} req/s, ${cpuUs.toFixed(1)} µs CPU/request, ${Math.round(gcBytes)} bytes copied by scavenges/request\n`,
      );
    }
    child.kill('SIGTERM');
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [scenario, { on, off, cpuOn, cpuOff, gcOn, gcOff }] of Object.entries(results)) {
  console.log(
    `${scenario}: on ${Math.round(median(on))} req/s, off ${Math.round(median(off))} req/s, on/off ${(median(on) / median(off)).toFixed(3)} (rounds on ${on.map(Math.round).join(', ')}; off ${off.map(Math.round).join(', ')}); CPU per request on ${median(cpuOn).toFixed(1)} µs, off ${median(cpuOff).toFixed(1)} µs, off/on ${(median(cpuOff) / median(cpuOn)).toFixed(3)}; bytes copied by scavenges per request on ${Math.round(median(gcOn))}, off ${Math.round(median(gcOff))}`,
  );
}
