import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { Journal } from '../../src/journal/journal.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { call, makeFake } from '../helpers/fake.js';

const available = chromiumAvailable(import.meta.url);
const TOKEN = 'isolation-token-7c1d';

/** A glob that backtracks for seconds over a long recorded path, were it ever evaluated. */
const SLOW_GLOB = encodeURIComponent(`/${'a*'.repeat(12)}b`);

let browser: Browser;

beforeAll(async () => {
  if (!available) return;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** A page of another site: served by its own server, on `localhost` where the fake is on 127.0.0.1. */
async function foreignSite(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}/`, server };
}

/**
 * What the fake itself answered, by method and URL, from its own log (fastify logs every request
 * and its status): evidence from the server, whatever the browser shows the page.
 */
class ServerLog {
  private readonly lines: {
    reqId?: string;
    msg?: string;
    req?: { method: string; url: string };
    res?: { statusCode: number };
  }[] = [];
  readonly stream = { write: (line: string) => this.lines.push(JSON.parse(line)) };

  answers(): Map<string, number[]> {
    const asked = new Map<string, string>();
    const seen = new Map<string, number[]>();
    for (const line of this.lines) {
      if (line.req && line.reqId) asked.set(line.reqId, `${line.req.method} ${line.req.url}`);
      if (line.res && line.reqId) {
        const request = asked.get(line.reqId) ?? '?';
        seen.set(request, [...(seen.get(request) ?? []), line.res.statusCode]);
      }
    }
    return seen;
  }
}

describe.skipIf(!available)('a cross-site page against the sandbox, in headless Chromium', () => {
  let fake: FakeMarketingServer;
  let origin: string;
  let site: Server | undefined;
  const log = new ServerLog();
  beforeAll(async () => {
    // The CLI's defaults: no admin token, on loopback.
    fake = await makeFake({ logger: { level: 'info', stream: log.stream } });
    ({ url: origin } = await fake.listen({ https: false }));
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(undefined)));
    site = undefined;
  });
  afterAll(() => fake?.close());

  it('can neither read nor make the control API work with <img>, no-cors fetch and a form post', async () => {
    // A long path in the journal: the slow glob would spin on it, were the filter ever run.
    await call(fake, 'GET', `${'a'.repeat(3000)}`);
    const before = fake.exportState();
    const read = vi.spyOn(Journal.prototype, 'entries');
    const wait = vi.spyOn(Journal.prototype, 'waitFor');
    const targets = [
      `${origin}/__admin/requests?path=${SLOW_GLOB}`,
      `${origin}/__admin/requests.har?path=${SLOW_GLOB}`,
      `${origin}/__admin/requests/wait?timeoutMs=60000&path=${SLOW_GLOB}`,
      `${origin}/__admin/state`,
    ];
    const attack = await foreignSite(`<!doctype html><body>
      ${targets.map((target) => `<img src="${target}">`).join('\n')}
      <form id="f" method="POST" action="${origin}/__admin/reset"></form>
      <script>
        window.done = Promise.allSettled([
          ${targets.map((target) => `fetch(${JSON.stringify(target)}, { mode: 'no-cors' })`).join(',')},
          fetch(${JSON.stringify(`${origin}/__admin/maintenance`)}, { method: 'POST', mode: 'no-cors' }),
        ]);
      </script></body>`);
    site = attack.server;
    const page = await browser.newPage();
    await page.goto(attack.url);
    await page.evaluate('window.done');
    await Promise.all([
      page.waitForEvent('framenavigated'),
      page.evaluate("document.getElementById('f').submit()"),
    ]);
    await page.close();
    const answers = log.answers();
    const asked = [
      ...targets.map((target) => `GET ${target.slice(origin.length)}`),
      'POST /__admin/maintenance',
      'POST /__admin/reset',
    ];
    for (const request of asked) {
      // The <img> and the fetch of each read both arrived, and both were refused.
      expect(answers.get(request), request).toEqual(request.startsWith('GET') ? [403, 403] : [403]);
    }
    // Refused before any work: the journal was never read nor waited on, nothing changed.
    expect(read).not.toHaveBeenCalled();
    expect(wait).not.toHaveBeenCalled();
    expect(fake.exportState()).toEqual(before);
    expect(fake.faults.list()).toEqual([]);
    // And the fake answers at once.
    expect((await fetch(`${origin}/__admin/health`)).status).toBe(200);
  });

  it('cannot frame the inspector', async () => {
    const attack = await foreignSite(
      `<!doctype html><iframe id="ui" src="${origin}/__admin/ui" width="800" height="600"></iframe>`,
    );
    site = attack.server;
    const page = await browser.newPage();
    await page.goto(attack.url);
    await expect.poll(() => log.answers().get('GET /__admin/ui')).toEqual([403]);
    const frame = page.frames().find((one) => one !== page.mainFrame());
    expect(await frame?.locator('#reset').count()).toBe(0);
    await page.close();
  });

  it('cannot be framed even by a page of its own origin: the browser enforces its headers', async () => {
    // A page served (by the test) at the fake's own origin: the guard lets the frame through, so
    // only X-Frame-Options and frame-ancestors stand between it and the inspector.
    const page = await browser.newPage();
    const host = `${origin}/framing-test.html`;
    await page.route(host, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><iframe src="${origin}/__admin/ui"></iframe>`,
      }),
    );
    await page.goto(host);
    await expect.poll(() => log.answers().get('GET /__admin/ui')?.at(-1)).toBe(200);
    const frame = page.frames().find((one) => one !== page.mainFrame());
    // The inspector never rendered: no element of it in the frame, its script never ran.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      await frame
        ?.locator('#reset')
        .count()
        .catch(() => 0),
    ).toBe(0);
    await page.close();
  });
});

