import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer, replayHar, replayReportText } from '../../src/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { KEY, SERVER_ID, smallSeed } from '../helpers/fake.js';

const available = chromiumAvailable(import.meta.url);

const folder = mkdtempSync(join(tmpdir(), 'replay-playwright-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!available)('a session recorded by Chromium (Playwright recordHar)', () => {
  it('replays: API calls compared, the page load ignored and counted', async () => {
    const fake = await createFakeMarketingServer({ seed: smallSeed() });
    const { url } = await fake.listen({ https: false });
    const harFile = join(folder, 'browser.har');
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ recordHar: { path: harFile } });
      const page = await context.newPage();
      await page.goto(`${url}/__admin/health`);
      const statuses = await page.evaluate(
        async ({ auth }) => {
          const call = async (method: string, path: string, accept: string, body?: unknown) => {
            const response = await fetch(`/marketing/v1${path}`, {
              method,
              headers: {
                authorization: auth,
                accept,
                ...(body === undefined ? {} : { 'content-type': 'application/json' }),
              },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            });
            await response.text();
            return response.status;
          };
          return [
            await call('GET', '/lists', 'application/json'),
            await call('GET', '/content', 'text/xml'),
            await call('PUT', '/lists/1/contacts', 'application/json', {
              emailAddress: 'web@example.com',
            }),
            await call('POST', '/customfields/Browser', 'text/xml'),
            await call('GET', '/customfields', 'application/json'),
            await call('PUT', '/lists/9/contacts/1', 'application/json'),
          ];
        },
        { auth: `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}` },
      );
      expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
      await context.close();
    } finally {
      await browser.close();
      await fake.close();
    }
    const har = JSON.parse(readFileSync(harFile, 'utf8')) as { log: { creator: { name: string } } };
    expect(har.log.creator.name).toBe('Playwright');
    const report = await replayHar(readFileSync(harFile, 'utf8'));
    expect(report.ignored).toBeGreaterThanOrEqual(1);
    expect(
      report.results.map((result) => result.outcome),
      replayReportText(report),
    ).toEqual(['match', 'match', 'match', 'match', 'match', 'match']);
  }, 60_000);
});
