import { describe, expect, it } from 'vitest';
import type { CheckTools } from '../../../src/verify/check-kit.js';
import {
  expectArrayOf,
  expectObject,
  expectXmlItems,
  isIsoUtc,
  MAX_NOTED_ADDITIONS,
} from '../../../src/verify/shapes.js';
import { readXml } from '../../../src/verify/xml-read.js';

const names = (text: string) => {
  const root = readXml(text);
  return (
    root && [
      root.name,
      root.children.map((item) =>
        item.children.map((child) => `${child.name}=${child.text.trim()}`),
      ),
    ]
  );
};

describe("verify's XML reader", () => {
  it('reads local names, in order, ignoring declarations, namespaces, attributes and whitespace', () => {
    const plain =
      '<?xml version="1.0" encoding="utf-8"?><ArrayOfList><List><Id>1</Id><Name>A &amp; B</Name></List></ArrayOfList>';
    const dressed = `<?xml version="1.0"?>\n<!-- c -->\n<a:ArrayOfList xmlns:a="urn:x" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">\n  <a:List i:type="x">\n    <a:Id>1</a:Id>\n    <a:Name><![CDATA[A & B]]></a:Name>\n  </a:List>\n</a:ArrayOfList>\n`;
    expect(names(plain)).toEqual(['ArrayOfList', [['Id=1', 'Name=A & B']]]);
    expect(names(dressed)).toEqual(names(plain));
    expect(names('<ArrayOfList/>')).toEqual(['ArrayOfList', []]);
  });

  it.each([
    ['JSON', '[{"id":1}]'],
    ['an unclosed element', '<A><B></A>'],
    ['two roots', '<A/><B/>'],
    ['text outside the root', '<A/>trailing'],
    ['a stray <', '<A>1 < 2</A>'],
    ['an empty body', ''],
  ])('is undefined for %s', (_what, text) => {
    expect(readXml(text)).toBeUndefined();
  });

  it.each([
    ['a reference past U+10FFFF', '<A>&#x110000;</A>', undefined],
    ['a decimal one past it', '<A>&#1114112;</A>', undefined],
    ['an upper-case X reference', '<A>&#X41;</A>', 'A'],
  ])('reads %s as XML allows (never throws)', (_what, text, wanted) => {
    const root = readXml(text);
    expect(root?.text).toBe(wanted);
  });

  // A tag read one way only: with `\s+` before a lazy attribute run, a run of spaces with no `>`
  // was split in every way (55 s of CPU for 256 Ki spaces; days at the 32 MiB answer limit).
  // The loose bound is the test's time-out, far above the milliseconds this takes.
  it('reads a tag left open after a quarter of a million spaces in linear time', {
    timeout: 10_000,
  }, () => {
    const spaces = ' '.repeat(256 * 1024);
    expect(readXml(`<ArrayOfList${spaces}`)).toBeUndefined();
    expect(readXml(`<ArrayOfList${spaces}x`)).toBeUndefined();
    expect(names(`<ArrayOfList${spaces}/>`)).toEqual(['ArrayOfList', []]);
    expect(names(`<ArrayOfList a="1"${spaces}></ArrayOfList>`)).toEqual(['ArrayOfList', []]);
  });

  // One pattern repeating a group over every attribute backtracked through a stack as deep as
  // their count: a root with a million of them (11 MB, within the answer limit) overflowed it,
  // and verify reported its own bug instead of judging the answer.
  it('reads a root with a million attributes without overflowing the stack', {
    timeout: 20_000,
  }, () => {
    const attributes = ' a="1"'.repeat(1_000_000);
    expect(names(`<ArrayOfList${attributes}></ArrayOfList>`)).toEqual(['ArrayOfList', []]);
    expect(readXml(`<ArrayOfList${attributes} b=1></ArrayOfList>`)).toBeUndefined();
  });
});

describe('ISO 8601 UTC', () => {
  it.each([
    '2026-11-23T10:00:00Z',
    '2026-11-23T10:00:00.123Z',
    '2026-11-23T10:00:00.1234567Z',
    '2026-11-23T10:00:00+00:00',
  ])('accepts %s', (text) => expect(isIsoUtc(text)).toBe(true));
  it.each([
    '11/23/2026 10:00:00',
    '/Date(1763892000000)/',
    '2026-11-23T10:00:00',
    '2026-11-23T12:00:00+02:00',
    '2026-11-23',
    '2026-13-45T10:00:00Z',
    1763892000000,
  ])('refuses %s', (text) => expect(isIsoUtc(text)).toBe(false));
});

describe("verify's JSON reading of an answer", () => {
  const answer = (body: string) => ({ status: 200, contentType: 'application/json', body });
  const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;

  it('reads JSON nested a million deep as not JSON, a drift, never a crash of verify', async () => {
    const { jsonOf, tryJson } = await import('../../../src/verify/check-kit.js');
    expect(tryJson(answer(deep))).toBeUndefined();
    expect(() => jsonOf(answer(deep), 'GET /lists: ')).toThrow(
      expect.objectContaining({ name: 'Mismatch' }),
    );
    expect(jsonOf(answer('[[1]]'))).toEqual([[1]]);
  });
});

describe("verify's notes of what the description does not list", () => {
  const answer = { status: 200, contentType: 'application/json', body: '' };
  const noting = () => {
    const notes: string[] = [];
    return { notes, tools: { note: (text: string) => void notes.push(text) } as CheckTools };
  };
  const LIST = { id: 'integer', serverId: { equals: 1 }, name: 'string' } as const;
  const ITEMS = 64 * 1024;

  // A note per item made the report as long as the answer, and each note was compared with every
  // earlier one: 64k items took minutes. One note per name, counted, whatever the item count.
  it('notes each added field once, with how many items have it, for 64k items', () => {
    const { notes, tools } = noting();
    const items = Array.from({ length: ITEMS }, (_, i) => ({
      id: i + 1,
      serverId: 1,
      name: 'n',
      x: 1,
    }));
    expectArrayOf(tools, answer, items, LIST, 'list');
    expect(notes).toEqual([
      `list: the field x, which the description does not list, in ${ITEMS} of ${ITEMS} item(s) (accepted)`,
    ]);
  });

  it('notes each added element once, with how many items have it, for 64k items', () => {
    const { notes, tools } = noting();
    const item = '<List><Id>1</Id><Name>n</Name><ServerId>1</ServerId><X/><X/></List>';
    const root = readXml(`<ArrayOfList>${item.repeat(ITEMS)}</ArrayOfList>`)!;
    const order = [
      ['Id', 'integer'],
      ['Name', 'string'],
      ['ServerId', { equals: 1 }],
    ] as const;
    expectXmlItems(tools, answer, root, 'ArrayOfList', 'List', order);
    expect(notes).toEqual([
      `List: the element X, which the description does not list, in ${ITEMS} of ${ITEMS} item(s) (accepted)`,
    ]);
  });

  it('notes a bounded number of names for an object with 100k added fields', () => {
    const { notes, tools } = noting();
    const value: Record<string, unknown> = { id: 1, serverId: 1, name: 'n' };
    for (let i = 0; i < 100_000; i++) value[`f${i}`] = 1;
    expectObject(tools, answer, value, LIST, 'list');
    expect(notes).toHaveLength(MAX_NOTED_ADDITIONS + 1);
    expect(notes[0]).toBe('list: the field f0, which the description does not list (accepted)');
    expect(notes.at(-1)).toBe(
      `list: ${100_000 - MAX_NOTED_ADDITIONS} more field name(s) the description does not list (accepted)`,
    );
  });
});
