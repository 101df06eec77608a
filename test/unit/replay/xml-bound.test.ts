import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXIT_DRIFT } from '../../../src/cli/exit-codes.js';
import { runReplayCommand } from '../../../src/cli/replay-command.js';
import { MAX_XML_NODES, MAX_XML_TAG_NAMES, xmlTooLarge } from '../../../src/replay/body.js';
import { serverIdOf } from '../../../src/replay/operations.js';
import { replayHar } from '../../../src/replay/replay.js';
import { type BrowserEntry, browserHar } from '../../helpers/browser-har.js';
import { captureOutput } from '../../helpers/captured-output.js';

// Replay read a recorded XML answer whatever its shape: a root of a million attributes (a 14 MB
// HAR) took it to 1.2 GB and 20 s, 3 million `<a/>` (12 MB) to 1.7 GB. Such an answer is now
// counted before anything parses it, and not comparable past the bounds.
// And a Basic username `0999` is read as the fake reads it (999: no server), where replay made it
// a server of the inferred state, which then could not start (exit 3).

const entry = (
  authorization: string,
  contentType: string,
  text: string,
  status = 200,
): BrowserEntry => ({
  method: 'GET',
  path: '/lists',
  requestHeaders: [
    { name: 'authorization', value: authorization },
    { name: 'accept', value: contentType },
  ],
  status,
  contentType,
  responseBody: text,
});
const har = (...entries: BrowserEntry[]) => browserHar(entries);
const AUTH = 'Basic 12345:<redacted>';
const lists = (count: number) =>
  `<ArrayOfList xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.datacontract.org/2004/07/X">${Array.from(
    { length: count },
    (_, i) => `<List><Id>${i + 1}</Id><Name>List ${i}</Name><ServerId>12345</ServerId></List>`,
  ).join('')}</ArrayOfList>`;

