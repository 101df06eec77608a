// `npm run soak [-- --seconds 60]`: the sandbox CLI under a mixed read/write load from autocannon
// on loopback for a bounded time, then a report. Exits 1 on any 5xx, socket error, unexpected
// status, or memory that keeps growing.
// `npm run soak -- --journal-rss [--exchanges 1000] [--max-growth-mib 200]`: the journal's memory
// bound instead: that many add-by-email exchanges of 1 MiB bodies against the CLI at its defaults,
// RSS before, after, and after reading /__admin/requests and requests.har; exits 1 past the bound.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string' },
    out: { type: 'string' },
    // Pads the add-by-email bodies to this many bytes (at most 1 MiB, the API's limit), to show the
    // journal's memory bound: it keeps journalBodyLimit bytes of each, whatever the body.
    'body-bytes': { type: 'string' },
    'journal-rss': { type: 'boolean' },
    exchanges: { type: 'string' },
    'max-growth-mib': { type: 'string' },
    // With --journal-rss: one JSON object instead of the report (bench/run.mjs reads it).
    json: { type: 'boolean' },
  },
});
const SECONDS = Number(values.seconds ?? process.env.SOAK_SECONDS ?? 60);
const BODY_BYTES = values['body-bytes'] === undefined ? undefined : Number(values['body-bytes']);
if (BODY_BYTES !== undefined && !(BODY_BYTES > 0 && BODY_BYTES <= 1024 * 1024)) {
  throw new Error('--body-bytes must be from 1 to 1048576');
}
const AUTH = `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`;
const JSON_BODY = { authorization: AUTH, 'content-type': 'application/json' };
const EXPECTED = new Set([200, 204]);

const rssMiB = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};

