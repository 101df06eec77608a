import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { type RunningCli, spawnCliWithPeakRss, started } from '../helpers/cli.js';

const available = chromiumAvailable(import.meta.url);

/**
 * The inspector open on a sandbox holding 300 MiB of state. The page used to read the whole state
 * (GET /__admin/state) every 3 s and the whole journal every second, each on a timer whether or
 * not the last call had ended: GET /lists p99 went from 5 ms to 7.5 s and the sandbox's memory
 * from 0.7 to 6.4 GB. The sandbox runs in its own process, so that its latency and memory are its
 * own, not the test's or the browser's.
 */
const MiB = 1024 * 1024;
/** Five servers of 60 contacts with a 1 MiB value each: each seed within the 64 MiB seed limit. */
const SERVERS = 5;
const CONTACTS = 60;
/** How long GET /lists is measured with the page open: several of its state polls (every 3 s). */
const MEASURE_MS = 12_000;

/** The process's resident memory now, from /proc (Linux): what it holds, not what it peaked at. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

function timedGet(agent: Agent, url: string, authorization: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { authorization } }, (response) => {
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

async function seedLargeState(url: string): Promise<void> {
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
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  }
}

const p99 = (samples: number[]) =>
  [...samples].sort((a, b) => a - b)[Math.ceil(samples.length * 0.99) - 1]!;

describe.skipIf(!available)('the inspector on a sandbox holding 300 MiB of state', () => {
  let browser: Browser | undefined;
  let cli: Pick<RunningCli, 'child'> | undefined;
  afterAll(async () => {
    await browser?.close();
    if (cli?.child.exitCode === null) cli.child.kill('SIGKILL');
  });

  it('keeps GET /lists p99 under 50 ms and the sandbox memory flat while the page is open', async () => {
    const running = spawnCliWithPeakRss(['--http', '--port', '0']);
    cli = running;
    const { url, servers } = await started({
      child: running.child,
      output: running.stdout,
      exited: running.exited.then(({ code, stderr }) => ({ code, signal: null, stderr })),
    });
    const [{ serverId, key }] = servers as [{ serverId: number; key: string }];
    const authorization = `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`;
    await seedLargeState(url);
    const pid = running.child.pid!;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const lists = `${url}/marketing/v1/lists`;
    // Without the page: the figure to compare with.
    const quiet: number[] = [];
    for (const end = performance.now() + 2000; performance.now() < end; ) {
      quiet.push(await timedGet(agent, lists, authorization));
    }
    const before = residentBytes(pid);

    browser = await launchChromium();
    const page = await browser.newPage();
    const polls: string[] = [];
    page.on('request', (sent) => {
      if (sent.resourceType() === 'fetch') polls.push(new URL(sent.url()).pathname);
    });
    await page.goto(`${url}/__admin/ui`);
    let mostResident = before;
    const sampler = setInterval(() => {
      mostResident = Math.max(mostResident, residentBytes(pid));
    }, 200);
    const open: number[] = [];
    try {
      for (const end = performance.now() + MEASURE_MS; performance.now() < end; ) {
        open.push(await timedGet(agent, lists, authorization));
      }
    } finally {
      clearInterval(sampler);
      agent.destroy();
    }
    const shown = await page.locator('#server option').count();
    await page.close();
    running.child.kill('SIGTERM');
    const { rss: peak } = await running.exited;
    const figures = {
      quietP99Ms: p99(quiet).toFixed(1),
      openP99Ms: p99(open).toFixed(1),
      openGets: open.length,
      residentBeforeMiB: Math.round(before / MiB),
      residentMostWhileOpenMiB: Math.round(mostResident / MiB),
      peakRssMiB: Math.round(peak / MiB),
      pagePolls: polls.length,
    };
    console.log('inspector on 300 MiB of state:', JSON.stringify(figures));

    expect(p99(open)).toBeLessThan(50);
    // The page's polls hold nothing of the state's size in the sandbox (the old page's reads of
    // the whole state added 54 MiB in these 12 s, and gigabytes once they piled up).
    expect(mostResident - before).toBeLessThan(40 * MiB);
    // The page was live the whole time: its servers, several journal and state polls.
    expect(shown).toBe(SERVERS + servers.length);
    expect(polls.filter((path) => path.endsWith('/overview')).length).toBeGreaterThanOrEqual(3);
  }, 90_000);
});
