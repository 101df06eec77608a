import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { call, makeFake } from '../helpers/fake.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// CI installs Debian's chromium (.ci/run); elsewhere the test says it is skipped rather than fail.
const available = existsSync(CHROMIUM) || process.env.CI === 'true';
if (!available) console.warn(`inspector.test.ts: skipped, no Chromium at ${CHROMIUM}`);
const SCREENSHOT = fileURLToPath(new URL('../../docs/inspector.png', import.meta.url));
const TOKEN = 'ui-token';

let fake: FakeMarketingServer;
let url: string;
let browser: Browser;
let page: Page;

describe.skipIf(!available)('the inspector page in headless Chromium', () => {
  beforeAll(async () => {
    fake = await makeFake({ adminToken: TOKEN });
    ({ url } = await fake.listen({ https: false }));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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

  it('searches contacts by email, field value, status and list', async () => {
    await expect.poll(() => rows('contacts').count()).toBe(4);
    await page.fill('#search', 'lisbon');
    expect(await rows('contacts').count()).toBe(2);
    expect(await rows('contacts').nth(1).innerText()).toContain('Ann@Example.com');
    await page.fill('#search', '');
    await page.selectOption('#status', 'Unsubscribed');
    expect(await rows('contacts').count()).toBe(2);
    expect(await rows('contacts').nth(1).innerText()).toContain('cy@example.com');
    await page.selectOption('#status', '');
    await page.selectOption('#list-filter', '2');
    expect(await rows('contacts').count()).toBe(2);
    expect(await rows('contacts').nth(1).innerText()).toContain('ben@example.com');
    await page.selectOption('#list-filter', '');
  });

  it('shows the request journal live (and the README screenshot is taken here)', async () => {
    await call(fake, 'GET', 'customfields');
    await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'dee@example.com', firstName: 'Dee' },
    });
    await call(fake, 'POST', 'customfields/Id');
    await expect
      .poll(() => page.locator('#journal').innerText(), { timeout: 5000 })
      .toContain('/marketing/v1/customfields/Id');
    await expect.poll(() => rows('contacts').count(), { timeout: 5000 }).toBe(5);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
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