function startSandbox() {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const child = spawn(process.execPath, [cli, '--http', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /Base URL\s+(\S+)/.exec(output);
      if (match && output.includes('Press Ctrl+C')) resolve({ child, baseUrl: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
}

const SEEDED_ADDRESS = JSON.parse(
  readFileSync(new URL('../fixtures/default.json', import.meta.url), 'utf8'),
).servers[0].contacts[0].emailAddress;

// A mix of what a client does: reads in both formats, adds (a bounded set of addresses, so the
// state stops growing), removals and unsubscribes.
let counter = 0;
const requests = [
  { method: 'GET', path: '/lists', headers: { authorization: AUTH } },
  { method: 'GET', path: '/lists', headers: { authorization: AUTH, accept: 'text/xml' } },
  { method: 'GET', path: '/customfields', headers: { authorization: AUTH } },
  { method: 'GET', path: '/content', headers: { authorization: AUTH, accept: 'application/xml' } },
  {
    method: 'PUT',
    path: '/lists/1/contacts',
    headers: JSON_BODY,
    setupRequest: (request) => ({ ...request, body: addBody() }),
  },
  { method: 'PUT', path: '/lists/2/contacts/3', headers: { authorization: AUTH } },
  { method: 'DELETE', path: '/lists/2/contacts/3', headers: { authorization: AUTH } },
  { method: 'POST', path: '/contacts/unsubscribe/5', headers: { authorization: AUTH } },
  {
    method: 'POST',
    path: '/contacts/unsubscribe',
    headers: JSON_BODY,
    body: JSON.stringify({
      emailAddress: BODY_BYTES === undefined ? 'soak1@example.com' : SEEDED_ADDRESS,
    }),
  },
];

/**
 * A bounded set of addresses, so the state stops growing. Padded bodies go to a seeded contact:
 * firstName applies only to a new contact, so the padding is never stored, only journaled.
 */
function addBody() {
  if (BODY_BYTES === undefined) {
    return JSON.stringify({
      emailAddress: `soak${counter++ % 200}@example.com`,
      firstName: 'Soak',
    });
  }
  return addBodyOf(BODY_BYTES);
}

/** An add-by-email body of `bytes` bytes, padded with a first name that is never stored. */
function addBodyOf(bytes) {
  const body = { emailAddress: SEEDED_ADDRESS, firstName: '' };
  const padding = Math.max(0, bytes - JSON.stringify(body).length);
  return JSON.stringify({ ...body, firstName: 'x'.repeat(padding) });
}

const { child, baseUrl } = await startSandbox();
if (values['journal-rss']) await journalRss();
const samples = [{ second: 0, rss: rssMiB(child.pid) }];
const started = Date.now();
const sampler = setInterval(
  () => samples.push({ second: Math.round((Date.now() - started) / 1000), rss: rssMiB(child.pid) }),
  5000,
);
const result = await autocannon({
  url: baseUrl,
  connections: 16,
  duration: SECONDS,
  requests: requests.map((request) => ({
    ...request,
    path: new URL(baseUrl).pathname + request.path,
  })),
});
clearInterval(sampler);
samples.push({ second: SECONDS, rss: rssMiB(child.pid) });
child.kill('SIGTERM');
const exitCode = await new Promise((resolve) => child.once('exit', resolve));

const statuses = Object.fromEntries(
  Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
);
const unexpected = Object.entries(statuses).filter(([code]) => !EXPECTED.has(Number(code)));
// Memory is flat when the second half of the run adds little: warm-up and JIT come first.
const middle = samples[Math.floor(samples.length / 2)].rss;
const end = samples.at(-1).rss;
const growth = (end - middle) / middle;
const problems = [
  ...unexpected.map(([code, count]) => `${count} answers with status ${code}`),
  ...(result.errors > 0 ? [`${result.errors} socket errors`] : []),
  ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
  ...(growth > 0.25 ? [`RSS grew ${(growth * 100).toFixed(0)} % in the second half`] : []),
  ...(exitCode !== 0 ? [`the sandbox exited with ${exitCode} on SIGTERM`] : []),
];

const report = [
  `# Soak: ${SECONDS} s, ${new Date().toISOString()}`,
  '',
  `- requests: ${result.requests.total} (${Math.round(result.requests.average)} /s), 16 connections, loopback HTTP${BODY_BYTES === undefined ? '' : `, add-by-email bodies of ${BODY_BYTES} bytes`}`,
  `- statuses: ${Object.entries(statuses)
    .map(([code, count]) => `${code}: ${count}`)
    .join(', ')}`,
  `- errors: ${result.errors}, timeouts: ${result.timeouts}`,
  `- latency: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms`,
  `- RSS (MiB) by second: ${samples.map(({ second, rss }) => `${second}s ${rss.toFixed(0)}`).join(', ')}`,
  `- sandbox exit on SIGTERM: ${exitCode}`,
  '',
  problems.length === 0 ? 'Nothing unexpected.' : `Problems: ${problems.join('; ')}.`,
  '',
].join('\n');
process.stdout.write(report);
if (values.out) writeFileSync(values.out, report);
process.exit(problems.length === 0 ? 0 : 1);

/**
 * Sends `--exchanges` add-by-email requests with 1 MiB bodies, a few at a time, and samples the
 * sandbox's RSS around them and around reading the whole journal and its HAR.
 */
async function journalRss() {
  const exchanges = Number(values.exchanges ?? 1000);
  const maxGrowth = Number(values['max-growth-mib'] ?? 200);
  const admin = `${new URL(baseUrl).origin}/__admin`;
  const body = addBodyOf(1024 * 1024);
  const rss = { start: rssMiB(child.pid) };
  const statuses = {};
  let sent = 0;
  const worker = async () => {
    while (sent < exchanges) {
      sent += 1;
      const response = await fetch(`${baseUrl}/lists/1/contacts`, {
        method: 'PUT',
        headers: JSON_BODY,
        body,
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  rss.recorded = rssMiB(child.pid);
  let peak = rss.recorded;
  const read = async (path) => {
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMiB(child.pid));
    }, 20);
    const response = await fetch(`${admin}${path}`);
    const bytes = (await response.arrayBuffer()).byteLength;
    clearInterval(sampler);
    peak = Math.max(peak, rssMiB(child.pid));
    return { status: response.status, bytes };
  };
  const journal = await read('/requests');
  rss.afterJournal = rssMiB(child.pid);
  const har = await read('/requests.har');
  rss.afterHar = rssMiB(child.pid);
  child.kill('SIGTERM');
  const exitCode = await new Promise((resolve) => child.once('exit', resolve));
  const growth = Math.max(rss.recorded, rss.afterJournal, rss.afterHar, peak) - rss.start;
  const problems = [
    ...Object.entries(statuses)
      .filter(([code]) => code !== '200')
      .map(([code, count]) => `${count} answers with status ${code}`),
    ...(journal.status !== 200 || har.status !== 200
      ? [`reading answered ${journal.status} and ${har.status}`]
      : []),
    ...(growth > maxGrowth ? [`RSS grew ${growth.toFixed(0)} MiB (bound ${maxGrowth})`] : []),
    ...(exitCode !== 0 ? [`the sandbox exited with ${exitCode} on SIGTERM`] : []),
  ];
  const mib = (value) => `${value.toFixed(0)} MiB`;
  const report = [
    `# Journal memory: ${exchanges} exchanges of 1 MiB bodies, ${new Date().toISOString()}`,
    '',
    '- the sandbox CLI at its defaults (journalSize 1000, journalBodyLimit 64 KiB), loopback HTTP',
    `- statuses: ${Object.entries(statuses)
      .map(([code, count]) => `${code}: ${count}`)
      .join(', ')}`,
    `- RSS: start ${mib(rss.start)}, after recording ${mib(rss.recorded)}, after GET /__admin/requests (${(journal.bytes / 1024 / 1024).toFixed(0)} MiB of JSON) ${mib(rss.afterJournal)}, after GET /__admin/requests.har (${(har.bytes / 1024 / 1024).toFixed(0)} MiB) ${mib(rss.afterHar)}, peak while reading ${mib(peak)}`,
    `- growth: ${mib(growth)} (bound ${maxGrowth} MiB)`,
    '',
    problems.length === 0 ? 'Nothing unexpected.' : `Problems: ${problems.join('; ')}.`,
    '',
  ].join('\n');
  const figures = {
    exchanges,
    rss,
    peak,
    growth,
    journalBytes: journal.bytes,
    harBytes: har.bytes,
  };
  process.stdout.write(values.json ? `${JSON.stringify({ ...figures, problems })}\n` : report);
  if (values.out) writeFileSync(values.out, report);
  process.exit(problems.length === 0 ? 0 : 1);
}
