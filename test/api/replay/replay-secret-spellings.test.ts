import { describe, expect, it } from 'vitest';
import { replayHar, replayReportJunit, replayReportText } from '../../../src/index.js';
import { type BrowserEntry, browserHar } from '../../helpers/browser-har.js';

/**
 * Replay's report showed the key when the HAR's `Authorization` started with a space, had a tab
 * between scheme and credentials, was the second of two, or sat on an entry outside the API. Keys
 * are learned from every credential header of every entry, read as leniently as a server reads
 * them.
 */
const KEY = 'Real-Key_AAAAAAAAAAAAAAAA';
const B64 = Buffer.from(`23456:${KEY}`).toString('base64');

type Header = { name: string; value: string };
// The request's headers whole: each case places or spells the credentials its own way.
function entry(url: string, headers: Header[], status = 200, text = '[]'): BrowserEntry {
  return {
    method: 'GET',
    url,
    requestHeaders: headers,
    status,
    contentType: 'application/json',
    responseBody: text,
  };
}
const API = `https://api.example.com/marketing/v1/lists?k=${KEY}`;
const har = (...entries: BrowserEntry[]) => browserHar(entries);
const auth = (value: string): Header => ({ name: 'Authorization', value });

// Each recorded answer ({}) differs from the fake's list, so the report prints the path.
const CASES: Record<string, object> = {
  leadingSpace: har(entry(API, [auth(` Basic ${B64}`)], 200, '{}')),
  tabSeparator: har(entry(API, [auth(`Basic\t${B64}`)], 200, '{}')),
  extraSpaces: har(entry(API, [auth(`Basic    ${B64}  `)], 200, '{}')),
  bearerTab: har(entry(API, [auth(`Bearer\t ${KEY}`)], 200, '{}')),
  twoHeaders: har(
    entry(
      API,
      [
        auth(`Basic ${Buffer.from('23456:other-key-zzzzz').toString('base64')}`),
        auth(`Bearer ${KEY}`),
      ],
      200,
      '{}',
    ),
  ),
  proxyAuthorization: har(
    entry(API, [{ name: 'Proxy-Authorization', value: `Bearer ${KEY}` }], 200, '{}'),
  ),
  onNonApiEntry: har(
    entry('https://app.example.com/page', [auth(`Basic ${B64}`)], 200, '{}'),
    entry(API, [], 200, '{}'),
  ),
  onLaterNonApiEntry: har(
    entry(API, [], 200, '{}'),
    entry('https://app.example.com/logout', [auth(`Bearer ${KEY}`)], 200, '{}'),
  ),
};

describe('replay: keys of every credential header, however spelt', () => {
  it.each(Object.entries(CASES))('%s: the report never shows the key', async (_name, document) => {
    const report = await replayHar(document);
    expect(report.drifted + report.notComparable).toBeGreaterThan(0);
    const text = replayReportText(report) + replayReportJunit(report);
    expect(text).toContain('<redacted>');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('Real-Key');
  });
});
