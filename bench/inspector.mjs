// The inspector page open on a sandbox holding 300 MiB of state: GET /lists latency without the
// page and with it, and the sandbox's resident memory. The page used to read the whole state every
// 3 s and the whole journal every second, whether or not its last call had ended: GET /lists p99
// went from 5 ms to 7.5 s. test/e2e/inspector-large-state.test.ts checks what the page reads and
// the memory; the time is measured here, never in a test.
// `node bench/inspector.mjs [--seconds 12]`: prints one JSON object (bench/run.mjs includes it).
// Needs Debian's Chromium (CHROMIUM_PATH points elsewhere); prints {"skipped": ...} without it.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seconds: { type: 'string' } } });
const SECONDS = Number(values.seconds ?? 12);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const AUTH = `Basic ${Buffer.from('12345:sandbox-key-12345').toString('base64')}`;
const MiB = 1024 * 1024;
/** Five servers of 60 contacts with a 1 MiB value each: each seed within the 64 MiB seed limit. */
const SERVERS = 5;
const CONTACTS = 60;

const log = (message) => process.stderr.write(`${message}\n`);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function residentBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

function timedGet(agent, url) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { authorization: AUTH } }, (response) => {
      response.resume();
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(performance.now() - start)
          : reject(new Error(`GET /lists answered ${response.statusCode}`)),
      );
    })
      .on('error', reject)
      .end();
  });
}

async function startSandbox() {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, '--http', '--port', String(port)], {
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; tries < 100; tries++) {
    const up = await fetch(`${url}/__admin/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { url, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the sandbox did not start');
}

async function seedLargeState(url) {
  const value = 'v'.repeat(MiB);
  for (let server = 0; server < SERVERS; server++) {
    const seed = {
      servers: [
        {
          serverId: 2001 + server,
          maxContacts: CONTACTS,
          customFields: [{ name: 'Note' }],
          contacts: Array.from({ length: CONTACTS }, (_, index) => ({
            emailAddress: `c${index}@example.com`,
            customFields: { Note: value },
          })),
        },
      ],
    };
    const response = await fetch(`${url}/__admin/seed`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(seed),
    });
    if (response.status !== 200) throw new Error(`seeding answered ${response.status}`);
    await response.arrayBuffer();
  }
}

async function measure(agent, lists, seconds) {
  const samples = [];
  for (const end = performance.now() + seconds * 1000; performance.now() < end; ) {
    samples.push(await timedGet(agent, lists));
  }
  samples.sort((a, b) => a - b);
  const at = (share) => samples[Math.ceil(samples.length * share) - 1];
  return {
    requests: samples.length,
    p50: Number(at(0.5).toFixed(1)),
    p99: Number(at(0.99).toFixed(1)),
    max: Number(samples.at(-1).toFixed(1)),
  };
}

if (!existsSync(CHROMIUM)) {
  log(`Inspector: no Chromium at ${CHROMIUM}, skipped.`);
  process.stdout.write(`${JSON.stringify({ skipped: `no Chromium at ${CHROMIUM}` })}\n`);
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const { url, child } = await startSandbox();
let browser;
try {
  await seedLargeState(url);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lists = `${url}/marketing/v1/lists`;
  const quiet = await measure(agent, lists, Math.min(SECONDS, 4));
  const before = residentBytes(child.pid);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage();
  await page.goto(`${url}/__admin/ui`);
  let most = before;
  const sampler = setInterval(() => {
    most = Math.max(most, residentBytes(child.pid));
  }, 200);
  const open = await measure(agent, lists, SECONDS);
  clearInterval(sampler);
  agent.destroy();
  process.stdout.write(
    `${JSON.stringify({
      stateMiB: SERVERS * CONTACTS,
      quiet,
      open,
      residentBeforeMiB: Math.round(before / MiB),
      residentGrowthMiB: Math.round((most - before) / MiB),
    })}\n`,
  );
} finally {
  await browser?.close();
  child.kill('SIGTERM');
}
