import { describe, expect, it } from 'vitest';
import { Mismatch, Skip } from '../../../src/verify/check-kit.js';
import type { Answer } from '../../../src/verify/http-client.js';
import {
  expectArrayOf,
  expectObject,
  expectXmlItems,
  follows,
  isIsoUtc,
  readJsonItems,
  readXmlItems,
} from '../../../src/verify/shapes.js';
import { readXml } from '../../../src/verify/xml-read.js';
import { json, scriptedTools, xml } from '../../helpers/scripted-tools.js';

const ANSWER: Answer = { status: 200, contentType: 'application/json', body: '' };

/** What a judgement reports: 'ok', or the Mismatch's wanted and got. */
function verdict(judge: () => unknown): string | [string, string] {
  try {
    judge();
    return 'ok';
  } catch (error) {
    if (!(error instanceof Mismatch)) throw error;
    return [error.wanted, error.got];
  }
}

describe('an ISO 8601 UTC timestamp', () => {
  it.each([
    '0001-01-01T00:00:00Z',
    '2026-11-23T10:00:00Z',
    '2026-11-23T10:00:00.5Z',
    '2026-11-23T10:00:00.1234567+00:00',
  ])('accepts %s, with or without a fraction of 1 to 7 digits', (text) => {
    expect(isIsoUtc(text)).toBe(true);
  });

  it.each([
    ['text before it', 'x2026-11-23T10:00:00Z'],
    // A real instant to Date.parse: only the pattern's start refuses it.
    ['an expanded year', '+002026-11-23T10:00:00Z'],
    ['text after it', '2026-11-23T10:00:00Zx'],
    ['a year of two digits', '26-11-23T10:00:00Z'],
    ['an empty fraction', '2026-11-23T10:00:00.Z'],
    ['a fraction of 8 digits', '2026-11-23T10:00:00.12345678Z'],
    ['a letter for a digit', '2026-11-23T1a:00:00Z'],
    ['an instant that is none', '2026-02-30T25:61:00Z'],
  ])('refuses %s', (_what, text) => {
    expect(isIsoUtc(text)).toBe(false);
  });

  it('refuses a value that only prints as a timestamp', () => {
    expect(isIsoUtc(['2026-11-23T10:00:00Z'])).toBe(false);
    expect(isIsoUtc({ toString: () => '2026-11-23T10:00:00Z' })).toBe(false);
  });
});

describe('a field rule', () => {
  it.each([
    [7, 'integer', [true, 'an integer']],
    [7.5, 'integer', [false, 'an integer']],
    [
      2 ** 53,
      'integer',
      [false, `an integer id of at most ${Number.MAX_SAFE_INTEGER}, which a client reads exactly`],
    ],
    ['n', 'string', [true, 'a string']],
    [7, 'string', [false, 'a string']],
    ['https://cdn.example.com/t.png', 'url', [true, 'an absolute http(s) URL']],
    ['http://cdn.example.com/t.png', 'url', [true, 'an absolute http(s) URL']],
    ['ftp://cdn.example.com/t.png', 'url', [false, 'an absolute http(s) URL']],
    ['/t.png', 'url', [false, 'an absolute http(s) URL']],
    [42, 'url', [false, 'an absolute http(s) URL']],
    ['2026-11-23T10:00:00Z', 'iso-utc', [true, 'an ISO 8601 UTC timestamp']],
    ['2026-11-23 10:00', 'iso-utc', [false, 'an ISO 8601 UTC timestamp']],
    ['String', { equals: 'String' }, [true, '"String"']],
    [1, { equals: '1' }, [false, '"1"']],
  ] as const)('judges %j as %j', (value, rule, expected) => {
    expect(follows(value, rule)).toStrictEqual(expected);
  });
});

