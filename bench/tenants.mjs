// Tenants: what one test's server of a shared fake costs, against a fake per test, in process and
// over the control API, and what fake.fetch costs against node:https.
//
//   node bench/tenants.mjs [--write] [--rounds N]
//
// Prints one JSON object (bench/run.mjs includes it); --write also puts its section into
// bench/RESULTS.md. Each of the four targets runs in its own fresh `node --expose-gc` process
// (`--target <name>`), so one target's garbage never lands on another's clock; inside it, the
// variants run in alternating rounds (every other round in the reverse order) and every round is
// reported. In-process latencies come from tinybench (the median sample of each round).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Bench } from 'tinybench';
import { request as undiciRequest } from 'undici';
import { connectFakeMarketingServer, createFakeMarketingServer } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    write: { type: 'boolean' },
    target: { type: 'string' },
    rounds: { type: 'string' },
  },
});
const HERE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(HERE, '..');
const ROUNDS = Number(values.rounds ?? process.env.BENCH_ROUNDS ?? 5);
const SERVER_ID = 12345;
const KEY = 'bench-key';
const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;
/** Target 2's journal size: the fake's default, given explicitly. */
const JOURNAL_SIZE = 1000;
/** Concurrent tests of target 2, five requests each. */
const TESTS = 1000;
/** Sequential requests per round and client of target 4. */
const FETCHES = 800;
/** tinybench's time budget per task and round (it also runs at least `iterations`). */
const TASK_MS = 500;

/** One server's seed: two lists, 100 contacts (each on one list). */
const SEED100 = {
  lists: [
    { id: 1, name: 'Newsletter' },
    { id: 2, name: 'Customers' },
  ],
  contacts: Array.from({ length: 100 }, (_, i) => ({
    emailAddress: `contact${i}@example.com`,
    lists: [1 + (i % 2)],
  })),
};
/** Target 2's tenants: one list, one contact (1,000 of them live at once). */
const SMALL_SEED = {
  lists: [{ id: 1, name: 'Newsletter' }],
  contacts: [{ emailAddress: 'seeded@example.com', lists: [1] }],
};

