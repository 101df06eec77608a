import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportText, verifyService } from '../../../src/index.js';
import { secretHider } from '../../../src/redaction/hide-secrets.js';
import { redactForms } from '../../../src/redaction/secret-encodings.js';
import {
  Anchors,
  findSpans,
  MAX_PATTERN_CHARS,
  type Patterns,
  REDACTED,
} from '../../../src/redaction/secret-forms.js';
import { compileSecrets, SecretSet } from '../../../src/redaction/secret-set.js';
import { HarInputError } from '../../../src/replay/har-input.js';
import { replayHar } from '../../../src/replay/replay.js';
import { keyHider } from '../../../src/verify/verify.js';
import { type BrowserEntry, browserHar } from '../../helpers/browser-har.js';

// A key of some 20,000 characters made one regular expression of its forms too large for V8, which
// threw at its first use, its message holding the whole source: replay exited 3 printing the key in
// clear and in base64, verify likewise. Past MAX_PATTERN_CHARS of forms, the index (Anchors) finds
// them instead, whatever their length.

const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** A key no form of which repeats: the hardest for a regular expression. */
function longKey(length: number, seed = 7): string {
  let state = seed;
  let key = 'SECRETKEY';
  while (key.length < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    key += letters[state % letters.length];
  }
  return key;
}
const basic = (id: number, key: string) =>
  `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`;

describe('keys of any length are hidden', () => {
  it.each([20_000, 40_000, 200_000])('a key of %i characters, in every form', (length) => {
    const key = longKey(length);
    const hide = secretHider([key]);
    const text = `a ${key} b ${basic(12345, key)} c ${encodeURIComponent(`"${key}"`)} d`;
    const hidden = hide(text);
    expect(hidden).not.toContain('SECRETKEY');
    expect(hidden).not.toContain(basic(12345, key).slice(6, 60));
    expect(hidden.split(REDACTED)).toHaveLength(4);
  });

  it('takes the index once the forms are long in all, however few', () => {
    const few = compileSecrets(['a-short-key'])!;
    expect(few.text.each).toBeInstanceOf(RegExp);
    const many = compileSecrets([longKey(MAX_PATTERN_CHARS)])!;
    expect(many.text.each).toBeInstanceOf(Anchors);
    expect(many.wire.each).toBeInstanceOf(Anchors);
  });

  it('verify hides its own key of any length, short or long', () => {
    const key = longKey(30_000);
    expect(keyHider(key)(`x ${key} ${basic(1234, key)} y`)).toBe(
      `x ${REDACTED} Basic ${REDACTED} y`,
    );
    expect(keyHider('k3y')('a k3y b')).toBe(`a ${REDACTED} b`);
  });

  it('the journal and the recorder hide a long key learned or seeded, as it is updated', () => {
    const set = new SecretSet();
    const key = longKey(25_000);
    const compiled = set.update(['tenant-key-1', key])!;
    const value = `{"k":"${key}","other":"tenant-key-1"}`;
    expect(redactForms(value, compiled.text, false)).toBe(
      `{"k":"${REDACTED}","other":"${REDACTED}"}`,
    );
    // The key goes: what is left is found as before.
    const after = set.update(['tenant-key-1'])!;
    expect(redactForms(value, after.text, false)).toBe(`{"k":"${key}","other":"${REDACTED}"}`);
  });
});

describe('the index finds forms shorter than its anchor, as the regular expression does', () => {
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const char = fc.constantFrom('a', 'b', 'k', 'x', '1', '+', '/', '=');

  it('at the same places, the longest first at one start', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ unit: char, minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.array(fc.string({ unit: char, maxLength: 8 }), { maxLength: 12 }),
        fc.nat(),
        (forms, pieces, pick) => {
          const sorted = [...forms].sort((a, b) => b.length - a.length);
          const source = sorted.map(escapeRegExp).join('|');
          const base64 = new Set(forms.filter((_, index) => (pick >> index) & 1));
          const common = { base64, plus: false, mixed: { test: () => false } };
          const anchors = new Anchors(sorted);
          const regex: Patterns = {
            any: new RegExp(source),
            each: new RegExp(source, 'g'),
            ...common,
          };
          const index: Patterns = { any: anchors, each: anchors, ...common };
          const value = [...pieces, ...forms.slice(0, pick % 4)].join('');
          expect(index.any.test(value)).toBe(regex.any.test(value));
          expect(findSpans(value, index)).toEqual(findSpans(value, regex));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('takes a short form out again', () => {
    const anchors = new Anchors(['abc', 'abcdefgh']);
    expect(anchors.matches('x abc y')).toEqual([[2, 5]]);
    anchors.remove('abc');
    expect(anchors.test('x abc y')).toBe(false);
    anchors.add('xy');
    expect(anchors.matches('x abc xy')).toEqual([[6, 8]]);
  });
});

describe('replay with a recording that holds a very long key', () => {
  const key = longKey(25_000);
  const entry = (url: string, text: string, status = 200): BrowserEntry => ({
    method: 'GET',
    url,
    requestHeaders: [{ name: 'authorization', value: basic(12345, key) }],
    status,
    contentType: 'application/json',
    responseBody: text,
  });
  const har = (...entries: BrowserEntry[]) => browserHar(entries);

  it('replays it, and no line of the report holds the key', async () => {
    const report = await replayHar(
      har(
        entry('https://x/marketing/v1/lists', '[]'),
        entry(
          `https://x/marketing/v1/customfields?key=${key}`,
          JSON.stringify({ message: `no ${key}` }),
          400,
        ),
      ),
    );
    expect(report.results).toHaveLength(2);
    expect(JSON.stringify(report)).not.toContain('SECRETKEY');
  });

  it('hides it in the message of a HAR it refuses', async () => {
    const refused = replayHar(
      har(entry('https://x/marketing/v1/lists', '[]'), entry(`not a URL ${key}`, '[]')),
    );
    await expect(refused).rejects.toThrow(HarInputError);
    await expect(refused).rejects.toThrow(`not a URL ${REDACTED}`);
  });
});

describe('verify quotes an answer that echoes its key, and never a piece of the key', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    // An implementation that answers every request with its credentials, after some padding:
    // checks cut what they quote (some 117 characters), and the key straddles the cut.
    server = createServer({ maxHeaderSize: 1 << 20 }, (request, response) => {
      const authorization = request.headers.authorization ?? '';
      const [, ...rest] = Buffer.from(authorization.slice(6), 'base64').toString().split(':');
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ message: `${'p'.repeat(80)}${rest.join(':')} ${authorization}` }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/marketing/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([40, 30_000])('a key of %i characters', async (length) => {
    const key = longKey(length, length);
    const report = await verifyService({ baseUrl, serverId: 12345, key });
    const text = reportText(report);
    expect(text).toContain(REDACTED);
    expect(text).not.toContain('SECRETKE');
    expect(JSON.stringify(report)).not.toContain('SECRETKE');
  });
});
