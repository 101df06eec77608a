import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarInputError, replayHar } from '../../../src/index.js';
import { type BrowserEntry, browserHar } from '../../helpers/browser-har.js';
import { spawnCli } from '../../helpers/cli.js';

/**
 * A recorded XML answer nested deeper than the parser goes, or a request method that is no HTTP
 * method ("GE T"), made replay exit 3 with a stack trace. Both are a bad HAR: HarInputError (exit
 * 2) naming the entry index.
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

const CASES: [string, object, RegExp, object?][] = [
  [
    'a deeply nested XML answer',
    har(ok, entry('GET', LISTS, 'text/xml', DEEP)),
    /^entry 1: its XML body cannot be read: /,
  ],
  [
    'the same with a seed (found while comparing, not inferring)',
    har(ok, ok, entry('GET', LISTS, 'application/xml', DEEP)),
    /^entry 2: its XML body cannot be read: /,
    { seed: { servers: [{ serverId: 12345 }] } },
  ],
  [
    'a JSON answer nested 100,000 deep (it overflowed the stack when compared)',
    har(ok, entry('GET', LISTS, 'application/json', DEEP_JSON)),
    /^entry 1: a JSON body nests deeper than 100 levels/,
  ],
  [
    'the same inside an object',
    har(entry('GET', LISTS, 'application/json', `{"x":${DEEP_JSON}}`)),
    /^entry 0: a JSON body nests deeper than 100 levels/,
  ],
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

describe('replay: bad entries are a bad HAR', () => {
  it.each(CASES)(
    '%s: HarInputError naming the entry',
    async (_name, document, message, options) => {
      const error = await replayHar(document, options).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(HarInputError);
      expect((error as Error).message).toMatch(message);
    },
  );

  it('the CLI exits 2 with the entry index and no stack trace', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'replay-bad-'));
    try {
      for (const [, document, message] of CASES.slice(0, 5)) {
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
