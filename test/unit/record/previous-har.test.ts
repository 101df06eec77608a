import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { HarEntry } from '../../../src/journal/har.js';
import { HarFile } from '../../../src/record/har-file.js';
import { readPrevious } from '../../../src/record/previous-har.js';
import { RecorderOptionError } from '../../../src/record/recorder-error.js';

const folder = mkdtempSync(join(tmpdir(), 'previous-har-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('a file at --out nested far deeper than any HAR', () => {
  it('is refused as no HAR without being built, and left as it is', async () => {
    const out = join(folder, 'deep.har');
    const text = `{"log":{"entries":[${'['.repeat(200_000)}${']'.repeat(200_000)}]}}`;
    writeFileSync(out, text);
    const parse = vi.spyOn(JSON, 'parse');
    const refusal = await readPrevious(out).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RecorderOptionError);
    expect((refusal as Error).message).toBe(
      `${out} exists and is not a HAR file: give another --out (it is never overwritten).`,
    );
    // Built, 200,000 levels take tens of times the file's size: it is judged by its text alone.
    expect(parse.mock.calls.some(([given]) => given === text)).toBe(false);
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('reads a reformatted HAR that nests as HARs do', async () => {
    const out = join(folder, 'reformatted.har');
    const entry = { request: { headers: [{ name: 'Accept', value: 'application/json' }] } };
    writeFileSync(
      out,
      JSON.stringify(
        {
          log: {
            version: '1.2',
            creator: { name: 'fake-marketing-server record' },
            entries: [entry],
          },
        },
        null,
        2,
      ),
    );
    await expect(readPrevious(out)).resolves.toEqual({ entries: [entry] });
  });
});

/** A HAR of the recorder's own, with `added` put in by hand after its first entry. */
async function ownWith(name: string, added: unknown): Promise<string> {
  const out = join(folder, name);
  const file = new HarFile(out);
  file.append({ _id: 1, request: { headers: [] } } as unknown as HarEntry);
  await file.write();
  const text = readFileSync(out, 'utf8').replace('\n]}}\n', `,\n${JSON.stringify(added)}\n]}}\n`);
  writeFileSync(out, text);
  return out;
}

describe('a HAR of the recorder that holds a credential in clear', () => {
  const withHeaders = (headers: unknown) => ({ _id: 2, request: { headers } });

  it.each([
    ['a Cookie', [{ name: 'Cookie', value: 'session=clear-cookie' }], 'cookie'],
    ['a Cookie without a name', [{ name: 'cookie', value: 'clear-cookie' }], 'cookie'],
    [
      'a Proxy-Authorization',
      [{ name: 'Proxy-Authorization', value: 'Basic abc' }],
      'proxy-authorization',
    ],
    [
      'an Authorization in capitals',
      [{ name: 'AUTHORIZATION', value: 'Bearer x' }],
      'authorization',
    ],
  ])('is refused for %s, naming the header and the entry', async (_what, headers, name) => {
    const out = await ownWith(`clear-${name}.har`, withHeaders(headers));
    const text = readFileSync(out, 'utf8');
    await expect(readPrevious(out)).rejects.toThrow(
      new RecorderOptionError(
        `${out} holds a ${name} header in clear in entry 2: the recorder writes none, so the file was changed since it wrote it, and it is not continued. Give another --out, or move the file away.`,
      ),
    );
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it.each([
    [
      'a Set-Cookie in its answer',
      { response: { headers: [{ name: 'Set-Cookie', value: 'sid=CLEARSECRET-abcdef; Path=/' }] } },
      'set-cookie header',
    ],
    [
      'an Authorization in its answer',
      { response: { headers: [{ name: 'Authorization', value: 'Bearer CLEARSECRET-abcdef' }] } },
      'authorization header',
    ],
    [
      'a cookie in its request cookies',
      { request: { headers: [], cookies: [{ name: 'sid', value: 'CLEARSECRET-abcdef' }] } },
      'cookie "sid"',
    ],
    [
      'a cookie in its answer cookies',
      { response: { cookies: [null, { value: 'CLEARSECRET-abcdef' }] } },
      'cookie ""',
    ],
  ])('is refused for %s', async (_what, parts, clear) => {
    const out = await ownWith(`clear-${clear.replace(/\W/g, '')}.har`, { _id: 2, ...parts });
    await expect(readPrevious(out)).rejects.toThrow(
      `${out} holds a ${clear} in clear in entry 2: the recorder writes none`,
    );
    // Reformatted, the same.
    writeFileSync(out, JSON.stringify(JSON.parse(readFileSync(out, 'utf8')), null, 2));
    await expect(readPrevious(out)).rejects.toThrow(`holds a ${clear} in clear in entry 2`);
  });

  it.each([
    ['authorization', 'Basic 12345:<redacted>, Basic MTIzNDU6Q0xFQVItU0VDUkVULUtFWS00Mg=='],
    ['authorization', 'Bearer <redacted> CLEAR-SECRET-KEY-42'],
    ['cookie', 'sid=<redacted>; other=CLEAR-SECRET-KEY-42'],
    ['cookie', '<redacted>, x=CLEAR-SECRET-KEY-42'],
    ['proxy-authorization', 'Basic <redacted> CLEAR-SECRET-KEY-42'],
    ['set-cookie', 'sid=<redacted>; Path=/, other=CLEAR-SECRET-KEY-42'],
    ['set-cookie', 'sid=<redacted>; Path=/, CLEAR-NAMELESS-KEY-42'],
    ['set-cookie', 'sid=<redacted>; Expires=Wed, 21 Oct 2026 07:28:00 GMT, CLEAR-NAMELESS-42'],
  ])(
    'is refused for a %s header that holds a credential in clear beside <redacted>: %s',
    async (name, value) => {
      const out = await ownWith(`mixed-${name}.har`, {
        _id: 2,
        request: { headers: [{ name, value }] },
      });
      await expect(readPrevious(out)).rejects.toThrow(
        `holds a ${name} header in clear in entry 2: the recorder writes none`,
      );
    },
  );

  it('is continued with the cookies and answer headers the recorder writes', async () => {
    const out = await ownWith('redacted-both-ways.har', {
      _id: 2,
      request: {
        headers: [],
        cookies: [
          { name: 'sid', value: '<redacted>' },
          { name: 'e', value: '' },
        ],
      },
      response: {
        headers: [
          { name: 'Set-Cookie', value: 'sid=<redacted>; Path=/' },
          {
            name: 'Set-Cookie',
            value:
              'a=<redacted>; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Domain=example.com; HttpOnly',
          },
          { name: 'Set-Cookie', value: '<redacted>; Path=/, b=<redacted>; Max-Age=60' },
          { name: 'Set-Cookie', value: 'a=<redacted>; Path=/, <redacted>; Secure' },
          { name: 'Authorization', value: 'Basic 12345:<redacted>' },
          { name: 'Authorization', value: 'Token token=<redacted>, b=<redacted>' },
          { name: 'Cookie', value: 'a=<redacted>; b= <redacted>; <redacted>' },
        ],
        cookies: [],
      },
    });
    await expect(readPrevious(out)).resolves.toMatchObject({ count: 2 });
  });

  it.each([
    ['redacted', [{ name: 'Cookie', value: 'a=<redacted>; b=<redacted>' }]],
    ['a scheme alone', [{ name: 'Authorization', value: ' Bearer ' }]],
    ['empty', [{ name: 'Authorization', value: '' }, { name: 'Cookie' }]],
    ['another header', [{ name: 'X-Token', value: 'Basic abc' }]],
    ['no header object', [null, 5]],
    ['headers that are no array', { name: 'Cookie', value: 'a=1' }],
  ])('is continued when it is %s', async (what, headers) => {
    const out = await ownWith(`continued-${what.replace(/ /g, '-')}.har`, withHeaders(headers));
    await expect(readPrevious(out)).resolves.toMatchObject({ count: 2 });
  });
});

describe('a file at --out that is JSON but not a HAR of the recorder', () => {
  it.each([
    ['{}', 'exists and is not a HAR file'],
    ['{"entries":[]}', 'exists and is not a HAR file'],
    ['{"log":{"entries":{}}}', 'exists and is not a HAR file'],
    [
      '{"log":{"entries":[]}}',
      'is a HAR that fake-marketing-server record did not write (its creator is not named)',
    ],
    ['{"log":{"creator":{"name":5},"entries":[]}}', 'did not write (its creator is not named)'],
    [
      `{"log":{"creator":{"name":"${'n'.repeat(150)}"},"entries":[]}}`,
      `did not write (its creator is "${'n'.repeat(99)}): its entries may hold keys`,
    ],
  ])('%s is refused, and left as it is', async (text, message) => {
    const out = join(folder, 'not-ours.har');
    writeFileSync(out, text);
    await expect(readPrevious(out)).rejects.toThrow(message);
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('is no recording of its own when its last entry line is no JSON, whatever its tail', async () => {
    const out = await ownWith('broken-last.har', { _id: 2 });
    const text = readFileSync(out, 'utf8').replace('{"_id":2}', '{"_id":2');
    writeFileSync(out, text);
    await expect(readPrevious(out)).rejects.toThrow('exists and is not a HAR file');
  });
});