const log = (message) => process.stderr.write(`${message}\n`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (value, digits = 3) => Number(value.toFixed(digits));
const gc = () => globalThis.gc?.();
/** Rounds alternate: odd rounds in the given order, even ones reversed. */
const ordered = (variants, r) => (r % 2 === 1 ? variants : [...variants].reverse());

function expectStatus(response, status, what) {
  const code = response.statusCode ?? response.status;
  if (code !== status) throw new Error(`${what} answered ${code}, not ${status}`);
}

/**
 * tinybench rounds: each round one Bench of every task (alternating order), a gc() before each
 * task; a round's figure is the task's median sample (ms). Fails on any task error.
 */
async function tinybenchRounds(tasks, { label }) {
  const rounds = Object.fromEntries(tasks.map(([name]) => [name, []]));
  const samples = Object.fromEntries(tasks.map(([name]) => [name, []]));
  for (let r = 1; r <= ROUNDS; r++) {
    const bench = new Bench({
      time: TASK_MS,
      iterations: 50,
      warmupTime: 150,
      warmupIterations: 20,
      throws: true,
    });
    for (const [name, fn, hooks = {}] of ordered(tasks, r)) {
      bench.add(name, fn, {
        ...hooks,
        beforeAll: async function (mode) {
          gc();
          await hooks.beforeAll?.call(this, mode);
        },
      });
    }
    await bench.run();
    for (const task of bench.tasks) {
      if (task.result.state !== 'completed') throw new Error(`${task.name}: ${task.result.state}`);
      rounds[task.name].push(round(task.result.latency.p50, 4));
      samples[task.name].push(task.result.latency.samplesCount);
    }
    log(
      `  ${label} round ${r}: ${tasks.map(([name]) => `${name} ${rounds[name].at(-1)} ms`).join('; ')}`,
    );
  }
  return Object.fromEntries(
    tasks.map(([name]) => [
      name,
      { medianMs: median(rounds[name]), rounds: rounds[name], samples: samples[name] },
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// 1. A tenant with 100 contacts, created and closed, against a fake per test.

async function createClose() {
  let fake;
  const ownFake = {
    beforeAll: async () => {
      fake = await createFakeMarketingServer();
    },
    afterAll: async () => {
      await fake.close();
    },
  };
  const perTestSeed = { servers: [{ serverId: SERVER_ID, key: KEY, ...SEED100 }] };
  const results = await tinybenchRounds(
    [
      [
        'tenant',
        async () => {
          const tenant = await fake.tenant(SEED100);
          await tenant.close();
        },
        ownFake,
      ],
      [
        'tenant + inject',
        async () => {
          const tenant = await fake.tenant(SEED100);
          expectStatus(await tenant.inject('/lists'), 200, 'tenant GET /lists');
          await tenant.close();
        },
        ownFake,
      ],
      [
        'fake per test',
        async () => {
          const own = await createFakeMarketingServer({ seed: perTestSeed });
          const response = await own.inject({
            url: '/marketing/v1/lists',
            headers: { authorization: AUTH },
          });
          expectStatus(response, 200, 'fake per test GET /lists');
          await own.close();
        },
      ],
    ],
    { label: 'create+close' },
  );
  return {
    tenant: results.tenant,
    tenantInject: results['tenant + inject'],
    fakePerTest: results['fake per test'],
    ratio: round(results['fake per test'].medianMs / results.tenant.medianMs, 1),
  };
}

// ---------------------------------------------------------------------------------------------
// 2. 1,000 concurrent tests on one fake against the same 5,000 requests in sequence.

/** One test's five requests, in order: GET, PUT (add by email), GET, PUT, GET. */
async function fiveRequests(tenant, i) {
  const steps = [
    '/lists',
    { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: `t${i}a@example.com` } },
    '/lists',
    { method: 'PUT', url: '/lists/1/contacts', payload: { emailAddress: `t${i}b@example.com` } },
    '/lists',
  ];
  for (const step of steps) expectStatus(await tenant.inject(step), 200, `test ${i}`);
}

const range = (n) => Array.from({ length: n }, (_, i) => i);

/** Each variant on a fake of its own; resolves with the timed part in ms. */
const CONCURRENCY_VARIANTS = {
  /**
   * 1,000 tenants made beforehand (untimed), then all their tests at once. One untimed request
   * first: the first request recorded after keys change pays for the journal's redactor compiling
   * every live key again (see the report), a cost of creating the tenants, not of the requests.
   */
  concurrentRequests: async (fake, tests) => {
    const tenants = await Promise.all(range(tests).map(() => fake.tenant(SMALL_SEED)));
    expectStatus(await tenants[0].inject('/lists'), 200, 'the untimed first request');
    gc();
    const started = performance.now();
    await Promise.all(tenants.map((tenant, i) => fiveRequests(tenant, i)));
    const elapsed = performance.now() - started;
    await Promise.all(tenants.map((tenant) => tenant.close()));
    return elapsed;
  },
  /** 1,000 tests at once, each creating its tenant, five requests, closing it: all timed. */
  concurrentWithTenants: async (fake, tests) => {
    gc();
    const started = performance.now();
    await Promise.all(
      range(tests).map(async (i) => {
        const tenant = await fake.tenant(SMALL_SEED);
        await fiveRequests(tenant, i);
        await tenant.close();
      }),
    );
    return performance.now() - started;
  },
  /** ONE tenant, the same 5,000 requests one after another (its create and close timed too). */
  oneTenantSequential: async (fake, tests) => {
    gc();
    const started = performance.now();
    const tenant = await fake.tenant(SMALL_SEED);
    for (const i of range(tests)) await fiveRequests(tenant, i);
    await tenant.close();
    return performance.now() - started;
  },
  /** 1,000 tests one after another, each with its own tenant (created, five requests, closed). */
  sequentialWithTenants: async (fake, tests) => {
    gc();
    const started = performance.now();
    for (const i of range(tests)) {
      const tenant = await fake.tenant(SMALL_SEED);
      await fiveRequests(tenant, i);
      await tenant.close();
    }
    return performance.now() - started;
  },
};

/**
 * The variants in alternating rounds, each on a fake of its own with the journal size given. With
 * the default journal, 1,000 tests at once that create and close their tenants take tens of
 * seconds (the journal's redactor compiles every live key again after each create and close: see
 * the report), so that variant runs once after the rounds, and in the rounds with the journal off
 * against the same work in sequence with the journal off.
 */
const ROUND_VARIANTS = [
  ['concurrentRequests', JOURNAL_SIZE],
  ['oneTenantSequential', JOURNAL_SIZE],
  ['sequentialWithTenants', JOURNAL_SIZE],
  ['concurrentWithTenants', 0],
  ['sequentialWithTenants', 0],
];
const variantKey = (name, journalSize) => (journalSize === 0 ? `${name}NoJournal` : name);

/** The longest the one run of 1,000 tests at once with tenants and the journal on may take. */
const CAP_MS = 10_000;
const STOPPED = Symbol('stopped at CAP_MS');

/**
 * 1,000 tests at once with tenants, the default journal: the time, or about CAP_MS when it is not
 * done by then (`done: false`, with how many tests had finished and requests had been answered).
 * injects run on microtasks alone, never letting a timer fire, so each request checks the clock.
 */
async function cappedConcurrentWithTenants() {
  const fake = await createFakeMarketingServer({ journalSize: JOURNAL_SIZE });
  let finished = 0;
  let requests = 0;
  gc();
  const started = performance.now();
  const done = await Promise.all(
    range(TESTS).map(async (i) => {
      const tenant = await fake.tenant(SMALL_SEED);
      // The tenant's inject, counted, refusing to start once the cap has passed.
      const counted = {
        inject: async (step) => {
          if (performance.now() - started > CAP_MS) throw STOPPED;
          const response = await tenant.inject(step);
          requests += 1;
          return response;
        },
      };
      await fiveRequests(counted, i);
      await tenant.close();
      finished += 1;
    }),
  ).then(
    () => true,
    (error) => {
      if (error !== STOPPED) throw error;
      return false;
    },
  );
  const ms = round(performance.now() - started, 1);
  await fake.close();
  return { done, ms, finished, requests };
}

async function concurrency() {
  const run = async (name, journalSize, tests = TESTS) => {
    const fake = await createFakeMarketingServer({ journalSize });
    try {
      return await CONCURRENCY_VARIANTS[name](fake, tests);
    } finally {
      await fake.close();
    }
  };
  // Warm-up, untimed: every variant at a fifth of the size.
  for (const [name, journalSize] of ROUND_VARIANTS) await run(name, journalSize, TESTS / 5);
  const keys = ROUND_VARIANTS.map(([name, journalSize]) => variantKey(name, journalSize));
  const rounds = Object.fromEntries(keys.map((key) => [key, []]));
  for (let r = 1; r <= ROUNDS; r++) {
    for (const [name, journalSize] of ordered(ROUND_VARIANTS, r)) {
      rounds[variantKey(name, journalSize)].push(round(await run(name, journalSize), 1));
    }
    log(`  concurrency round ${r}: ${keys.map((k) => `${k} ${rounds[k].at(-1)} ms`).join('; ')}`);
  }
  // Once, after the rounds: the default journal, 1,000 tests at once creating their tenants,
  // stopped at CAP_MS (the process exits after its report, with the run unfinished).
  const capped = await cappedConcurrentWithTenants();
  const once = capped.ms;
  rounds.concurrentWithTenants = [once];
  log(`  concurrency, once: concurrentWithTenants ${JSON.stringify(capped)}`);
  const result = Object.fromEntries(
    Object.entries(rounds).map(([key, ms]) => [key, { medianMs: median(ms), rounds: ms }]),
  );
  const ratio = (a, b) => ({
    ratio: round(result[a].medianMs / result[b].medianMs, 2),
    rounds: rounds[a].map((ms, i) => round(ms / rounds[b][i], 2)),
  });
  return {
    tests: TESTS,
    requests: TESTS * 5,
    journalSize: JOURNAL_SIZE,
    capped,
    ...result,
    requestsOnly: ratio('concurrentRequests', 'oneTenantSequential'),
    withTenantsNoJournal: ratio('concurrentWithTenantsNoJournal', 'sequentialWithTenantsNoJournal'),
    // One run against the median rounds of the rounds: a single figure, not per round.
    withTenantsAgainstOne: {
      ratio: round(once / result.oneTenantSequential.medianMs, 2),
    },
    withTenantsAgainstSequential: {
      ratio: round(once / result.sequentialWithTenants.medianMs, 2),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// 3. A remote tenant created and closed over the control API on loopback.

/** Starts the CLI as a child (`--port 0 --ca-out`), resolves when its startup block is printed. */
async function startCli(folder) {
  const caFile = join(folder, 'ca.pem');
  const child = spawn(
    process.execPath,
    [join(ROOT, 'dist', 'cli.js'), '--port', '0', '--ca-out', caFile],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 20_000;
  while (!output.includes('Press Ctrl+C to stop.')) {
    if (child.exitCode !== null) throw new Error(`the CLI exited early: ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the CLI did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const baseUrl = /Base URL\s+(\S+)/.exec(output)[1];
  return {
    url: new URL(baseUrl).origin,
    ca: readFileSync(caFile, 'utf8'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

async function remote() {
  const folder = mkdtempSync(join(tmpdir(), 'bench-tenants-'));
  const cli = await startCli(folder);
  let local;
  let toCli;
  let toLocal;
  try {
    local = await createFakeMarketingServer();
    await local.listen({ port: 0 });
    // connectFakeMarketingServer checks health() before it resolves.
    toCli = await connectFakeMarketingServer({ url: cli.url, ca: cli.ca });
    toLocal = await connectFakeMarketingServer({ url: local.url, ca: local.ca });
    const results = await tinybenchRounds(
      [
        [
          'CLI',
          async () => {
            const tenant = await toCli.tenant(SEED100);
            await tenant.close();
          },
        ],
        [
          'in-process fake',
          async () => {
            const tenant = await toLocal.tenant(SEED100);
            await tenant.close();
          },
        ],
        [
          'CLI, empty seed',
          async () => {
            const tenant = await toCli.tenant();
            await tenant.close();
          },
        ],
        [
          'CLI, two health calls',
          async () => {
            await toCli.health();
            await toCli.health();
          },
        ],
      ],
      { label: 'remote' },
    );
    return {
      cli: results.CLI,
      inProcess: results['in-process fake'],
      cliEmptySeed: results['CLI, empty seed'],
      cliTwoHealthCalls: results['CLI, two health calls'],
    };
  } finally {
    await toCli?.close();
    await toLocal?.close();
    await local?.close();
    await cli.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// 4. fake.fetch against a bare https.request with the same agent settings.

function httpsGet(url, agent, headers) {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ statusCode: res.statusCode, body: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function fetchAgainstRequest() {
  const fake = await createFakeMarketingServer();
  await fake.listen({ port: 0 });
  const tenant = await fake.tenant(SEED100);
  const headers = { authorization: tenant.authorization };
  const path = '/marketing/v1/lists';
  const url = `${fake.url}${path}`;
  // fake.httpsAgent's own settings, in an agent of our own: keep-alive, the fake's CA.
  const agent = new HttpsAgent({ keepAlive: true, ca: fake.ca });
  const clients = {
    fetch: async () => {
      const response = await fake.fetch(path, { headers });
      expectStatus(response, 200, 'fake.fetch');
      return response.text();
    },
    httpsRequest: async () => {
      const response = await httpsGet(url, agent, headers);
      expectStatus(response, 200, 'https.request');
      return response.body;
    },
    // For the analysis, through fake.dispatcher as fake.fetch is: Node's fetch called directly
    // (what fake.fetch wraps), and undici 7's request (the same connection, no WHATWG layer).
    globalFetch: async () => {
      const response = await fetch(url, { headers, dispatcher: fake.dispatcher });
      expectStatus(response, 200, 'global fetch');
      return response.text();
    },
    undiciRequest: async () => {
      const response = await undiciRequest(url, { headers, dispatcher: fake.dispatcher });
      expectStatus(response, 200, 'undici request');
      return response.body.text();
    },
  };
  const names = Object.keys(clients);
  const expected = await clients.httpsRequest();
  for (const name of names) {
    if ((await clients[name]()) !== expected) throw new Error(`${name} and https.request differ`);
  }
  for (const name of names) for (let i = 0; i < 200; i++) await clients[name](); // warm-up
  const rounds = Object.fromEntries(names.map((name) => [name, []]));
  // CPU time per request (user and system, this process: client and server both), which other
  // jobs on the machine move far less than req/s.
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  try {
    for (let r = 1; r <= ROUNDS; r++) {
      for (const name of ordered(names, r)) {
        gc();
        const started = performance.now();
        const cpuBefore = process.cpuUsage();
        for (let i = 0; i < FETCHES; i++) await clients[name]();
        const { user, system } = process.cpuUsage(cpuBefore);
        rounds[name].push(Math.round(FETCHES / ((performance.now() - started) / 1000)));
        cpu[name].push(Math.round((user + system) / FETCHES));
      }
      log(
        `  fetch round ${r}: ${names.map((n) => `${n} ${rounds[n].at(-1)} req/s, ${cpu[n].at(-1)} µs CPU`).join('; ')}`,
      );
    }
  } finally {
    agent.destroy();
    await tenant.close();
    await fake.close();
  }
  const fetchRps = median(rounds.fetch);
  const requestRps = median(rounds.httpsRequest);
  const figures = (name) => ({
    rps: median(rounds[name]),
    rounds: rounds[name],
    cpuUs: median(cpu[name]),
    cpuRounds: cpu[name],
  });
  return {
    requests: FETCHES,
    fetch: figures('fetch'),
    httpsRequest: figures('httpsRequest'),
    globalFetch: figures('globalFetch'),
    undiciRequest: figures('undiciRequest'),
    cpuRatio: round(median(cpu.fetch) / median(cpu.httpsRequest), 2),
    // fetch's time over https.request's: https.request's req/s over fetch's.
    ratio: round(requestRps / fetchRps, 2),
    ratioRounds: rounds.fetch.map((rps, i) => round(rounds.httpsRequest[i] / rps, 2)),
  };
}

const TARGETS = {
  'create-close': createClose,
  concurrency,
  remote,
  fetch: fetchAgainstRequest,
};

// ---------------------------------------------------------------------------------------------
// The report.

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

/**
 * What the figures come from, as found by profiling (`node --cpu-prof`) and timing the parts;
 * code facts, not figures of one run.
 */
const ANALYSIS = [
  '### What limits these figures',
  '',
  "- **Tenants created and closed while other tenants' requests are recorded.** The journal's redactor indexes the spellings of each key that came, and unindexes those of each key that went, on the first request it records after the keys change (`SecretSet`, src/redaction/secret-set.ts, reading the changes from the store's `KeyLedger`): about 0.2 ms for a tenant's first request, whatever the number of tenants. The comparison with one tenant in sequence includes that cost and the tenants' own creation; against the same work in sequence (with tenants), the concurrent run is within the target.",
  "- **fake.fetch against https.request.** fake.fetch is Node's `fetch` given `fake.dispatcher` (an undici 7 Agent trusting the fake's CA); it adds a spread of `init` and, for a path, one string concatenation, and Node's `fetch` called directly with the same dispatcher runs at the same rate. The connection is kept alive (counting `tls.connect` calls: 2 for 200 requests). What costs is `fetch` itself in this Node: its WHATWG layer (a Request, Headers, an AbortSignal listener and a web ReadableStream for each body; `makeTransferable`, `setupReadableByteStreamControllerFromSource`, `addAbortListener` among the heaviest self-time frames of a CPU profile), where undici's `request` through the very same dispatcher and connection runs close to https.request. The fake's side answers the same bytes in both; fetch's extra request headers (`accept`, `accept-language`, `sec-fetch-mode`, `user-agent`, `accept-encoding`) sent through https.request did not slow it (a separate run).",
  '',
];

/** The section of bench/RESULTS.md. */
export function renderTenants(result) {
  const ok = (pass) => (pass ? 'met' : '**missed**');
  const { createClose: one, concurrency: two, remote: three, fetch: four } = result;
  const ms = (value) => `${value} ms`;
  const list = (xs) => xs.join(', ');
  return [
    '## Tenants',
    '',
    `${result.date ? `Measured ${result.date}, by` : 'From'} bench/tenants.mjs (Node ${process.version}): each target in its own \`node --expose-gc\` process, its variants in ${result.rounds} alternating rounds (every other round in the reverse order), a gc() before each; every round listed, the figure is the median round. Latencies in process and over the control API come from tinybench (a round's figure is its median sample, about ${TASK_MS} ms of samples per variant and round). Load average at the start: ${result.loadAverage} on ${cpus().length} cores.`,
    '',
    '### A tenant against a fake per test (in process)',
    '',
    'A tenant with one server seed of 2 lists and 100 contacts: `await fake.tenant(seed)` then `await tenant.close()`, on one fake made before the round. A fake per test: `createFakeMarketingServer({ seed: { servers: [that seed] } })`, one `inject` of GET /marketing/v1/lists, `close()`.',
    '',
    row(['measure', 'median', 'target', '', 'rounds (ms)']),
    row(['---', '---:', '---', '---', '---']),
    row([
      'tenant created and closed',
      ms(one.tenant.medianMs),
      '< 0.2 ms',
      ok(one.tenant.medianMs < 0.2),
      list(one.tenant.rounds),
    ]),
    row([
      'tenant created, one inject of GET /lists, closed',
      ms(one.tenantInject.medianMs),
      '',
      '',
      list(one.tenantInject.rounds),
    ]),
    row([
      'fake per test: created, one inject of GET /lists, closed',
      ms(one.fakePerTest.medianMs),
      '',
      '',
      list(one.fakePerTest.rounds),
    ]),
    '',
    `The fake per test takes ${one.ratio} times a tenant's create and close.`,
    '',
    '### 1,000 concurrent tests on one fake (in process)',
    '',
    `Each test makes 5 requests through \`tenant.inject\` in order (GET /lists, PUT /lists/1/contacts by email, GET /lists, PUT another, GET /lists), every answer checked to be 200: ${two.tests} tests started together with Promise.all, against the same ${two.requests} requests made by one tenant in sequence. Tenants are seeded with one list and one contact. The journal: journalSize ${two.journalSize} (the default; it wraps ${two.requests / two.journalSize} times in each variant) except in the rows whose journal is "off" (journalSize 0). Each variant runs on a fake of its own, made and closed outside the clock. "Requests only": the ${two.tests} tenants are made before the clock starts, and one untimed request is made first (the first request recorded after tenants are added pays for the redactor indexing the new keys, a cost of creating them); the tenants are closed after the clock stops. "With tenants": each test creates its tenant, makes its 5 requests and closes it, all timed.`,
    '',
    row(['variant', 'journal', 'median', 'rounds (ms)']),
    row(['---', '---', '---:', '---']),
    row([
      `${two.tests} tests at once, requests only`,
      two.journalSize,
      ms(two.concurrentRequests.medianMs),
      list(two.concurrentRequests.rounds),
    ]),
    row([
      `one tenant, the ${two.requests} requests in sequence (its one create and close timed)`,
      two.journalSize,
      ms(two.oneTenantSequential.medianMs),
      list(two.oneTenantSequential.rounds),
    ]),
    row([
      `${two.tests} tests in sequence, with tenants`,
      two.journalSize,
      ms(two.sequentialWithTenants.medianMs),
      list(two.sequentialWithTenants.rounds),
    ]),
    row([
      `${two.tests} tests at once, with tenants (one run, after the rounds, stopped at ${CAP_MS / 1000} s)`,
      two.journalSize,
      two.capped.done
        ? ms(two.capped.ms)
        : `**> ${two.capped.ms} ms**: stopped with ${two.capped.finished} of ${two.tests} tests finished (${two.capped.requests} of ${two.requests} requests)`,
      two.capped.done ? two.capped.ms : '',
    ]),
    row([
      `${two.tests} tests at once, with tenants`,
      'off',
      ms(two.concurrentWithTenantsNoJournal.medianMs),
      list(two.concurrentWithTenantsNoJournal.rounds),
    ]),
    row([
      `${two.tests} tests in sequence, with tenants`,
      'off',
      ms(two.sequentialWithTenantsNoJournal.medianMs),
      list(two.sequentialWithTenantsNoJournal.rounds),
    ]),
    '',
    row(['ratio (of the median rounds)', 'result', 'target', '', 'per round']),
    row(['---', '---:', '---', '---', '---']),
    row([
      'at once, requests only / one tenant in sequence (journal on)',
      two.requestsOnly.ratio,
      '≤ 1.5',
      ok(two.requestsOnly.ratio <= 1.5),
      list(two.requestsOnly.rounds),
    ]),
    row([
      'at once with tenants / one tenant in sequence (journal on; the one run)',
      `${two.capped.done ? '' : '> '}${two.withTenantsAgainstOne.ratio}`,
      '≤ 1.5',
      ok(two.capped.done && two.withTenantsAgainstOne.ratio <= 1.5),
      '',
    ]),
    row([
      'at once with tenants / in sequence with tenants, the same work (journal on; the one run)',
      `${two.capped.done ? '' : '> '}${two.withTenantsAgainstSequential.ratio}`,
      '',
      '',
      '',
    ]),
    row([
      'at once with tenants / in sequence with tenants, the same work (journal off)',
      two.withTenantsNoJournal.ratio,
      '',
      '',
      list(two.withTenantsNoJournal.rounds),
    ]),
    '',
    '### A remote tenant over the control API (loopback)',
    '',
    '`connectFakeMarketingServer({ url, ca })` in this process; `await remote.tenant(seed)` (POST /__admin/tenants with the 100-contact seed) then `await tenant.close()` (DELETE /__admin/tenants/{id}), over HTTPS keep-alive on 127.0.0.1. The CLI is `node dist/cli.js --port 0 --ca-out <tmp>` in a child process; the in-process fake is `listen()`ed in the same process as the client. For scale, the same handle making two `health()` calls (GET /__admin/health) to the CLI.',
    '',
    row(['measure', 'median', 'target', '', 'rounds (ms)']),
    row(['---', '---:', '---', '---', '---']),
    row([
      'remote tenant created and closed, the CLI',
      ms(three.cli.medianMs),
      '< 3 ms',
      ok(three.cli.medianMs < 3),
      list(three.cli.rounds),
    ]),
    row([
      'the same, an in-process fake listening in this process',
      ms(three.inProcess.medianMs),
      '',
      '',
      list(three.inProcess.rounds),
    ]),
    row([
      'the same, the CLI, an empty seed',
      ms(three.cliEmptySeed.medianMs),
      '',
      '',
      list(three.cliEmptySeed.rounds),
    ]),
    row([
      'two health() calls to the CLI (two control round trips)',
      ms(three.cliTwoHealthCalls.medianMs),
      '',
      '',
      list(three.cliTwoHealthCalls.rounds),
    ]),
    '',
    '### fake.fetch against https.request',
    '',
    `${four.requests} sequential GET /marketing/v1/lists per round and client (Node ${process.version}, its bundled undici ${process.versions.undici}), over HTTPS to an in-process fake (client and server in one process, one keep-alive connection): \`fake.fetch(path, { headers })\` reading the body with \`text()\`, against \`https.request\` through \`new https.Agent({ keepAlive: true, ca: fake.ca })\` (fake.httpsAgent's settings) reading the body into a string. The ratio is fetch's time over https.request's (https.request's req/s over fetch's).`,
    '',
    row([
      'client',
      'req/s (median round)',
      'CPU µs / request (median round)',
      'rounds (req/s; CPU µs)',
    ]),
    row(['---', '---:', '---:', '---']),
    ...[
      ['fake.fetch', four.fetch],
      ['https.request', four.httpsRequest],
      [
        "for scale: Node's `fetch` called directly with fake.dispatcher (what fake.fetch wraps)",
        four.globalFetch,
      ],
      ['for scale: undici 7 `request` with fake.dispatcher', four.undiciRequest],
    ].map(([label, figures]) =>
      row([
        label,
        figures.rps,
        figures.cpuUs,
        `${list(figures.rounds)}; ${list(figures.cpuRounds)}`,
      ]),
    ),
    '',
    'CPU time is user and system time of the one process (client and server both) per request.',
    '',
    row(['ratio', 'result', 'target', '', 'per round']),
    row(['---', '---:', '---', '---', '---']),
    row([
      "fetch's time / https.request's",
      four.ratio,
      '≤ 1.2',
      ok(four.ratio <= 1.2),
      list(four.ratioRounds),
    ]),
    row([
      "fetch's CPU time per request / https.request's (median rounds)",
      four.cpuRatio,
      '',
      '',
      '',
    ]),
    '',
    ...ANALYSIS,
  ].join('\n');
}

const MARK_START = '<!-- tenants:start -->';
const MARK_END = '<!-- tenants:end -->';

/** RESULTS.md with the section put in place (between its markers) or added at the end. */
export function withTenantsSection(results, section) {
  const block = `${MARK_START}\n${section}${MARK_END}\n`;
  const start = results.indexOf(MARK_START);
  const end = results.indexOf(MARK_END);
  if (start !== -1 && end > start)
    return results.slice(0, start) + block + results.slice(end + MARK_END.length + 1);
  return `${results.trimEnd()}\n\n${block}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (values.target) {
    const target = TARGETS[values.target];
    if (!target) throw new Error(`--target must be one of ${Object.keys(TARGETS).join(', ')}`);
    process.stdout.write(`${JSON.stringify(await target())}\n`);
  } else {
    const started = performance.now();
    const loadAverage = round(loadavg()[0], 1);
    const run = (target) => {
      log(`Tenants: ${target} (${ROUNDS} rounds, its own process)`);
      const output = execFileSync(
        process.execPath,
        [
          '--expose-gc',
          fileURLToPath(import.meta.url),
          '--target',
          target,
          '--rounds',
          String(ROUNDS),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      return JSON.parse(output);
    };
    const result = {
      date: new Date().toISOString(),
      rounds: ROUNDS,
      loadAverage,
      createClose: run('create-close'),
      concurrency: run('concurrency'),
      remote: run('remote'),
      fetch: run('fetch'),
      seconds: round((performance.now() - started) / 1000, 1),
    };
    log(`Tenants: ${result.seconds} s in all`);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (values.write) {
      const file = join(HERE, 'RESULTS.md');
      writeFileSync(file, withTenantsSection(readFileSync(file, 'utf8'), renderTenants(result)));
      log(`Wrote the tenants section of ${file}`);
    }
  }
}
