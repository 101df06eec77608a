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
 * from 0.7 to 6.4 GB. What the page reads and the sandbox's memory are checked here; the latency
 * is measured by bench/inspector.mjs, never timed in a test. The sandbox runs in its own process,
 * so that its memory is its own, not the test's or the browser's.
 */
const MiB = 1024 * 1024;
/** Five servers of 60 contacts with a 1 MiB value each: each seed within the 64 MiB seed limit. */
const SERVERS = 5;
const CONTACTS = 60;
/** How long the page stays open while GET /lists is asked: several of its state polls (every 3 s). */
const OPEN_MS = 12_000;

/** The process's resident memory now, from /proc (Linux): what it holds, not what it peaked at. */
function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024;
}

function getLists(agent: Agent, url: string, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { authorization } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
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

describe.skipIf(!available)('the inspector on a sandbox holding 300 MiB of state', () => {
  let browser: Browser | undefined;
  let cli: Pick<RunningCli, 'child'> | undefined;
  afterAll(async () => {
    await browser?.close();
    if (cli?.child.exitCode === null) cli.child.kill('SIGKILL');
  });

  it("reads a bounded part of the state and keeps the sandbox's memory flat while the page is open", async () => {
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
    // Without the page: the memory to compare with, once a client's requests have filled the
    // journal (1000 entries) a few times over, as they go on doing while the page is open.
    for (let asked = 0; asked < 5000; asked++) await getLists(agent, lists, authorization);
    const before = residentBytes(pid);

    browser = await launchChromium();
    const page = await browser.newPage();
    /** Each answer the page's own calls got: its path and its length in bytes. */
    const reads: { path: string; bytes: number }[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'fetch') return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      reads.push({ path: new URL(response.url()).pathname, bytes: body.length });
    });
    await page.goto(`${url}/__admin/ui`);
    let mostResident = before;
    const sampler = setInterval(() => {
      mostResident = Math.max(mostResident, residentBytes(pid));
    }, 200);
    const statuses = new Set<number>();
    let asked = 0;
    try {
      // A client's requests meanwhile, paced: at full speed their garbage alone moves the
      // sandbox's memory by tens of MiB, as much as what is measured.
      for (const end = performance.now() + OPEN_MS; performance.now() < end; asked++) {
        statuses.add(await getLists(agent, lists, authorization));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      clearInterval(sampler);
      agent.destroy();
    }
    const shown = await page.locator('#server option').count();
    await page.close();
    running.child.kill('SIGTERM');
    const { rss: peak } = await running.exited;
    const readBytes = reads.reduce((sum, read) => sum + read.bytes, 0);
    const figures = {
      listsAsked: asked,
      pageReads: reads.length,
      pageReadKiB: Math.round(readBytes / 1024),
      largestReadKiB: Math.round(Math.max(...reads.map((read) => read.bytes)) / 1024),
      residentBeforeMiB: Math.round(before / MiB),
      residentMostWhileOpenMiB: Math.round(mostResident / MiB),
      peakRssMiB: Math.round(peak / MiB),
    };
    console.log('inspector on 300 MiB of state:', JSON.stringify(figures));

    expect([...statuses]).toEqual([200]);
    // The page never reads the whole state, nor a value whole: an overview cuts each value at
    // 200 characters, so all its reads in 12 s are a small part of one 1 MiB value (the old page
    // read the 300 MiB state every 3 s).
    expect(reads.map((read) => read.path)).not.toContain('/__admin/state');
    expect(Math.max(...reads.map((read) => read.bytes))).toBeLessThan(MiB);
    expect(readBytes).toBeLessThan(4 * MiB);
    // The page's polls hold nothing of the state's size in the sandbox: a copy of a third of it
    // would be 100 MiB (the old page's reads of the whole state piled up to gigabytes). Garbage
    // collection moves the figure by tens of MiB from run to run, so the bound is no closer.
    expect(mostResident - before).toBeLessThan(100 * MiB);
    // The page was live the whole time: its servers, several journal and state polls.
    expect(shown).toBe(SERVERS + servers.length);
    const polled = reads.map((read) => read.path);
    expect(polled.filter((path) => path.endsWith('/overview')).length).toBeGreaterThanOrEqual(3);
    expect(polled.filter((path) => path === '/__admin/requests').length).toBeGreaterThanOrEqual(3);
  }, 90_000);
});
