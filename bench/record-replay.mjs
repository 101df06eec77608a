// Record and replay: what the recording proxy adds to an exchange on loopback, and how long replay
// takes for 10 000 exchanges. `node bench/record-replay.mjs [--write]`: prints one JSON object
// (bench/run.mjs includes it); --write also puts its section into bench/RESULTS.md.
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createFakeMarketingServer, replayHar } from '../dist/index.js';

const { values } = parseArgs({
  options: { write: { type: 'boolean' }, requests: { type: 'string' }, rounds: { type: 'string' } },
});
const HERE = fileURLToPath(new URL('.', import.meta.url));
const REQUESTS = Number(values.requests ?? 1000);
const ROUNDS = Number(values.rounds ?? 4);
const REPLAYED = 10_000;
const SERVER_ID = 12345;
const KEY = 'sandbox-key-12345';
const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const round = (value, digits = 2) => Number(value.toFixed(digits));

function start(script, args) {
  const child = fork(join(HERE, script), args, { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ url: message.ready, child }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
const stop = (child) =>
  new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });

/** One sequential keep-alive exchange; resolves with its duration in ms. */
function timed(agent, url, path) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${url}${path}`, { agent, headers: { authorization: AUTH } }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The same sequential exchanges (GET /lists, GET /content alternately) straight to the fake and
 * through the recorder in front of it, in alternating rounds so that drift in the machine's load
 * falls on both alike.
 */
async function recorderOverhead(folder) {
  const fake = await start('servers/fake.mjs', ['0', 'http']);
  const out = join(folder, 'overhead.har');
  const recorder = await start('servers/recorder.mjs', [fake.url, out]);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const direct = [];
  const through = [];
  const paths = ['/marketing/v1/lists', '/marketing/v1/content'];
  for (let i = 0; i < 200; i++) await timed(agent, i % 2 ? fake.url : recorder.url, paths[i % 2]);
  for (let r = 0; r < ROUNDS; r++) {
    for (const [url, times] of [
      [fake.url, direct],
      [recorder.url, through],
    ]) {
      for (let i = 0; i < REQUESTS; i++) times.push(await timed(agent, url, paths[i % 2]));
    }
  }
  agent.destroy();
  await stop(recorder.child);
  await stop(fake.child);
  const entries = JSON.parse(readFileSync(out, 'utf8')).log.entries.length;
  const stats = (times) => ({
    p50Ms: round(quantile(times, 0.5), 3),
    p99Ms: round(quantile(times, 0.99), 3),
  });
  return {
    exchanges: direct.length,
    direct: stats(direct),
    through: stats(through),
    addedP50Ms: round(quantile(through, 0.5) - quantile(direct, 0.5), 3),
    addedP99Ms: round(quantile(through, 0.99) - quantile(direct, 0.99), 3),
    harEntries: entries,
    harBytes: statSync(out).size,
    loadAverage: round(loadavg()[0], 1),
  };
}

/** A recording of 10 000 exchanges (the fake's own HAR of a mixed session), replayed. */
async function replayTime() {
  const fake = await createFakeMarketingServer({
    seed: {
      servers: [
        {
          serverId: SERVER_ID,
          key: KEY,
          maxContacts: REPLAYED,
          lists: [{ name: 'Newsletter' }, { name: 'Customers' }],
          customFields: [{ name: 'FirstName' }],
          content: [{ name: 'Welcome', created: '2026-01-05T10:00:00Z' }],
          contacts: Array.from({ length: 50 }, (_, i) => ({
            emailAddress: `seeded${i}@example.com`,
          })),
        },
      ],
    },
    journalSize: REPLAYED,
  });
  const call = (method, url, accept, payload) =>
    fake.inject({
      method,
      url: `/marketing/v1${url}`,
      headers: { authorization: AUTH, accept },
      ...(payload ? { payload } : {}),
    });
  for (let i = 0; i < REPLAYED; i++) {
    const accept = i % 3 === 0 ? 'text/xml' : 'application/json';
    switch (i % 5) {
      case 0:
        await call('GET', '/lists', accept);
        break;
      case 1:
        await call('PUT', '/lists/1/contacts', accept, { emailAddress: `replay${i}@example.com` });
        break;
      case 2:
        await call('GET', '/customfields', accept);
        break;
      case 3:
        await call('PUT', `/lists/2/contacts/${1 + (i % 50)}`, accept);
        break;
      default:
        await call('GET', '/content', accept);
    }
  }
  const har = JSON.stringify(fake.requestsHar());
  await fake.close();
  const times = [];
  let report;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    report = await replayHar(har);
    times.push(performance.now() - started);
  }
  if (report.matched !== REPLAYED)
    throw new Error(
      `the replay did not match all: ${JSON.stringify({ ...report, results: undefined })}`,
    );
  return {
    exchanges: report.results.length,
    harBytes: Buffer.byteLength(har),
    medianMs: round(quantile(times, 0.5), 0),
    runsMs: times.map((t) => round(t, 0)),
    perSecond: Math.round(report.results.length / (quantile(times, 0.5) / 1000)),
  };
}

/** The section of bench/RESULTS.md. */
export function renderRecordReplay({ overhead, replay }) {
  const ok = (pass) => (pass ? 'met' : '**missed**');
  return [
    '## Record and replay',
    '',
    `From bench/record-replay.mjs. Recorder: ${overhead.exchanges} sequential keep-alive exchanges (GET /lists and GET /content in turn) each way, straight to the fake and through \`record\` in front of it (each in its own process, plain HTTP on loopback), in ${ROUNDS} alternating rounds; the recorder wrote ${overhead.harEntries} entries (${Math.round(overhead.harBytes / 1024)} KiB; the file whole at every moment, written in batches). Load average during the run: ${overhead.loadAverage} on ${cpus().length} cores (other jobs shared the machine: the p99 figures carry their noise). Replay: the fake's own HAR of a mixed session (reads and writes, JSON and XML), starting state inferred, median of 3 runs.`,
    '',
    '| measure | result | target |  |',
    '| --- | ---: | --- | --- |',
    `| straight to the fake, p50 / p99 | ${overhead.direct.p50Ms} / ${overhead.direct.p99Ms} ms |  |  |`,
    `| through the recorder, p50 / p99 | ${overhead.through.p50Ms} / ${overhead.through.p99Ms} ms |  |  |`,
    `| added by the recorder at p99 | ${overhead.addedP99Ms} ms (p50: ${overhead.addedP50Ms} ms) | < 2 ms | ${ok(overhead.addedP99Ms < 2)} |`,
    `| replay of ${replay.exchanges} exchanges (${Math.round(replay.harBytes / 1024 / 1024)} MiB of HAR) | ${replay.medianMs} ms (${replay.perSecond} /s; runs ${replay.runsMs.join(', ')}) | < 5 s | ${ok(replay.medianMs < 5000)} |`,
    '',
  ].join('\n');
}

const MARK_START = '<!-- record-replay:start -->';
const MARK_END = '<!-- record-replay:end -->';

/** RESULTS.md with the section put in place (between its markers) or added at the end. */
export function withSection(results, section) {
  const block = `${MARK_START}\n${section}${MARK_END}\n`;
  const start = results.indexOf(MARK_START);
  const end = results.indexOf(MARK_END);
  if (start !== -1 && end > start)
    return results.slice(0, start) + block + results.slice(end + MARK_END.length + 1);
  return `${results.trimEnd()}\n\n${block}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const folder = mkdtempSync(join(tmpdir(), 'bench-record-'));
  try {
    const overhead = await recorderOverhead(folder);
    process.stderr.write(`Recorder: ${JSON.stringify(overhead)}\n`);
    const replay = await replayTime();
    const result = { overhead, replay };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (values.write) {
      const file = join(HERE, 'RESULTS.md');
      writeFileSync(file, withSection(readFileSync(file, 'utf8'), renderRecordReplay(result)));
      process.stderr.write(`Wrote the record and replay section of ${file}\n`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