describe.skipIf(!available)('the inspector leaves no trace of itself, in headless Chromium', () => {
  let fake: FakeMarketingServer;
  let origin: string;
  beforeAll(async () => {
    fake = await makeFake({ adminToken: TOKEN });
    ({ url: origin } = await fake.listen({ https: false }));
  });
  afterAll(() => fake?.close());

  it('opening it and clicking around adds no journal entry; its token leaves the address bar and no request carries it', async () => {
    fake.clearRequests();
    const page = await browser.newPage();
    const requests: Request[] = [];
    page.on('request', (request) => requests.push(request));
    await page.goto(`${origin}/__admin/ui?token=${TOKEN}`);
    await expect.poll(() => page.locator('#lists tr').count()).toBe(3);
    // Thumbnails come through the control API now, and still show.
    await expect
      .poll(() =>
        page
          .locator('#content img')
          .first()
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)
          .catch(() => 0),
      )
      .toBe(1);
    expect(page.url()).toBe(`${origin}/__admin/ui`);
    // One call at a time: the other server's overview is read once the call under way ends.
    const otherOverview = page.waitForRequest((request) =>
      request.url().endsWith('/__admin/servers/56789/overview'),
    );
    await page.selectOption('#server', '56789');
    await otherOverview;
    await page.selectOption('#server', '1234');
    await page.fill('#search', 'ann');
    await page.fill('#journal-filter', 'status=2xx');
    await page.click('#outage');
    await expect.poll(() => fake.faults.list()).toHaveLength(1);
    await page.click('#outage');
    await expect.poll(() => fake.faults.list()).toHaveLength(0);
    // Long enough for a few journal polls (every second) and a state refresh (every 3 s).
    await page.waitForTimeout(3500);
    const sent = await Promise.all(
      requests.map(async (request) => ({
        url: request.url(),
        referer: (await request.allHeaders()).referer,
      })),
    );
    await page.close();
    expect(fake.requests()).toEqual([]);
    const own = sent.filter(({ url }) => url.startsWith(origin));
    expect(own.map(({ url }) => new URL(url).pathname)).toEqual(
      expect.arrayContaining([
        '/__admin/servers',
        '/__admin/servers/1234/overview',
        '/__admin/servers/56789/overview',
        '/__admin/requests',
      ]),
    );
    expect(own.some(({ url }) => url.includes('/marketing/'))).toBe(false);
    expect(own.filter(({ referer }) => referer)).toEqual([]);
    expect(own.length).toBeGreaterThan(5);
    // A client's own request still lands in the journal as before.
    await call(fake, 'GET', 'lists');
    expect(fake.requests()).toHaveLength(1);
  }, 30_000);
});
