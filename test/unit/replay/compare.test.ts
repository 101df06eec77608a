import { describe, expect, it } from 'vitest';
import { type Answer, compareAnswers } from '../../../src/replay/compare.js';
import { IdMaps } from '../../../src/replay/ids.js';

// How replay compares a recorded answer with the fake's: one line per difference, as the report
// prints it.

const JSON_TYPE = 'application/json; charset=utf-8';
const XML_TYPE = 'application/xml';
const json = (value: unknown, status = 200): Answer => ({
  status,
  contentType: JSON_TYPE,
  body: JSON.stringify(value),
});
const xml = (body: string, status = 200): Answer => ({ status, contentType: XML_TYPE, body });
const compare = (
  recorded: Answer,
  fake: Answer,
  options: { exactDates?: boolean; hide?: (text: string) => string; ids?: IdMaps } = {},
) =>
  compareAnswers(recorded, fake, options.ids ?? new IdMaps(), options.hide, {
    exactDates: options.exactDates,
  });

describe('compareAnswers: status and Content-Type', () => {
  it('a status differs: that line alone, with the fake body when there is one', () => {
    expect(compare(json({ a: 1 }), json({ b: 2 }, 404))).toEqual([
      'status: recorded 200, fake 404 (fake\'s body: {"b":2})',
    ]);
    expect(compare(json({}), { status: 204, contentType: '', body: '' })).toEqual([
      'status: recorded 200, fake 204',
    ]);
    expect(compare(json({}), { status: 204, contentType: '', body: undefined })).toEqual([
      'status: recorded 200, fake 204',
    ]);
  });

  it('the media type is compared without parameters and case, when either side has a body', () => {
    expect(
      compare(json({ a: 1 }), { status: 200, contentType: 'Application/JSON', body: '{"a":1}' }),
    ).toEqual([]);
    expect(compare(json({ a: 1 }), { status: 200, contentType: '', body: '{"a":1}' })).toEqual([
      'Content-Type: recorded application/json, fake (none)',
    ]);
    expect(compare({ status: 200, contentType: '', body: '{"a":1}' }, json({ a: 1 }))).toEqual([
      'Content-Type: recorded (none), fake application/json',
    ]);
    const empty = (contentType: string): Answer => ({ status: 204, contentType, body: '' });
    expect(compare(empty('text/plain'), empty('application/json'))).toEqual([]);
    expect(compare(empty('text/plain'), { ...json('x'), status: 204 })).toEqual([
      'Content-Type: recorded text/plain, fake application/json',
      'body: recorded no body, fake JSON "x"',
    ]);
  });
});

describe('compareAnswers: JSON bodies', () => {
  it('by deep equality: each differing value, missing and extra field on a line', () => {
    expect(
      compare(
        json([{ id: 1, name: 'a', gone: true }, { id: 2 }]),
        json([{ id: 1, name: 'b', extra: null }, { id: 2 }]),
      ),
    ).toEqual([
      'body[0].name: recorded "a", fake "b"',
      'body[0].gone: recorded true, missing from the fake',
      'body[0].extra: not recorded, the fake sends null',
    ]);
  });

  it('arrays of another length: the count, then the common items', () => {
    expect(compare(json([1, 2, 3]), json([1, 5]))).toEqual([
      'body: recorded 3 items, fake 2',
      'body[1]: recorded 2, fake 5',
    ]);
    expect(compare(json([1]), json([1, 2]))).toEqual(['body: recorded 1 items, fake 2']);
  });

  it('an array against an object, or a value: the values', () => {
    expect(compare(json([]), json({}))).toEqual(['body: recorded [], fake {}']);
    expect(compare(json({ a: null }), json({ a: {} }))).toEqual(['body.a: recorded null, fake {}']);
  });

  it('more than 6 differences: the first 6 and how many more', () => {
    const recorded = Object.fromEntries([...'abcdefgh'].map((name) => [name, 1]));
    const fake = Object.fromEntries([...'abcdefgh'].map((name) => [name, 2]));
    const lines = compare(json(recorded), json(fake));
    expect(lines).toHaveLength(7);
    expect(lines[5]).toBe('body.f: recorded 1, fake 2');
    expect(lines[6]).toBe('... and 2 more');
    const six = Object.fromEntries([...'abcdef'].map((name) => [name, 1]));
    expect(compare(json(six), json({ ...six, ...fake, g: 1, h: 1 })).at(-1)).toBe('... and 2 more');
    expect(
      compare(json(six), json(Object.fromEntries([...'abcdef'].map((n) => [n, 2])))),
    ).toHaveLength(6);
  });

  it('a long value is cut at 80 characters, after its secrets are hidden', () => {
    const long = 'x'.repeat(100);
    const [line] = compare(json({ a: long }), json({ a: 'y' }));
    expect(line).toBe(`body.a: recorded "${'x'.repeat(79)}…, fake "y"`);
    const exact = 'x'.repeat(78);
    expect(compare(json({ a: exact }), json({ a: 'y' }))[0]).toBe(
      `body.a: recorded "${exact}", fake "y"`,
    );
    const hide = (text: string) => text.replaceAll('secret', '<redacted>');
    expect(compare(json({ a: `${'z'.repeat(70)}secret` }), json({ a: 'y' }), { hide })[0]).toBe(
      `body.a: recorded "${'z'.repeat(70)}<redacted…, fake "y"`,
    );
  });
});

