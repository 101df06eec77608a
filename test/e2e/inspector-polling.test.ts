import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { call, makeFake } from '../helpers/fake.js';

const available = chromiumAvailable(import.meta.url);

/** The page's own calls to the control API, as the browser sent them. */
class Calls {
  readonly started: { url: URL; at: number }[] = [];
  inFlight = 0;
  mostInFlight = 0;
  /** Bytes of each journal read's answer. */
  readonly journalBytes: number[] = [];

  constructor(page: Page) {
    const own = (request: Request) =>
      request.resourceType() === 'fetch' && new URL(request.url()).pathname.startsWith('/__admin');
    page.on('request', (request) => {
      if (!own(request)) return;
      this.started.push({ url: new URL(request.url()), at: Date.now() });
      this.inFlight += 1;
      this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    });
    const ended = (request: Request) => {
      if (own(request)) this.inFlight -= 1;
    };
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname !== '/__admin/requests') return;
      const body = await response.body().catch(() => Buffer.alloc(0));
      this.journalBytes.push(body.length);
    });
  }

  since(at: number) {
    return this.started.filter((call) => call.at >= at);
  }
}

/** Tells the page its tab is hidden (or shown), as the browser does when the user switches tabs. */
function setVisibility(page: Page, state: 'hidden' | 'visible') {
  return page.evaluate((visibility) => {
    // The page's document (this test compiles without the DOM's types).
    const { document } = globalThis as unknown as { document: EventTarget };
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => visibility,
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

describe.skipIf(!available)('the inspector polls gently, in headless Chromium', () => {
  let fake: FakeMarketingServer;
  let url: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    fake = await makeFake();
    ({ url } = await fake.listen({ https: false }));
    browser = await launchChromium();
  }, 60_000);
  afterEach(async () => {
    await page?.close();
  });
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
  });

  async function open() {
    page = await browser.newPage();
    const calls = new Calls(page);
    await page.goto(`${url}/__admin/ui`);
    await expect.poll(() => page.locator('#lists tr').count(), { timeout: 5000 }).toBe(3);
    return calls;
  }

  it('makes one call at a time, and fewer while calls are slow', async () => {
    page = await browser.newPage();
    const calls = new Calls(page);
    // Every control call takes 1.5 s: the old page's timers (journal every second, state and
    // faults every 3 s) piled calls on top of each other.
    const control = (address: URL) =>
      address.pathname.startsWith('/__admin/') && address.pathname !== '/__admin/ui';
    await page.route(control, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });
    await page.goto(`${url}/__admin/ui`);
    const from = Date.now();
    await page.waitForTimeout(10_000);
    expect(calls.mostInFlight).toBe(1);
    // A first poll of four calls (6 s), then a pause ten times as long as it took (30 s at most).
    expect(calls.since(from).length).toBeLessThanOrEqual(5);
    expect(calls.since(from).length).toBeGreaterThanOrEqual(3);
  }, 30_000);

  it('stops polling while the tab is hidden, and polls at once when it is shown again', async () => {
    const calls = await open();
    await setVisibility(page, 'hidden');
    // A poll under way ends; none starts after it.
    await page.waitForTimeout(1000);
    const hidden = Date.now();
    await page.waitForTimeout(4000);
    expect(calls.since(hidden)).toEqual([]);
    const shown = Date.now();
    await setVisibility(page, 'visible');
    await expect
      .poll(() => calls.since(shown).map((call) => call.url.pathname), { timeout: 1000 })
      .toEqual(expect.arrayContaining(['/__admin/requests', '/__admin/servers']));
  }, 30_000);

  it('reads only the journal entries that arrived since its last read, without their bodies', async () => {
    fake.clearRequests();
    // Bodies of control characters: each 64 KiB body is 384 KiB as JSON.
    const body = '\u0001'.repeat(64 * 1024);
    for (let index = 0; index < 60; index++) {
      await call(fake, 'PUT', 'lists/1/contacts', {
        body,
        headers: { 'content-type': 'application/json' },
      });
    }
    const calls = await open();
    await expect
      .poll(() => page.locator('#journal tr[data-id]').count(), { timeout: 5000 })
      .toBe(50);
    const newest = fake.requests().at(-1)!.id;
    await call(fake, 'GET', 'lists');
    await expect
      .poll(() => page.locator('#journal tr[data-id]').first().getAttribute('data-id'), {
        timeout: 5000,
      })
      .toBe(String(newest + 1));
    await page.waitForTimeout(1500);
    const reads = calls.started.filter((call) => call.url.pathname === '/__admin/requests');
    expect(reads[0]!.url.searchParams.get('sinceId')).toBe(null);
    for (const read of reads) {
      expect(read.url.searchParams.get('last')).toBe('50');
      expect(read.url.searchParams.get('bodies')).toBe('none');
    }
    // After the first read, each asks for what is newer than what it holds.
    const later = reads.slice(1).map((read) => Number(read.url.searchParams.get('sinceId')));
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((sinceId) => sinceId >= newest)).toBe(true);
    expect(later.at(-1)).toBe(newest + 1);
    // Fifty entries without bodies: a few kilobytes, where the bodies alone were 23 MiB.
    expect(Math.max(...calls.journalBytes)).toBeLessThan(64 * 1024);
    // The whole exchange, bodies included, is read when its row is clicked.
    await page.locator('#journal tr[data-id]').nth(1).click();
    await expect
      .poll(() => page.locator('#exchange-request-body').innerText(), { timeout: 5000 })
      .toContain('[65536 bytes]');
  }, 30_000);

  it('drops the entries the journal no longer holds', async () => {
    await call(fake, 'GET', 'lists');
    await open();
    await expect
      .poll(() => page.locator('#journal tr[data-id]').count(), { timeout: 5000 })
      .toBeGreaterThan(0);
    fake.clearRequests();
    await call(fake, 'GET', 'customfields');
    const id = fake.requests()[0]!.id;
    const shown = () =>
      page
        .locator('#journal tr[data-id]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')));
    await expect.poll(shown, { timeout: 5000 }).toEqual([String(id)]);
    expect(await page.locator('#journal').innerText()).toContain('/marketing/v1/customfields');
  }, 30_000);
});
