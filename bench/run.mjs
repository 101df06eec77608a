// `npm run bench`: the fake against a bare fastify server and against other mock servers over
// real sockets, then in-process figures, start-up, the journal, record and replay, and tenants
// (bench/tenants.mjs); writes bench/RESULTS.md. Loopback only, bounded in time.
//
//   BENCH_SECONDS=6 BENCH_WARMUP=2 BENCH_CONNECTIONS=32 BENCH_ROUNDS=5 BENCH_SKIP_PEERS=1 npm run bench
import { execFileSync, fork, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createFakeMarketingServer } from '../dist/index.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SKIP_PEERS = process.env.BENCH_SKIP_PEERS === '1';
// Five rounds, not three: the same build's processes differ by up to 15 % here, one process
// against another, and the median of three let one slow process decide a ratio.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SERVER_ID = 12345;
const KEY = 'sandbox-key-12345';
const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;
const JSON_TYPE = 'application/json; charset=utf-8';
const XML_TYPE = 'text/xml; charset=utf-8';
const PUT_BODY = '{"emailAddress":"ann.adams@example.com"}';

const log = (message) => process.stderr.write(`${message}\n`);

/** The exact bytes the fake answers, so every other server can answer the same. */
async function expectedAnswers() {
  const fake = await createFakeMarketingServer({ seed: join(ROOT, 'fixtures', 'default.json') });
  const get = (accept) =>
    fake.inject({ url: '/marketing/v1/lists', headers: { authorization: AUTH, accept } });
  const put = await fake.inject({
    method: 'PUT',
    url: '/marketing/v1/lists/1/contacts',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    payload: PUT_BODY,
  });
  const answers = {
    listsJson: (await get('application/json')).body,
    listsXml: (await get('text/xml')).body,
    membership: put.body,
  };
  await fake.close();
  return answers;
}

/** Starts a node script that reports `{ ready: url }` over IPC. */
function startNode(script, args = [], env = {}) {
  const child = fork(join(HERE, script), args, {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message) =>
      resolve({ url: message.ready, pid: child.pid, stop: () => stopChild(child) }),
    );
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Starts a command-line server and waits until `probe` answers 200. */
async function startCommand(command, args, probe, headers = {}) {
  // Its own process group: WireMock's launcher starts java, which must stop with it.
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(probe, { headers });
      if (response.ok) return { url: new URL(probe).origin, stop: () => stopChild(child) };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`${command} did not answer ${probe} within 60 s`);
}

function stopChild(child) {
  const signal = (name) => {
    try {
      // A detached child leads its own process group: signal the whole group.
      if (child.spawnargs && child.pid) process.kill(-child.pid, name);
    } catch {
      child.kill(name);
    }
  };
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    signal('SIGTERM');
    setTimeout(() => signal('SIGKILL'), 5000).unref();
  });
}

/**
 * Nanoseconds the process has run on a CPU, all its threads (Linux: /proc/<pid>/schedstat);
 * undefined where there is no such file.
 */