describe('compareAnswers: ids, timestamps and URLs', () => {
  it('ids are paired by first appearance, as numbers or digit strings', () => {
    const ids = new IdMaps();
    expect(compare(json({ contactId: 7 }), json({ contactId: 70 }), { ids })).toEqual([]);
    expect(compare(json({ ContactID: '7' }), json({ ContactID: 70 }), { ids })).toEqual([]);
    expect(compare(json({ contactId: 7 }), json({ contactId: 71 }), { ids })).toEqual([
      'body.contactId: recorded 7, fake 71 (ids are paired by first appearance; this one was paired otherwise)',
    ]);
    expect(
      compare(json({ customFieldNameId: 7 }), json({ customFieldNameId: 71 }), { ids }),
    ).toEqual([]);
    // Not an id: compared as values.
    expect(compare(json({ contactId: 'x' }), json({ contactId: 'x' }), { ids })).toEqual([]);
    expect(compare(json({ contactId: 1.5 }), json({ contactId: 2.5 }), { ids })).toEqual([
      'body.contactId: recorded 1.5, fake 2.5',
    ]);
    expect(
      compare(json({ contactId: '1234567890123456' }), json({ contactId: '1' }), { ids }),
    ).toEqual(['body.contactId: recorded "1234567890123456", fake "1"']);
    expect(compare(json({ contactId: '' }), json({ contactId: '5' }), { ids })).toEqual([
      'body.contactId: recorded "", fake "5"',
    ]);
  });

  it('timestamps by format: ISO 8601 UTC on both sides, or the same text', () => {
    const at = (created: unknown) => json({ created });
    expect(compare(at('2026-01-01T00:00:00Z'), at('2027-02-02T01:02:03.1234567Z'))).toEqual([]);
    expect(compare(at('yesterday'), at('yesterday'))).toEqual([]);
    expect(compare(at('01/02/2026'), at('2026-01-01T00:00:00Z'))).toEqual([
      'body.created: recorded "01/02/2026" (not ISO 8601 UTC), fake "2026-01-01T00:00:00Z"',
    ]);
    expect(compare(at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00+00:00'))).toEqual([
      'body.created: recorded "2026-01-01T00:00:00Z", fake "2026-01-01T00:00:00+00:00" (not ISO 8601 UTC)',
    ]);
    expect(compare(at('a'), at('b'))).toEqual([
      'body.created: recorded "a" (not ISO 8601 UTC), fake "b" (not ISO 8601 UTC)',
    ]);
    expect(compare(at('2026-01-01T00:00:00.12345678Z'), at('2026-01-01T00:00:00Z'))[0]).toContain(
      '(not ISO 8601 UTC), fake',
    );
    expect(compare(at(1), at(2))).toEqual(['body.created: recorded 1, fake 2']);
    expect(
      compare(json({ thumbnailExpiration: 'x' }), json({ thumbnailExpiration: 'y' }))[0],
    ).toContain('(not ISO 8601 UTC)');
    expect(compare(json({ updated: 'x' }), json({ updated: 'y' }))[0]).toContain(
      '(not ISO 8601 UTC)',
    );
  });

  it('under a given seed, content dates exactly: the same instant in any ISO spelling', () => {
    const at = (updated: unknown) => json({ updated });
    const exactDates = true;
    expect(
      compare(at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:00.000Z'), { exactDates }),
    ).toEqual([]);
    expect(compare(at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:01Z'), { exactDates })).toEqual(
      [
        'body.updated: recorded "2026-01-01T00:00:00Z", fake "2026-01-01T00:00:01Z" (compared exactly: the given seed fixes content dates)',
      ],
    );
    expect(
      compare(
        json({ created: '2026-01-01T00:00:00Z' }),
        json({ created: '2026-01-02T00:00:00Z' }),
        { exactDates },
      ),
    ).toHaveLength(1);
    // The thumbnail's expiry follows the clock: by format even then.
    expect(
      compare(
        json({ thumbnailExpiration: '2026-01-01T00:00:00Z' }),
        json({ thumbnailExpiration: '2027-01-01T00:00:00Z' }),
        { exactDates },
      ),
    ).toEqual([]);
    // A date in another format is reported as one.
    expect(compare(at('x'), at('2026-01-01T00:00:00Z'), { exactDates })[0]).toContain(
      '"x" (not ISO 8601 UTC)',
    );
    expect(compare(at('2026-01-01T00:00:00Z'), at('x'), { exactDates })[0]).toContain(
      'fake "x" (not ISO 8601 UTC)',
    );
    expect(compare(at(1), at(1), { exactDates })).toEqual([]);
  });

  it('thumbnail URLs as absolute http(s) URLs', () => {
    const url = (thumbnailUrl: unknown) => json({ thumbnailUrl });
    expect(compare(url('https://a.test/x?sig=1'), url('http://b.test/y'))).toEqual([]);
    expect(compare(url('none'), url('none'))).toEqual([]);
    expect(compare(url('none'), url('other'))).toEqual([
      'body.thumbnailUrl: recorded "none", fake "other" (compared as absolute http(s) URLs)',
    ]);
    expect(compare(url('https://a.test/x'), url('/x'))).toHaveLength(1);
    expect(compare(url('https://a.test'), url('https://a.test/'))).toHaveLength(1);
    expect(compare(url('ftp://a.test/x'), url('https://a.test/x'))).toHaveLength(1);
    expect(compare(url('https://a b/x'), url('https://a.test/x'))).toHaveLength(1);
    expect(compare(url('https://a.test/x y'), url('https://a.test/x'))).toHaveLength(1);
    expect(compare(url(1), url(2))).toEqual(['body.thumbnailUrl: recorded 1, fake 2']);
  });
});

describe('compareAnswers: XML and other bodies', () => {
  it('XML by element names, order and text', () => {
    expect(
      compare(xml('<a><b>1</b></a>'), xml('<?xml version="1.0"?>\n<a>\n  <b>1</b>\n</a>')),
    ).toEqual([]);
    expect(compare(xml('<a><b>1</b><c>2</c></a>'), xml('<a><c>2</c><b>1</b></a>'))).toEqual([
      'body <a>[0]: recorded element <b>, fake <c>',
      'body <a>[1]: recorded element <c>, fake <b>',
    ]);
    expect(compare(xml('<a><b>1</b></a>'), xml('<a><b>2</b></a>'))).toEqual([
      'body <a>[0]<b>: recorded "1", fake "2"',
    ]);
    expect(compare(xml('<a><b>1</b><c/></a>'), xml('<a><b>1</b></a>'))).toEqual([
      'body <a>: recorded 2 child elements (b, c), fake 1 (b)',
    ]);
    expect(compare(xml('<a>x</a>'), xml('<b>x</b>'))).toEqual([
      'body : recorded element <a>, fake <b>',
    ]);
    expect(compare(xml('<a><b/></a>'), xml('<a>text</a>'))).toEqual([
      'body <a>: recorded 1 child elements (b), fake 0 ()',
    ]);
  });

  it('ids in XML are paired too', () => {
    const ids = new IdMaps();
    expect(
      compare(xml('<r><ContactId>3</ContactId></r>'), xml('<r><ContactId>9</ContactId></r>'), {
        ids,
      }),
    ).toEqual([]);
    expect(
      compare(xml('<r><ContactId>3</ContactId></r>'), xml('<r><ContactId>8</ContactId></r>'), {
        ids,
      }),
    ).toHaveLength(1);
  });

  it('bodies of different kinds: what each is', () => {
    expect(compare(json({ a: 1 }), { ...xml('<a/>'), contentType: JSON_TYPE })).toEqual([
      'body: recorded JSON {"a":1}, fake text "<a/>"',
    ]);
    expect(compare(xml('<a/>'), { ...json(1), contentType: XML_TYPE })).toEqual([
      'body: recorded XML <a>, fake text "1"',
    ]);
    expect(
      compare(
        { status: 200, contentType: 'text/plain', body: 'hi' },
        { status: 200, contentType: 'text/plain', body: 'ho' },
      ),
    ).toEqual(['body: recorded "hi", fake "ho"']);
    expect(
      compare(
        { status: 200, contentType: 'text/plain', body: 'hi' },
        { status: 200, contentType: 'text/plain', body: 'hi' },
      ),
    ).toEqual([]);
    expect(
      compare(
        { status: 200, contentType: 'text/plain', body: 'hi' },
        { status: 200, contentType: 'text/plain', body: '' },
      ),
    ).toEqual(['body: recorded text "hi", fake no body']);
  });
});

describe('compareAnswers: edges', () => {
  it('a recorded body against none: the Content-Type too', () => {
    expect(
      compare(
        { status: 200, contentType: 'text/plain', body: 'x' },
        { status: 200, contentType: 'application/json', body: '' },
      ),
    ).toEqual([
      'Content-Type: recorded text/plain, fake application/json',
      'body: recorded text "x", fake no body',
    ]);
  });

  it('text or JSON against XML: what each is', () => {
    expect(compare({ status: 200, contentType: 'text/plain', body: 'hi' }, xml('<a/>'))).toEqual([
      'Content-Type: recorded text/plain, fake application/xml',
      'body: recorded text "hi", fake XML <a>',
    ]);
  });

  it('an element with text against one with children: the counts', () => {
    expect(compare(xml('<a>x</a>'), xml('<a><b/></a>'))).toEqual([
      'body <a>: recorded 0 child elements (), fake 1 (b)',
    ]);
  });

  it('a timestamp or URL field against a value of another type: the values', () => {
    expect(compare(json({ created: 1 }), json({ created: '2026-01-01T00:00:00Z' }))).toEqual([
      'body.created: recorded 1, fake "2026-01-01T00:00:00Z"',
    ]);
    expect(compare(json({ created: '2026-01-01T00:00:00Z' }), json({ created: 1 }))).toEqual([
      'body.created: recorded "2026-01-01T00:00:00Z", fake 1',
    ]);
    expect(compare(json({ thumbnailUrl: 1 }), json({ thumbnailUrl: 'https://a.test/x' }))).toEqual([
      'body.thumbnailUrl: recorded 1, fake "https://a.test/x"',
    ]);
    expect(compare(json({ thumbnailUrl: 'https://a.test/x' }), json({ thumbnailUrl: 1 }))).toEqual([
      'body.thumbnailUrl: recorded "https://a.test/x", fake 1',
    ]);
  });

  it('ids as digit strings of several digits are paired', () => {
    const ids = new IdMaps();
    expect(compare(json({ contactId: '70' }), json({ contactId: '700' }), { ids })).toEqual([]);
    expect(compare(json({ contactId: '70' }), json({ contactId: '701' }), { ids })).toHaveLength(1);
  });
});
