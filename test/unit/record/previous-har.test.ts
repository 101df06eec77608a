import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    [
      'a cookie with a long name',
      { request: { cookies: [{ name: 'n'.repeat(100), value: 'CLEARSECRET-abcdef' }] } },
      `cookie "${'n'.repeat(59)}`,
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
          { name: 'no-value' },
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
    [
      'a parameter spaced around its equals sign',
      [{ name: 'Authorization', value: 'Token key = <redacted>' }],
    ],
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

/** A file in the recorder's own layout: its head's line, `lines` as entries, its tail. */
function ownLayout(name: string, lines: string[], head = OWN_HEAD): string {
  const out = join(folder, name);
  writeFileSync(out, `${head}\n${lines.join('\n')}${lines.length > 0 ? '\n' : ''}]}}\n`);
  return out;
}
const OWN_HEAD =
  '{"log":{"version":"1.2","creator":{"name":"fake-marketing-server record","version":"0.1.0"},"entries":[';

describe('a HAR in the recorder’s own layout', () => {
  it('is counted a line at a time, with none, one or many entries', async () => {
    for (const lines of [[], ['{"_id":1}'], ['{"_id":1},', '{"_id":2},', '{"_id":3}']]) {
      const out = ownLayout(`own-${lines.length}.har`, lines);
      await expect(readPrevious(out)).resolves.toEqual({
        count: lines.length,
        length: readFileSync(out).length,
      });
    }
  });

  it('checks its first entry for credentials in clear too', async () => {
    const clear = '{"_id":1,"request":{"headers":[{"name":"Cookie","value":"sid=CLEAR-1"}]}}';
    for (const lines of [[clear], [`${clear},`, '{"_id":2}']]) {
      const out = ownLayout(`clear-first-${lines.length}.har`, lines);
      await expect(readPrevious(out)).rejects.toThrow('holds a cookie header in clear in entry 1');
    }
  });

  it('is read whole when a line is no entry of its own: the file was changed since', async () => {
    // Each is still a HAR of the recorder, read whole: its entries come back to be written again.
    for (const [name, lines] of [
      ['null', ['{"_id":1},', 'null,', '{"_id":3}']],
      ['array', ['{"_id":1},', '[1],', '{"_id":3}']],
      ['number', ['{"_id":1},', '5,', '{"_id":3}']],
    ] as const) {
      const out = ownLayout(`not-a-line-${name}.har`, [...lines]);
      await expect(readPrevious(out)).resolves.toHaveProperty('entries');
    }
    // A comma missing after an entry's line: a space where it was is no comma.
    const spaced = ownLayout('no-comma.har', ['{"_id":1} ', '{"_id":2}']);
    await expect(readPrevious(spaced)).rejects.toThrow('exists and is not a HAR file');
    const broken = ownLayout('broken-middle.har', ['{"_id":1},', '{"_id":2,', '{"_id":3}']);
    await expect(readPrevious(broken)).rejects.toThrow('exists and is not a HAR file');
  });

  it('is read whole when its tail is not the recorder’s', async () => {
    const out = ownLayout('other-tail.har', ['{"_id":1}']);
    writeFileSync(out, readFileSync(out, 'utf8').replace('\n]}}\n', ' ]}}\n'));
    await expect(readPrevious(out)).resolves.toEqual({ entries: [{ _id: 1 }] });
  });

  it('is refused when its head names another creator, however it is laid out', async () => {
    const other = OWN_HEAD.replace('fake-marketing-server record', 'another tool');
    await expect(readPrevious(ownLayout('other-head.har', ['{"_id":1}'], other))).rejects.toThrow(
      'is a HAR that fake-marketing-server record did not write (its creator is "another tool")',
    );
    // The creator first: the same HAR in JSON, not in the recorder's layout.
    const reordered =
      '{"log":{"creator":{"name":"fake-marketing-server record"},"version":"1.2","entries":[';
    await expect(
      readPrevious(ownLayout('reordered.har', ['{"_id":1}'], reordered)),
    ).resolves.toEqual({ entries: [{ _id: 1 }] });
    const broken = `${OWN_HEAD.slice(0, -1)}}`;
    await expect(readPrevious(ownLayout('broken-head.har', [], broken))).rejects.toThrow(
      'exists and is not a HAR file',
    );
  });

  it('closes the file it read', async () => {
    const out = ownLayout('closed.har', ['{"_id":1}']);
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    await readPrevious(out);
    expect(open()).toBe(before);
  });

  it('is never opened when it is a FIFO: refused at once, with no writer to wait for', async () => {
    const out = join(folder, 'fifo.har');
    execFileSync('mkfifo', [out]);
    await expect(readPrevious(out)).rejects.toThrow('exists and is not a HAR file');
  });
});