function cpuNs(pid) {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

/**
 * One autocannon run after a warm-up; fails loudly on any non-2xx or error. Given the server's
 * pid, it also reports the server's CPU time per request: on 2 cores the load generator takes one,
 * so throughput moves with it, where the server's own CPU time per request does not.
 */
async function load(name, url, request, pid) {
  const options = {
    url: url + request.path,
    connections: CONNECTIONS,
    method: request.method,
    headers: request.headers,
    body: request.body,
  };
  await autocannon({ ...options, duration: WARMUP });
  const cpuBefore = pid === undefined ? undefined : cpuNs(pid);
  const result = await autocannon({ ...options, duration: SECONDS });
  const cpuAfter = pid === undefined ? undefined : cpuNs(pid);
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0 || result.requests.total === 0)
    throw new Error(
      `${name}: ${bad} failed requests (non-2xx ${result.non2xx}, errors ${result.errors})`,
    );
  const cpuUs =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : Math.round(((cpuAfter - cpuBefore) / 1000 / result.requests.total) * 100) / 100;
  log(
    `  ${name.padEnd(34)} ${Math.round(result.requests.average).toString().padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms${cpuUs === undefined ? '' : `  ${cpuUs} µs CPU/request`}`,
  );
  return {
    name,
    cpuUs,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

const SCENARIOS = {
  listsJson: {
    method: 'GET',
    path: '/marketing/v1/lists',
    headers: { authorization: AUTH, accept: 'application/json' },
  },
  listsXml: {
    method: 'GET',
    path: '/marketing/v1/lists',
    headers: { authorization: AUTH, accept: 'text/xml' },
  },
  addByEmail: {
    method: 'PUT',
    path: '/marketing/v1/lists/1/contacts',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: PUT_BODY,
  },
};

async function socketBenchmarks(answers) {
  const bareRoutes = {
    username: String(SERVER_ID),
    password: KEY,
    routes: [
      {
        method: 'GET',
        url: '/marketing/v1/lists',
        answers: {
          'application/json': [JSON_TYPE, answers.listsJson],
          'text/xml': [XML_TYPE, answers.listsXml],
        },
      },
      {
        method: 'PUT',
        url: '/marketing/v1/lists/:listId/contacts',
        answers: { 'application/json': [JSON_TYPE, answers.membership] },
      },
    ],
  };
  // Rounds alternate the two servers, and each row reports the median round: on a small shared
  // machine one run moves by up to 20 %, and that must not decide a ratio.
  const runs = [];
  log(`Over a real socket (HTTP/1.1 on loopback, keep-alive), ${ROUNDS} alternating rounds:`);
  const servers = [
    ['fake', 'servers/fake.mjs', {}],
    ['fake, recording off', 'servers/fake.mjs', { FAKE_JOURNAL_SIZE: '0' }],
    ['bare fastify + basic-auth', 'servers/bare.mjs', { BARE_ROUTES: JSON.stringify(bareRoutes) }],
  ];
  for (let round = 1; round <= ROUNDS; round++) {
    // Every other round in the reverse order, so that no server always runs first, or last, of a
    // round while the machine drifts.
    for (const [label, script, env] of round % 2 === 1 ? servers : [...servers].reverse()) {
      const server = await startNode(script, ['0'], env);
      for (const [scenario, request] of Object.entries(SCENARIOS)) {
        const result = await load(
          `${label} ${scenario} (round ${round})`,
          server.url,
          request,
          server.pid,
        );
        runs.push({ server: label, scenario, ...result });
      }
      await server.stop();
    }
  }
  const rows = [];
  for (const server of ['fake', 'fake, recording off', 'bare fastify + basic-auth']) {
    for (const scenario of Object.keys(SCENARIOS)) {
      const mine = runs.filter((run) => run.server === server && run.scenario === scenario);
      const sorted = [...mine].sort((a, b) => a.rps - b.rps);
      const cpu = mine.map((run) => run.cpuUs).filter((us) => us !== undefined);
      rows.push({
        ...sorted[Math.floor(sorted.length / 2)],
        rounds: mine.map((run) => run.rps),
        // The median round by CPU time, on its own: the rounds need not be the same ones.
        cpuUs:
          cpu.length === mine.length
            ? [...cpu].sort((a, b) => a - b)[Math.floor(cpu.length / 2)]
            : undefined,
        cpuRounds: cpu.length === mine.length ? cpu : undefined,
      });
    }
  }
  const https = await startNode('servers/fake.mjs', ['0', 'https']);
  const tls = await loadTls(https.url);
  await https.stop();
  return { rows, tls };
}

/** The fake over HTTPS, as clients meet it by default (autocannon does not verify the cert). */
async function loadTls(url) {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  const result = await load('fake listsJson over HTTPS', url, SCENARIOS.listsJson);
  delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  return result;
}

function ensurePeers() {
  const peers = join(HERE, 'peers');
  if (!existsSync(join(peers, 'node_modules', '.bin', 'prism'))) {
    log('Installing the peer mock servers (bench/peers, once)...');
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: peers, stdio: 'inherit' });
  }
  return join(peers, 'node_modules', '.bin');
}

async function peerBenchmarks(answers) {
  const bin = ensurePeers();
  const work = mkdtempSync(join(tmpdir(), 'fms-bench-'));
  const lists = JSON.parse(answers.listsJson);
  const rows = [];
  log('Other mock servers, GET /lists (JSON), same response:');

  writeFileSync(join(work, 'openapi.json'), JSON.stringify(openApiForLists(lists)));
  const prismPort = 18_401;
  const prism = await startCommand(
    join(bin, 'prism'),
    [
      'mock',
      '-p',
      String(prismPort),
      '-h',
      '127.0.0.1',
      '--errors',
      'false',
      join(work, 'openapi.json'),
    ],
    `http://127.0.0.1:${prismPort}/marketing/v1/lists`,
    { authorization: AUTH },
  );
  rows.push({
    server: 'Prism (mock mode)',
    scenario: 'listsJson',
    ...(await load('Prism listsJson', prism.url, SCENARIOS.listsJson)),
  });
  await prism.stop();

  mkdirSync(join(work, 'wiremock', 'mappings'), { recursive: true });
  writeFileSync(
    join(work, 'wiremock', 'mappings', 'lists.json'),
    JSON.stringify({
      request: {
        method: 'GET',
        url: '/marketing/v1/lists',
        basicAuthCredentials: { username: String(SERVER_ID), password: KEY },
      },
      response: { status: 200, body: answers.listsJson, headers: { 'Content-Type': JSON_TYPE } },
    }),
  );
  const wiremockPort = 18_402;
  const wiremock = await startCommand(
    join(bin, 'wiremock'),
    [
      '--port',
      String(wiremockPort),
      '--bind-address',
      '127.0.0.1',
      '--root-dir',
      join(work, 'wiremock'),
      '--disable-banner',
      '--no-request-journal',
      '--async-response-enabled',
      'false',
    ],
    `http://127.0.0.1:${wiremockPort}/marketing/v1/lists`,
    { authorization: AUTH },
  );
  rows.push({
    server: 'WireMock (standalone jar)',
    scenario: 'listsJson',
    ...(await load('WireMock listsJson', wiremock.url, SCENARIOS.listsJson)),
  });
  await wiremock.stop();

  const mockttp = await startNode('servers/mockttp.mjs', ['18403'], {
    PEER_ROUTES: JSON.stringify({
      authorization: AUTH,
      routes: [
        {
          method: 'GET',
          url: '/marketing/v1/lists',
          contentType: JSON_TYPE,
          body: answers.listsJson,
        },
      ],
    }),
  });
  rows.push({
    server: 'mockttp',
    scenario: 'listsJson',
    ...(await load('mockttp listsJson', mockttp.url, SCENARIOS.listsJson)),
  });
  await mockttp.stop();
  return rows;
}

