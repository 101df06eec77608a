import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayHar, replayReportJunit, replayReportText } from '../../src/index.js';
import { browserHar } from '../helpers/browser-har.js';
import { spawnCli } from '../helpers/cli.js';

// A browser's HAR holds the key in clear in Authorization; a client that puts it elsewhere too
// (a query, a body, a path) must not see it printed by the replay report.
const KEY = 'RealSecretKey99/x';
const CREDENTIALS = Buffer.from(`12345:${KEY}`).toString('base64');
const AUTH = `Basic ${CREDENTIALS}`;
const har = browserHar([
  {
    method: 'GET',
    path: '/lists',
    authorization: AUTH,
    status: 200,
    responseBody: '[{"id":1,"serverId":12345,"name":"L"}]',
  },
  {
    method: 'POST',
    path: '/contacts/unsubscribe',
    authorization: AUTH,
    requestBody: JSON.stringify({ emailAddress: `${KEY}@example.com` }),
    status: 404,
    responseBody: JSON.stringify({
      message: `No contact has the email address '${KEY}@example.com'. (drift ${KEY})`,
    }),
  },
  {
    method: 'GET',
    path: `/lists?apikey=${encodeURIComponent(KEY)}&b64=${CREDENTIALS}`,
    authorization: AUTH,
    status: 200,
    // The key JSON-escaped as a service may send it: "RealSecretKey99\/x".
    responseBody: `[{"id":1,"serverId":12345,"name":"${KEY.replace('/', '\\/')}"}]`,
  },
  {
    method: 'GET',
    path: `/nothere/${encodeURIComponent(KEY)}`,
    authorization: AUTH,
    status: 502,
    responseBody: `gateway: ${KEY}`,
  },
]);

const folder = mkdtempSync(join(tmpdir(), 'replay-secrets-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** No form of the key: as is, URL-encoded, JSON-escaped, base64 credentials. */
function expectNoKey(text: string) {
  for (const form of [KEY, encodeURIComponent(KEY), KEY.replace('/', '\\/'), CREDENTIALS])
    expect(text).not.toContain(form);
  expect(text).not.toContain('RealSecretKey99');
}

describe('replay reports hide the keys the HAR holds', () => {
  it('replayHar: paths, differences and reasons, text and JUnit', async () => {
    const report = await replayHar(har);
    expect(report.drifted).toBeGreaterThan(0);
    expectNoKey(JSON.stringify(report));
    const text = replayReportText(report, 'browser.har', true);
    expectNoKey(text);
    expect(text).toContain('<redacted>');
    expectNoKey(replayReportJunit(report, 'browser.har'));
  });

  for (const reporter of ['text', 'junit']) {
    it(`the CLI (${reporter}): stdout and --out`, async () => {
      const file = join(folder, 'browser.har');
      writeFileSync(file, JSON.stringify(har));
      const out = join(folder, `report.${reporter}`);
      const cli = spawnCli(['replay', file, '--all', '--reporter', reporter, '--out', out]);
      const { code, stderr } = await cli.exited;
      expect(code).toBe(1);
      expectNoKey(cli.output());
      expectNoKey(stderr);
      const written = readFileSync(out, 'utf8');
      expectNoKey(written);
      expect(`${cli.output()}${written}`).toContain(
        reporter === 'junit' ? '&lt;redacted&gt;' : '<redacted>',
      );
    });
  }
});