describe('the size of a recorded XML answer, counted before it is read', () => {
  it('counts tags, and the names and values inside them', () => {
    expect(xmlTooLarge(lists(12_000))).toBeUndefined();
    expect(xmlTooLarge(lists(12_600))).toMatch(/more than 100000 tags and attribute names/);
    expect(xmlTooLarge(`<r>${'<a/>'.repeat(MAX_XML_NODES - 2)}</r>`)).toBeUndefined();
    expect(xmlTooLarge(`<r>${'<a/>'.repeat(MAX_XML_NODES)}</r>`)).toBeDefined();
  });

  it('bounds the attributes of one tag, however they are written', () => {
    const attributes = (count: number, separator: string) =>
      Array.from({ length: count }, (_, i) => `a${i}="1"`).join(separator);
    expect(xmlTooLarge(`<r ${attributes(3, ' ')}/>`)).toBeUndefined();
    expect(xmlTooLarge(`<r ${attributes(MAX_XML_TAG_NAMES, ' ')}/>`)).toMatch(
      /a tag of the recorded XML answer holds more than 256/,
    );
    // No space between them, or no values: the validator still splits them all.
    expect(xmlTooLarge(`<r ${attributes(MAX_XML_TAG_NAMES, '')}/>`)).toBeDefined();
    expect(xmlTooLarge(`<r ${'b '.repeat(MAX_XML_TAG_NAMES + 1)}/>`)).toBeDefined();
    // A quoted `>` does not end the tag.
    expect(xmlTooLarge(`<r x=">" ${'b '.repeat(MAX_XML_TAG_NAMES + 1)}/>`)).toBeDefined();
  });

  it('skips comments, CDATA, declarations and processing instructions', () => {
    const many = '<a/>'.repeat(MAX_XML_NODES + 1);
    for (const [open, close] of [
      ['<!--', '-->'],
      ['<![CDATA[', ']]>'],
      ['<?pi ', '?>'],
    ])
      expect(xmlTooLarge(`<?xml version="1.0"?><r>${open}${many}${close}</r>`)).toBeUndefined();
  });

  /**
   * Pins what `text` counts, exactly: with `MAX_XML_NODES - n` more empty tags after it, the
   * answer is at the bound (read); with one more, past it.
   */
  const expectCount = (text: string, n: number) => {
    expect(xmlTooLarge(`${text}${'<a/>'.repeat(MAX_XML_NODES - n)}`), text).toBeUndefined();
    expect(xmlTooLarge(`${text}${'<a/>'.repeat(MAX_XML_NODES - n + 1)}`), text).toMatch(
      /more than 100000 tags and attribute names/,
    );
  };

  it('counts each tag once, and each name or value inside one after a space, `=` or a quote', () => {
    expectCount('', 0);
    expectCount('<r>', 1);
    // Text before the first tag, or between tags, is no tag.
    expectCount('  text <r>more</r>', 2);
    // A `<` inside a tag is no new tag.
    expectCount('<r<>', 1);
    expectCount('<r abc>', 2);
    expectCount('<r a=b>', 3);
    expectCount(`<r a="1" b='2'>`, 5);
    // Every white space the validator splits on: space, tab, line feed, carriage return.
    expectCount('<r a\tb\nc\rd e>', 6);
    // White space inside a quoted value splits it too; a `>` there does not end the tag.
    expectCount('<r a="x y>z">', 4);
    expectCount(`<r a='x y'>`, 4);
    // A quote of the other kind inside a value is part of it.
    expectCount(`<r a="it's" b>`, 4);
  });

  it('skips each comment, CDATA section, declaration and processing instruction, and goes on after it', () => {
    expectCount('<?xml version="1.0"?>', 0);
    expectCount('<!--a--><!--b--><r>', 1);
    expectCount('<!DOCTYPE r><r><![CDATA[<a/><a/>]]></r>', 2);
    expectCount('<!-- x --> \n<r>', 1);
  });

  it('counts nothing after markup that is never closed, and ends on a tag that is never closed', () => {
    expect(xmlTooLarge(`<r><!--${'<a/>'.repeat(MAX_XML_NODES + 1)}`)).toBeUndefined();
    expect(xmlTooLarge(`<r><![CDATA[${'<a/>'.repeat(MAX_XML_NODES + 1)}`)).toBeUndefined();
    expect(xmlTooLarge('<r a b')).toBeUndefined();
    expect(xmlTooLarge('<r a="b')).toBeUndefined();
  });

  it('reads a tag of exactly the most names, and refuses one more', () => {
    expect(xmlTooLarge(`<r${' b'.repeat(MAX_XML_TAG_NAMES)}>`)).toBeUndefined();
    expect(xmlTooLarge(`<r${' b'.repeat(MAX_XML_TAG_NAMES + 1)}>`)).toMatch(
      /^a tag of the recorded XML answer holds more than 256 attribute names and values/,
    );
  });

  // The reasons are the bound's own words, given before any parser reads the answer: a parser
  // given these answers takes seconds and hundreds of megabytes (a benchmark's matter, not a test's).
  it('makes such an answer not comparable, naming the bound, before reading it', async () => {
    const root = `<ArrayOfList ${Array.from({ length: 300_000 }, (_, i) => `a${i}="1"`).join(' ')}><List><Id>1</Id><Name>n</Name><ServerId>12345</ServerId></List></ArrayOfList>`;
    const report = await replayHar(
      har(
        entry(AUTH, 'text/xml', root),
        entry(AUTH, 'text/xml', `<ArrayOfList>${'<a/>'.repeat(500_000)}</ArrayOfList>`),
        entry(AUTH, 'text/xml', lists(2)),
      ),
    );
    expect(report.results.map((result) => result.outcome)).toEqual([
      'not comparable',
      'not comparable',
      'match',
    ]);
    expect(report.results[0]!.reason).toMatch(/^a tag of the recorded XML answer/);
    expect(report.results[1]!.reason).toMatch(/^the recorded XML answer holds more than/);
  });
});

describe('a Basic username that is no server id', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'replay-username-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  it('is read as the fake reads it: 01234 is server 1234, 0999 is none', () => {
    const exchange = (authorization: string) =>
      ({ headers: { authorization } }) as unknown as Parameters<typeof serverIdOf>[0];
    expect(serverIdOf(exchange('Basic 01234:<redacted>'))).toBe(1234);
    expect(serverIdOf(exchange('Basic 0999:<redacted>'))).toBeUndefined();
    expect(
      serverIdOf(exchange(`Basic ${Buffer.from('0999:some-key').toString('base64')}`)),
    ).toBeUndefined();
    expect(serverIdOf(exchange('Basic 99999:<redacted>'))).toBe(99999);
  });

  it('is replayed and answered as the fake answers it (401), not a state that cannot start', async () => {
    const path = join(folder, 'username.har');
    writeFileSync(
      path,
      JSON.stringify(
        har(
          entry('Basic 0999:<redacted>', 'application/json', '[]'),
          entry('Basic 1234:<redacted>', 'application/json', '[]'),
        ),
      ),
    );
    const { code, stdout } = await captureOutput(() => runReplayCommand([path]));
    expect(code).toBe(EXIT_DRIFT);
    expect(stdout).toContain('DRIFT #0 GET /marketing/v1/lists');
    expect(stdout).toContain('status: recorded 200, fake 401');
    expect(stdout).toContain('1 match, 1 drift');
  });
});
