import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { call, makeFake } from '../helpers/fake.js';

const available = chromiumAvailable(import.meta.url);
// The docs' picture is rewritten only when asked (UPDATE_SCREENSHOTS=1): a test run leaves the
// checkout clean.
const SCREENSHOT =
  process.env.UPDATE_SCREENSHOTS === '1'
    ? fileURLToPath(new URL('../../docs/inspector.png', import.meta.url))
    : join(tmpdir(), `fake-marketing-server-inspector-${process.pid}.png`);
const TOKEN = 'ui-token';

let fake: FakeMarketingServer;
let url: string;
let browser: Browser;
let page: Page;

describe.skipIf(!available)('the inspector page in headless Chromium', () => {
  beforeAll(async () => {
    fake = await makeFake({ adminToken: TOKEN });
    ({ url } = await fake.listen({ https: false }));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fake?.close();
  });

  const rows = (table: string) => page.locator(`#${table} tr`);

  it('needs the admin token', async () => {
    const response = await page.goto(`${url}/__admin/ui`);
    expect(response?.status()).toBe(401);
  });

  it('shows lists with member counts, custom fields and content with thumbnails', async () => {
    await page.goto(`${url}/__admin/ui?token=${TOKEN}`);
    await expect.poll(() => rows('lists').count()).toBe(3);
    expect(await rows('lists').nth(1).innerText()).toMatch(/1\s+Newsletter\s+2/);
    expect(await rows('lists').nth(2).innerText()).toContain('Customers & <Friends>');
    expect(await rows('fields').count()).toBe(4);
    await expect
      .poll(() =>
        page
          .locator('#content img')
          .first()
          .evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
      )
      .toBe(1);
  });

  // The control API filters (the page holds only the contacts it shows): each answer comes back
  // a moment after the input.
  it('searches contacts by email, field value, status and list', async () => {
    const only = async (email: string) => {
      await expect.poll(() => rows('contacts').count()).toBe(2);
      expect(await rows('contacts').nth(1).innerText()).toContain(email);
    };
    await expect.poll(() => rows('contacts').count()).toBe(4);
    await page.fill('#search', 'lisbon');
    await only('Ann@Example.com');
    await page.fill('#search', '');
    await expect.poll(() => rows('contacts').count()).toBe(4);
    await page.selectOption('#status', 'Unsubscribed');
    await only('cy@example.com');
    await page.selectOption('#status', '');
    await expect.poll(() => rows('contacts').count()).toBe(4);
    await page.selectOption('#list-filter', '2');
    await only('ben@example.com');
    await page.selectOption('#list-filter', '');
    await expect.poll(() => rows('contacts').count()).toBe(4);
  });

  it('shows the request journal live', async () => {
    await call(fake, 'GET', 'customfields');
    await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'dee@example.com', firstName: 'Dee' },
    });
    await call(fake, 'POST', 'customfields/Id');
    await expect
      .poll(() => page.locator('#journal').innerText(), { timeout: 5000 })
      .toContain('/marketing/v1/customfields/Id');
    await expect.poll(() => rows('contacts').count(), { timeout: 5000 }).toBe(5);
  });

  it('opens a whole exchange from a journal row: request line, redacted headers, pretty bodies, timing', async () => {
    fake.clearRequests();
    await call(fake, 'PUT', 'lists/1/contacts?source=page&tag=%3Cb%3E', {
      body: {
        emailAddress: '<img src=x onerror=alert(1)>@example.com',
        customFields: [{ Name: 'City', Value: 'Porto' }],
      },
    });
    await call(fake, 'GET', 'lists', { accept: 'text/xml' });
    await page.fill('#journal-filter', '');
    await expect.poll(() => rows('journal').count(), { timeout: 5000 }).toBe(3);
    await page.locator('#journal tr[data-id]').nth(1).click();
    const text = (id: string) => page.locator(`#exchange-${id}`).innerText();
    await expect
      .poll(() => text('request-line'))
      .toMatch(
        /^#\d+ PUT \/marketing\/v1\/lists\/1\/contacts\?source=page&tag=%3Cb%3E HTTP\/1\.1$/,
      );
    expect(await text('request-headers')).toContain('authorization: Basic 1234:<redacted>');
    expect(await text('request-headers')).not.toContain('key-1234');
    expect(await text('request-body')).toContain(
      '"emailAddress": "<img src=x onerror=alert(1)>@example.com"',
    );
    expect(await text('status-line')).toMatch(
      /^HTTP\/1\.1 400 · JSON · [\d.]+ ms · addToListByEmail$/,
    );
    expect(await text('response-body')).toContain(
      '"message": "The email address is missing or poorly formatted."',
    );
    // Markup in a body stays text: no element was made from it.
    expect(await page.locator('#exchange img, #journal img, #journal b').count()).toBe(0);
    await page.locator('#journal tr[data-id]').nth(0).click();
    await expect
      .poll(() => text('response-body'))
      .toContain('<ArrayOfList>\n  <List>\n    <Id>1</Id>');
    // The screenshot in docs/sandbox.md: the page with an exchange open.
    await page.locator('#journal tr[data-id]').nth(1).click();
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });

  it('filters the journal with the control API filter syntax, and shows a bad filter', async () => {
    await page.fill('#journal-filter', 'operation=addToListByEmail&status=4xx');
    await expect.poll(() => rows('journal').count(), { timeout: 5000 }).toBe(2);
    expect(await rows('journal').nth(1).innerText()).toContain('addToListByEmail');
    await page.fill('#journal-filter', 'status=teapot');
    await expect
      .poll(() => page.locator('#journal-error').innerText())
      .toContain('Bad filter: status');
    await page.fill('#journal-filter', '');
    await expect.poll(() => page.locator('#journal-error').innerText()).toBe('');
  });

  it('starts and stops a maintenance outage', async () => {
    await page.click('#outage');
    await expect.poll(() => fake.faults.list().map((fault) => fault.kind)).toEqual(['unavailable']);
    await expect.poll(() => page.locator('#outage').innerText()).toBe('Stop maintenance');
    expect((await call(fake, 'GET', 'lists')).status).toBe(503);
    await page.click('#outage');
    await expect.poll(() => fake.faults.list()).toEqual([]);
  });

  it('adds other faults, shows the message of a refused rule, and removes a rule', async () => {
    await page.selectOption('#fault-kind', 'status');
    await page.fill('#fault-path', '/lists');
    await page.fill('#fault-value', '429');
    await page.click('#fault-form button[type=submit]');
    await expect
      .poll(() => fake.faults.list().map((f) => [f.kind, f.status, f.match]))
      .toEqual([['status', 429, { path: '/lists' }]]);
    expect((await call(fake, 'GET', 'lists')).status).toBe(429);
    await page.selectOption('#fault-kind', 'delay');
    await page.fill('#fault-value', '-5');
    await page.click('#fault-form button[type=submit]');
    await expect.poll(() => page.locator('#fault-error').innerText()).toContain('delayMs');
    expect(fake.faults.list()).toHaveLength(1);
    await page.locator('#faults button').first().click();
    await expect.poll(() => fake.faults.list()).toEqual([]);
  });

  it('resets the fake', async () => {
    const { serverId } = fake.addServer();
    await expect.poll(() => page.locator('#server option').count(), { timeout: 5000 }).toBe(3);
    await page.click('#reset');
    await expect.poll(() => page.locator('#server option').count()).toBe(2);
    expect(() => fake.server(serverId)).toThrow();
  });
});

describe.skipIf(!available)(
  'the inspector page without an admin token, in headless Chromium',
  () => {
    let open: FakeMarketingServer;
    let openBrowser: Browser;

    beforeAll(async () => {
      open = await makeFake();
      openBrowser = await launchChromium();
    }, 60_000);
    afterAll(async () => {
      await openBrowser?.close();
      await open?.close();
    });

    it('keeps working from its own origin: its calls that change state pass the Origin check', async () => {
      const { url: openUrl } = await open.listen({ https: false });
      const openPage = await openBrowser.newPage();
      await openPage.goto(`${openUrl}/__admin/ui`);
      await expect.poll(() => openPage.locator('#lists tr').count(), { timeout: 5000 }).toBe(3);
      await openPage.click('#outage');
      await expect
        .poll(() => open.faults.list().map((fault) => fault.kind))
        .toEqual(['unavailable']);
      await openPage.click('#reset');
      await expect.poll(() => open.faults.list()).toEqual([]);
      // The page's own requests went through the guard: it sends Origin on POST, as browsers do.
      await openPage.close();
    });
  },
);