function openApiForLists(lists) {
  return {
    openapi: '3.0.3',
    info: { title: 'GET /lists only', version: '1' },
    components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } } },
    security: [{ basic: [] }],
    paths: {
      '/marketing/v1/lists': {
        get: {
          responses: {
            200: {
              description: 'lists',
              content: {
                'application/json': {
                  schema: { type: 'array', items: { type: 'object' } },
                  example: lists,
                },
              },
            },
          },
        },
      },
    },
  };
}

function inProcessBenchmarks() {
  log('In process (each figure in a fresh `node --expose-gc`):');
  const run = (task) => {
    const output = execFileSync(
      process.execPath,
      ['--expose-gc', join(HERE, 'in-process.mjs'), task],
      { encoding: 'utf8' },
    );
    const result = JSON.parse(output);
    log(`  ${task.padEnd(16)} ${output.trim()}`);
    return result;
  };
  return {
    createInject: run('create-inject'),
    reset10k: run('reset-10k'),
    reset100k: run('reset-100k'),
    seed100k: run('seed-100k'),
    add1k: run('add-1k'),
    add1m: run('add-1m'),
    heap: run('heap-1m'),
    heapValues: run('heap-1m-values'),
    journalEntry: run('heap-journal-entry'),
  };
}

/** Spawn to first 200 for the CLI, and for the container image when Docker has it. */
function startupBenchmarks() {
  const image = process.env.BENCH_IMAGE ?? 'fake-marketing-server:local';
  let hasImage = false;
  try {
    execFileSync('docker', ['image', 'inspect', image], { stdio: 'ignore' });
    hasImage = true;
  } catch {
    log(`Start-up: no Docker image ${image} (npm run image), so the CLI only.`);
  }
  const output = execFileSync(
    process.execPath,
    [join(HERE, 'startup.mjs'), ...(hasImage ? ['--image', image] : [])],
    { encoding: 'utf8' },
  );
  log(`Start-up: ${output.trim()}`);
  return { image: hasImage ? image : undefined, ...JSON.parse(output) };
}

/**
 * The journal's memory (bench/soak.mjs --journal-rss), long polls (bench/waits.mjs), and the
 * inspector page open on a large state (bench/inspector.mjs).
 */
function journalBenchmarks() {
  const run = (script, args) => {
    const output = execFileSync(process.execPath, [join(HERE, script), ...args], {
      encoding: 'utf8',
    });
    log(`  ${script} ${output.trim()}`);
    return JSON.parse(output);
  };
  log('The journal: memory with 1 MiB bodies, long polls over 64 KiB bodies, the inspector:');
  return {
    memory: run('soak.mjs', ['--journal-rss', '--json']),
    waits: run('waits.mjs', ['--waits', '500', '--seconds', String(SECONDS)]),
    inspector: run('inspector.mjs', ['--seconds', String(Math.max(SECONDS, 6))]),
  };
}

function recordReplayBenchmarks() {
  const output = execFileSync(process.execPath, [join(HERE, 'record-replay.mjs')], {
    encoding: 'utf8',
  });
  log(`Record and replay: ${output.trim()}`);
  return JSON.parse(output);
}

/** Tenants (bench/tenants.mjs): each of its targets in a process of its own. */
function tenantBenchmarks() {
  const output = execFileSync(process.execPath, [join(HERE, 'tenants.mjs')], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_ROUNDS: String(ROUNDS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(output);
}

const answers = await expectedAnswers();
const socket = await socketBenchmarks(answers);
const peers = SKIP_PEERS ? [] : await peerBenchmarks(answers);
const inProcess = inProcessBenchmarks();
const startup = startupBenchmarks();
const journal = journalBenchmarks();
const recordReplay = recordReplayBenchmarks();
const tenants = tenantBenchmarks();
const report = (await import('./report.mjs')).renderResults({
  date: new Date().toISOString(),
  machine: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`,
  settings: { SECONDS, WARMUP, CONNECTIONS, ROUNDS },
  socket,
  peers,
  inProcess,
  startup,
  journal,
});
const { renderRecordReplay, withSection } = await import('./record-replay.mjs');
const { renderTenants, withTenantsSection } = await import('./tenants.mjs');
writeFileSync(
  join(HERE, 'RESULTS.md'),
  withTenantsSection(withSection(report, renderRecordReplay(recordReplay)), renderTenants(tenants)),
);
log(`Wrote ${join(HERE, 'RESULTS.md')}`);
