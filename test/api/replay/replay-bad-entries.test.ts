import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFakeMarketingServer, HarInputError, replayHar } from '../../../src/index.js';
import { type BrowserEntry, browserHar } from '../../helpers/browser-har.js';
import { spawnCli } from '../../helpers/cli.js';
import { KEY, SERVER_ID, smallSeed } from '../../helpers/fake.js';

/**
 * A request method that is no HTTP method ("GE T") made replay exit 3 with a stack trace: a bad
 * HAR, HarInputError (exit 2) naming the entry index.
 */
function entry(method: string, url: string, contentType: string, text: string): BrowserEntry {
  return {
    method,
    url,
    requestHeaders: [{ name: 'Authorization', value: 'Basic 12345:<redacted>' }],
    status: 200,
    contentType,
    responseBody: text,
  };
}
const LISTS = 'https://api.example.com/marketing/v1/lists';
const har = (...entries: BrowserEntry[]) => browserHar(entries);
const ok = entry('GET', LISTS, 'application/json', '[]');
// Deep, within the size replay reads (MAX_XML_NODES): past it, an answer is not comparable
// before its depth is seen (test/unit/replay/xml-bound.test.ts).
const DEEP = `${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}`;
const DEEP_JSON = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

const CASES: [string, object, RegExp][] = [
  [
    'a method with a space',
    har(ok, entry('GE T', LISTS, 'application/json', '[]')),
    /entry 1: request\.method is not an HTTP method \("GE T"\)/,
  ],
  [
    'a method with a control character',
    har(entry('GET\n', LISTS, 'application/json', '[]')),
    /entry 0: request\.method is not an HTTP method/,
  ],
];

// Each made the whole HAR refused (exit 2) before: one body no reader can walk is now that
// exchange's matter, and the others are replayed as usual.
const UNWALKABLE: [string, object, number, RegExp, object?][] = [
  [
    'a deeply nested XML answer',
    har(ok, entry('GET', LISTS, 'text/xml', DEEP)),
    1,
    /^an XML body cannot be read: /,
  ],
  [
    'the same with a seed (found while comparing, not inferring)',
    har(ok, ok, entry('GET', LISTS, 'application/xml', DEEP)),
    2,
    /^an XML body cannot be read: /,
    { seed: { servers: [{ serverId: 12345 }] } },
  ],
  [
    'a JSON answer nested 100,000 deep (it overflowed the stack when compared)',
    har(ok, entry('GET', LISTS, 'application/json', DEEP_JSON)),
    1,
    /^a JSON body nests deeper than 100 levels/,
  ],
  [
    'the same inside an object',
    har(entry('GET', LISTS, 'application/json', `{"x":${DEEP_JSON}}`), ok),
    0,
    /^a JSON body nests deeper than 100 levels/,
  ],
];

describe('replay: a body no reader can walk is not comparable, the rest replayed', () => {
  it("the fake's own HAR with a client body nested 150 deep replays whole, that exchange too", async () => {
    const fake = await createFakeMarketingServer({ seed: smallSeed() });
    let recorded: object;
    try {
      const headers = {
        authorization: `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`,
        accept: 'application/json',
        'content-type': 'application/json',
      };
      const deep = `{"emailAddress":"a@example.com","x":${'['.repeat(150)}${']'.repeat(150)}}`;
      await fake.inject({ method: 'GET', url: '/marketing/v1/lists', headers });
      const answer = await fake.inject({
        method: 'PUT',
        url: '/marketing/v1/lists/1/contacts',
        headers,
        payload: deep,
      });
      expect(answer.statusCode).toBe(400);
      await fake.inject({ method: 'GET', url: '/marketing/v1/customfields', headers });
      recorded = fake.requestsHar();
    } finally {
      await fake.close();
    }
    const report = await replayHar(recorded);
    expect(report.results.map((result) => [result.index, result.outcome])).toEqual([
      [0, 'match'],
      [1, 'match'],
      [2, 'match'],
    ]);
  });

  it.each(UNWALKABLE)(
    '%s: that entry not comparable, saying why; the others compared',
    async (_name, document, index, reason, options) => {
      const report = await replayHar(document, options);
      const unwalkable = report.results.find((result) => result.index === index);
      expect(unwalkable?.outcome).toBe('not comparable');
      expect(unwalkable?.reason).toMatch(reason);
      const others = report.results.filter((result) => result.index !== index);
      expect(others.length).toBeGreaterThan(0);
      expect(others.every((result) => result.outcome === 'match')).toBe(true);
    },
  );
});

describe('replay: bad entries are a bad HAR', () => {
  it.each(CASES)('%s: HarInputError naming the entry', async (_name, document, message) => {
    const error = await replayHar(document).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HarInputError);
    expect((error as Error).message).toMatch(message);
  });

  it('the CLI exits 2 with the entry index and no stack trace', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'replay-bad-'));
    try {
      for (const [, document, message] of CASES) {
        const file = join(folder, 'bad.har');
        writeFileSync(file, JSON.stringify(document));
        const cli = spawnCli(['replay', file]);
        const { code, stderr } = await cli.exited;
        expect(code).toBe(2);
        expect(stderr).toMatch(
          message.source.startsWith('^') ? new RegExp(message.source.slice(1)) : message,
        );
        expect(stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