describe('a JSON object or array of objects the description defines', () => {
  const RULES = { id: 'integer', name: 'string' } as const;

  it.each([
    ['null', null, 'item as null'],
    ['a number', 5, 'item as 5'],
    ['a string', 'x', 'item as "x"'],
    ['an array', [{ id: 1, name: 'n' }], 'item as [{"id":1,"name":"n"}]'],
    ['nothing', undefined, 'item as undefined'],
    ['a long array', Array(40).fill(1), `item as [${Array(30).fill(1).join(',')}`],
  ])('refuses %s for an object', (_what, value, got) => {
    const { tools } = scriptedTools(() => ANSWER);
    expect(verdict(() => expectObject(tools, ANSWER, value, RULES, 'item'))).toEqual([
      'item as an object',
      got,
    ]);
  });

  it('names a described field that is missing, and one that breaks its rule', () => {
    const { tools } = scriptedTools(() => ANSWER);
    expect(verdict(() => expectObject(tools, ANSWER, { id: 1 }, RULES, 'item'))).toEqual([
      'item.name: a string',
      'item has no name',
    ]);
    expect(verdict(() => expectObject(tools, ANSWER, { id: 1, name: 2 }, RULES, 'item'))).toEqual([
      'item.name: a string',
      'item.name is 2',
    ]);
  });

  it('names the item that is no object in an array', () => {
    const { tools } = scriptedTools(() => ANSWER);
    expect(
      verdict(() => expectArrayOf(tools, ANSWER, [{ id: 1, name: 'n' }, null], RULES, 'list')),
    ).toEqual(['list[1] as an object', 'list[1] as null']);
  });

  it.each([
    ['an object', { id: 1 }, '{"id":1}'],
    ['nothing', undefined, 'undefined'],
    ['a long string', 'y'.repeat(100), `"${'y'.repeat(59)}`],
  ])('refuses %s for an array', (_what, value, got) => {
    const { tools } = scriptedTools(() => ANSWER);
    expect(verdict(() => expectArrayOf(tools, ANSWER, value, RULES, 'list'))).toEqual([
      'a JSON array',
      got,
    ]);
  });

  it('returns the items and notes nothing when they hold only the described fields', () => {
    const { tools, notes } = scriptedTools(() => ANSWER);
    const items = [{ id: 1, name: 'a' }];
    expect(expectArrayOf(tools, ANSWER, items, RULES, 'list')).toBe(items);
    expect(notes).toEqual([]);
  });
});

describe('XML items the description defines', () => {
  const ORDER = [
    ['Id', 'integer'],
    ['Name', 'string'],
  ] as const;
  const judge = (text: string) => {
    const { tools } = scriptedTools(() => ANSWER);
    return verdict(() =>
      expectXmlItems(tools, ANSWER, readXml(text)!, 'ArrayOfList', 'List', ORDER),
    );
  };

  it('refuses a root of another name', () => {
    expect(judge('<Lists><List><Id>1</Id><Name>a</Name></List></Lists>')).toEqual([
      'root element ArrayOfList',
      'root element Lists',
    ]);
  });

  it('names the described elements an item has, in its order', () => {
    expect(judge('<ArrayOfList><List><Name>a</Name><Id>1</Id></List></ArrayOfList>')).toEqual([
      'List 1 with Id, Name in that order',
      'List 1 with Name, Id',
    ]);
  });

  it('refuses an item of another name', () => {
    expect(
      judge('<ArrayOfList><List><Id>1</Id><Name>a</Name></List><Other/></ArrayOfList>'),
    ).toEqual(['items named List', 'an item named Other']);
  });

  it('says so when an item has none of the described elements', () => {
    expect(judge('<ArrayOfList><List><X>1</X></List></ArrayOfList>')).toEqual([
      'List 1 with Id, Name in that order',
      'List 1 with none of them',
    ]);
  });

  it('reads an integer element as digits only', () => {
    expect(judge('<ArrayOfList><List><Id>1.5</Id><Name>a</Name></List></ArrayOfList>')).toEqual([
      'List 1 Id: an integer',
      'List 1 Id is "1.5"',
    ]);
    expect(judge('<ArrayOfList><List><Id> -2 </Id><Name>a</Name></List></ArrayOfList>')).toBe('ok');
    expect(judge('<ArrayOfList><List><Id>123</Id><Name>a</Name></List></ArrayOfList>')).toBe('ok');
    for (const text of ['+12', '1e3', '12 3', 'x12']) {
      expect(
        judge(`<ArrayOfList><List><Id>${text}</Id><Name>a</Name></List></ArrayOfList>`),
      ).toEqual(['List 1 Id: an integer', `List 1 Id is ${JSON.stringify(text)}`]);
    }
  });
});

describe('reading a collection', () => {
  const RULES = { id: 'integer' } as const;

  it('asks for JSON and returns the items', async () => {
    const { tools, calls } = scriptedTools(() => json(200, [{ id: 1 }]));
    expect(await readJsonItems(tools, '/lists', RULES, 'list')).toEqual([{ id: 1 }]);
    expect(calls).toEqual([{ method: 'GET', path: '/lists', accept: 'application/json' }]);
  });

  it('skips an empty collection in JSON and in XML', async () => {
    const empty = scriptedTools(() => json(200, []));
    await expect(readJsonItems(empty.tools, '/lists', RULES, 'list')).rejects.toBeInstanceOf(Skip);
    const emptyXml = scriptedTools(() => xml(200, '<ArrayOfList/>'));
    await expect(
      readXmlItems(emptyXml.tools, '/lists', 'ArrayOfList', 'List', []),
    ).rejects.toBeInstanceOf(Skip);
    expect(emptyXml.calls).toEqual([{ method: 'GET', path: '/lists', accept: 'text/xml' }]);
  });
});
