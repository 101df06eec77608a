import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redaction/redact.js';
import {
  decodeEscapes,
  MAX_ESCAPE_WIDTH,
  mayHoldEscapes,
  redactForms,
} from '../../src/redaction/secret-encodings.js';
import { MIN_SECRET_LENGTH, REDACTED, replaceAll } from '../../src/redaction/secret-forms.js';
import { compileSecrets } from '../../src/redaction/secret-set.js';

// Tests that the mutation run (npm run mutation) asked for: each escape decodeEscapes reads and
// what it makes of it, and the forms compileSecrets builds, on the functions themselves.

const wire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('decodeEscapes', () => {
  it.each([
    // Percent: URL-safe characters decoded, the others upper-cased.
    ['%61', 'a'],
    ['%7E', '~'],
    ['%2f', '%2F'],
    ['%2F', '%2F'],
    ['%e9', '%E9'],
    ['%26', '%26'],
    // %uXXXX: decoded when URL-safe, else written as UTF-8 percent escapes; surrogates left.
    ['%u0061', 'a'],
    ['%U0061', '%U0061'],
    ['%u00e9', '%C3%A9'],
    ['%uD800', '%uD800'],
    ['%udfff', '%udfff'],
    // JSON: the character, unless JSON needs an escape for it.
    ['\\u0061', 'a'],
    ['\\u0020', ' '],
    ['\\u0022', '\\"'],
    ['\\u005c', '\\\\'],
    ['\\u000a', '\\n'],
    ['\\u001f', '\\u001f'],
    ['\\u007f', '\u007f'],
    ['\\ud83d\\ude00', '😀'],
    ['\\uD83D\\uDE00', '😀'],
    // The first and last high surrogates start a pair too.
    ['\\ud800\\udc00', '\u{10000}'],
    ['\\udbff\\udfff', '\u{10ffff}'],
    ['\\ud83d', '\\ud83d'],
    ['\\uDBFF', '\\udbff'],
    ['\\u0041\\udc00', 'A\\udc00'],
    ['\\u0041\\uDC00', 'A\\udc00'],
    ['\\udc00\\udc00', '\\udc00\\udc00'],
    ['\\\\u0061', 'a'],
    ['\\\\\\u0062', 'b'],
    ['\\u006', '\\u006'],
    // Character references: the character, XML's own escapes, never an apostrophe or nothing.
    ['&#97;', 'a'],
    ['&#x61;', 'a'],
    ['&#X61;', 'a'],
    ['&#38;', '&amp;'],
    ['&#60;', '&lt;'],
    ['&#62;', '&gt;'],
    ['&#34;', '&quot;'],
    ['&#39;', '&#39;'],
    ['&#0;', '&#0;'],
    ['&#x0;', '&#x0;'],
    ['&#1;', '\u0001'],
    ['&#x110000;', '&#x110000;'],
    ['&#x10FFFF;', '\u{10ffff}'],
    ['&#xD800;', '&#xD800;'],
    ['&#57343;', '&#57343;'],
    ['&#xe9;', 'é'],
    ['&#1234567;', '&#1234567;'],
    ['&#x1234567;', '&#x1234567;'],
    ['&#97', '&#97'],
    ['plain text', 'plain text'],
  ])('%s reads as %s', (escaped, decoded) => {
    expect(decodeEscapes(escaped, false)).toBe(decoded);
  });

  it('writes a decoded character as UTF-8 bytes on the wire, never a percent escape', () => {
    expect(decodeEscapes('&#xe9;', true)).toBe(wire('é'));
    expect(decodeEscapes('\\u00e9', true)).toBe(wire('é'));
    expect(decodeEscapes('\\ud83d\\ude00', true)).toBe(wire('😀'));
    expect(decodeEscapes('%u00e9', true)).toBe('%C3%A9');
    expect(decodeEscapes('%61', true)).toBe('a');
    expect(decodeEscapes('&#38;', true)).toBe('&amp;');
  });

  it('decodes every escape of a string, in any mix', () => {
    expect(decodeEscapes('S%65\\u0063&#114;&#x33;t', false)).toBe('Secr3t');
  });
});

describe('mayHoldEscapes', () => {
  it.each([
    ['%', true],
    ['a\\ub', true],
    ['&#', true],
    ['&', false],
    ['\\', false],
    ['#', false],
    ['plain', false],
  ])('%s: %s', (value, expected) => {
    expect(mayHoldEscapes(value)).toBe(expected);
  });
});

describe('compileSecrets', () => {
  it('skips secrets shorter than the minimum, unless told a lower one', () => {
    expect(MIN_SECRET_LENGTH).toBe(6);
    expect(compileSecrets([])).toBeUndefined();
    expect(compileSecrets(['abcde'])).toBeUndefined();
    expect(compileSecrets(['abcdef'])).toBeDefined();
    expect(compileSecrets(['abc'], 3)).toBeDefined();
    expect(compileSecrets(['abc'], 4)).toBeUndefined();
    // Never the empty string, whatever the minimum.
    expect(compileSecrets([''], 0)).toBeUndefined();
  });

  it('measures the longest form in wire characters', () => {
    // 'Secr3t-Key' is 10 characters; its longest form here is a base64 core of 13.
    expect(compileSecrets(['Secr3t-Key'])!.longest).toBe(13);
    // "a&b<c>" in XML attributes: a&amp;b&lt;c&gt; (16).
    expect(compileSecrets(['a&b<c>'])!.longest).toBe(16);
    // é is two bytes on the wire: its URL form %C3%A9 is the longest (6 + 6 = 12).
    expect(compileSecrets(['ééxxxx'])!.longest).toBe(
      Math.max(encodeURIComponent('ééxxxx').length, 16),
    );
  });

  it.each([
    ['as is', 'Secr3t Key&<>"/', 'Secr3t Key&<>"/'],
    ['lower-cased (a header name)', 'Secr3t Key&<>"/', 'secr3t key&<>"/'],
    ['URL-encoded', 'Secr3t Key&<>"/', encodeURIComponent('Secr3t Key&<>"/')],
    ['form-encoded', 'Secr3t Key&<>"/', encodeURIComponent('Secr3t Key&<>"/').replace('%20', '+')],
    [
      'URL-encoded in lower case',
      'Secr3t Key&<>"/',
      encodeURIComponent('Secr3t Key&<>"/').replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    ],
    ['JSON-escaped', 'Secr3t Key&<>"/', 'Secr3t Key&<>\\"/'],
    ['XML text', 'Secr3t Key&<>"/', 'Secr3t Key&amp;&lt;&gt;"/'],
    ['an XML attribute', 'Secr3t Key&<>"/', 'Secr3t Key&amp;&lt;&gt;&quot;/'],
  ])('finds a secret %s', (_name, secret, form) => {
    const { text } = compileSecrets([secret])!;
    expect(text.any.test(`x=${form};`)).toBe(true);
    expect(replaceAll(`x=${form};`, text)).toBe(`x=${REDACTED};`);
  });

  it('finds a secret with a lone surrogate as is, without a URL form', () => {
    const secret = 'ab\ud800cdef';
    const { text } = compileSecrets([secret])!;
    expect(replaceAll(`[${secret}]`, text)).toBe(`[${REDACTED}]`);
  });

  it.each([
    ['alone', 'U2VjcjN0LUtleQ=='],
    ['after an id', Buffer.from('1234:Secr3t-Key').toString('base64')],
    ['before an id', Buffer.from('Secr3t-Key:1234').toString('base64')],
    ['at offset 2', Buffer.from('12Secr3t-Key').toString('base64')],
    ['in base64url', Buffer.from('>>?Secr3t-Key?>>').toString('base64url')],
  ])('takes the whole base64 run of a secret %s, and nothing around it', (_name, encoded) => {
    const { text } = compileSecrets(['Secr3t-Key'])!;
    expect(replaceAll(`Basic ${encoded}, "x"`, text)).toBe(`Basic ${REDACTED}, "x"`);
    expect(replaceAll(`:${encoded}:`, text)).toBe(`:${REDACTED}:`);
  });

  it('widens a base64 run no further back than the previous replacement', () => {
    const { text } = compileSecrets(['Secr3t-Key'])!;
    const core = 'U2VjcjN0LUtleQ';
    expect(replaceAll(`${core}${core}`, text)).toBe(`${REDACTED}`);
    expect(replaceAll(`Secr3t-Key${core}`, text)).toBe(`${REDACTED}${REDACTED}`);
    expect(replaceAll('Secr3t-Key and Secr3t-Key', text)).toBe(`${REDACTED} and ${REDACTED}`);
    expect(replaceAll('nothing here', text)).toBe('nothing here');
  });

  it('with many secrets, finds each by its index of first characters', () => {
    // 20 secrets give more than 48 forms: the test goes through the index.
    const secrets = Array.from({ length: 20 }, (_, i) => `secret-number-${i}-x`);
    const { text } = compileSecrets(secrets)!;
    expect(text.any).not.toBeInstanceOf(RegExp);
    for (const secret of secrets) {
      expect(text.any.test(secret)).toBe(true);
      expect(text.any.test(`..${secret}`)).toBe(true);
      expect(text.any.test(`${secret}..`)).toBe(true);
      expect(text.any.test(`a ${secret} b`)).toBe(true);
    }
    expect(text.any.test('secret-number-')).toBe(false);
    expect(text.any.test('secret-number-1-')).toBe(false);
    expect(text.any.test('secre')).toBe(false);
    expect(text.any.test('')).toBe(false);
    expect(text.any.test('x'.repeat(1000))).toBe(false);
    expect(replaceAll(`[${secrets[7]}]`, text)).toBe(`[${REDACTED}]`);
  });

  it('takes a secret that starts with another whole, whichever is given first', () => {
    for (const secrets of [
      ['Secr3t-Key', 'Secr3t-Key-Longer'],
      ['Secr3t-Key-Longer', 'Secr3t-Key'],
    ]) {
      const { text, wire } = compileSecrets(secrets)!;
      expect(replaceAll('a Secr3t-Key-Longer b', text)).toBe(`a ${REDACTED} b`);
      expect(replaceAll('a Secr3t-Key-Longer b', wire)).toBe(`a ${REDACTED} b`);
      expect(replaceAll('a Secr3t-Key b', text)).toBe(`a ${REDACTED} b`);
    }
  });

  it('with many secrets, still finds one shorter than the usual minimum', () => {
    // verify's own key may be short; among more than 48 forms it must still be found.
    const secrets = [...Array.from({ length: 20 }, (_, i) => `secret-number-${i}-x`), 'abc'];
    const { text } = compileSecrets(secrets, 3)!;
    expect(text.any.test('x abc y')).toBe(true);
    expect(text.any.test('abc')).toBe(true);
    expect(replaceAll('x abc y', text)).toBe(`x ${REDACTED} y`);
    expect(text.any.test('x ab y')).toBe(false);
  });

  it('with many secrets, finds a form of exactly the shortest length, even alone', () => {
    const secrets = [...Array.from({ length: 20 }, (_, i) => `secret-number-${i}-x`), 'Six6ix'];
    const { text } = compileSecrets(secrets)!;
    expect(text.any.test('Six6ix')).toBe(true);
    expect(text.any.test('Six6i')).toBe(false);
  });

  it('a secret without a URL form measures its longest form among the others', () => {
    // A lone surrogate has no URL form; its JSON escape and its base64 are 12 characters long.
    expect(compileSecrets(['ab\ud800cdef'])!.longest).toBe('ab\\ud800cdef'.length);
  });

  it('searches the base64 of a key only when the run is at least the minimum long', () => {
    // A 5-character key (allowed with minLength 5) gives base64 runs of exactly 6: searched.
    const five = compileSecrets(['k3y-5'], 5)!;
    expect(replaceAll(`Basic ${Buffer.from('k3y-5').toString('base64')}`, five.text)).toBe(
      `Basic ${REDACTED}`,
    );
    // A 3-character key's base64 runs are 4 or fewer: they would match any base64, so they are
    // not searched, and its longest form is the key itself.
    const three = compileSecrets(['abc'], 3)!;
    expect(three.longest).toBe(3);
    expect(three.text.any.test(Buffer.from('abc').toString('base64'))).toBe(false);
  });

  it('with few secrets, uses one regular expression', () => {
    expect(compileSecrets(['Secr3t-Key'])!.text.any).toBeInstanceOf(RegExp);
  });
});

describe('redactForms', () => {
  const compiled = compileSecrets(['Secr3t-Key'])!;

  it('finds a secret behind escapes, and leaves strings without one as they are', () => {
    expect(redactForms('k=S%65cr3t-Key', compiled.text, false)).toBe(`k=${REDACTED}`);
    expect(redactForms('{"k":"\\u0053ecr3t-Key"}', compiled.text, false)).toBe(
      `{"k":"${REDACTED}"}`,
    );
    expect(redactForms('<k>&#83;ecr3t-Key</k>', compiled.text, false)).toBe(`<k>${REDACTED}</k>`);
    const untouched = 'a=%41&b=\\u0042&c=&#67;';
    expect(redactForms(untouched, compiled.text, false)).toBe(untouched);
    expect(redactForms('no escapes', compiled.text, false)).toBe('no escapes');
  });

  it('reads base64 cut in lines as one run, as is or JSON-escaped', () => {
    // The break falls inside the secret's own base64 (characters 24 to 37).
    const encoded = Buffer.from(`${'x'.repeat(18)}Secr3t-Key${'y'.repeat(18)}`).toString('base64');
    const cut = (breakAs: string) => `${encoded.slice(0, 30)}${breakAs}${encoded.slice(30)}`;
    expect(redactForms(cut('\n'), compiled.text, false)).toBe(REDACTED);
    expect(redactForms(`"${cut('\\n')}"`, compiled.text, false)).toBe(`"${REDACTED}"`);
    expect(redactForms(`"${cut('\\r\\n')}"`, compiled.text, false)).toBe(`"${REDACTED}"`);
    expect(redactForms(cut('\r\n'), compiled.text, false)).toBe(REDACTED);
    // A break not followed by base64 stays.
    expect(redactForms(`${encoded.slice(0, 30)}\n-`, compiled.text, false)).toBe(
      `${encoded.slice(0, 30)}\n-`,
    );
    // Exactly 16 base64 characters before the break: a block, joined.
    const aligned = Buffer.from(`${'x'.repeat(9)}Secr3t-Key${'y'.repeat(9)}`).toString('base64');
    expect(redactForms(`${aligned.slice(0, 16)}\n${aligned.slice(16)}`, compiled.text, false)).toBe(
      REDACTED,
    );
    // Fewer than 16 base64 characters before the break: no block, the lines stay.
    const short = 'abc\nSecr3t';
    expect(redactForms(short, compiled.text, false)).toBe(short);
  });

  it('keeps a line break that no base64 follows in a string it redacts', () => {
    // The secret behind an escape makes the decoded string the answer: its line breaks must be
    // the string's own, whatever the 16 characters before them look like.
    for (const next of ['- k=', '"k": "', ' k=']) {
      expect(redactForms(`abcdefghijklmnopqrst\n${next}S%65cr3t-Key`, compiled.text, false)).toBe(
        `abcdefghijklmnopqrst\n${next}${REDACTED}`,
      );
      expect(
        redactForms(`"abcdefghijklmnopqrst\\n${next}\\u0053ecr3t-Key"`, compiled.text, false),
      ).toBe(`"abcdefghijklmnopqrst\\n${next}${REDACTED}"`);
    }
  });

  it('reaches as far as the widest escape', () => {
    expect(MAX_ESCAPE_WIDTH).toBe('&#x0000073;'.length);
  });
});

describe('Redactor: a secret anywhere in the query, alone', () => {
  const KEY = 'Secr3t-Key_0042';
  const redactor = new Redactor({ revision: () => 1, secrets: () => [KEY] }, 1024);
  const facts = (query: Record<string, string | string[]>) => ({
    url: '/marketing/v1/lists',
    query,
    requestHeaders: { host: 'localhost' },
  });

  it.each([
    ['as the only name', { [KEY]: '1' }, { [REDACTED]: '1' }],
    ['as the only value', { k: KEY }, { k: REDACTED }],
    ['in the second parameter only', { a: 'x', b: KEY }, { a: 'x', b: REDACTED }],
    ['in one item of a repeated parameter', { l: ['a', `b${KEY}`] }, { l: ['a', `b${REDACTED}`] }],
    [
      'in the last item of a repeated parameter',
      { l: ['a', 'b', KEY] },
      { l: ['a', 'b', REDACTED] },
    ],
  ])('is redacted %s', (_name, query, expected) => {
    expect(redactor.record(facts(query)).query).toEqual(expected);
  });

  it('keeps the very query, and the very record, when no parameter holds a secret', () => {
    const clean = facts({ a: 'x', l: ['1', '2'] });
    expect(redactor.record(clean)).toBe(clean);
  });

  it('keeps the order of headers when one of them is redacted', () => {
    const recorded = redactor.record({
      ...facts({}),
      requestHeaders: { 'x-first': KEY, 'x-second': 'b', host: 'localhost' },
    });
    expect(Object.keys(recorded.requestHeaders)).toEqual(['x-first', 'x-second', 'host']);
    expect(recorded.requestHeaders['x-first']).toBe(REDACTED);
  });

  it('an Authorization of the Basic scheme alone keeps the scheme', () => {
    const recorded = redactor.record({ ...facts({}), requestHeaders: { authorization: 'Basic' } });
    expect(recorded.requestHeaders.authorization).toBe(`Basic ${REDACTED}`);
  });
});

describe('redactForms: the work a string costs', () => {
  /** The compiled text patterns, counting each test and each search. */
  function counted(secrets = ['Secr3t-Key']) {
    const { text } = compileSecrets(secrets)!;
    const counts = { any: 0, each: 0, mixed: 0 };
    class Each extends RegExp {
      override exec(value: string) {
        counts.each += 1;
        return super.exec(value);
      }
    }
    const counting = (name: 'any' | 'mixed') => ({
      test: (value: string) => {
        counts[name] += 1;
        return text[name].test(value);
      },
    });
    // A few keys: one regular expression, not the index.
    const each = text.each as RegExp;
    const patterns = {
      ...text,
      any: counting('any'),
      each: new Each(each.source, each.flags),
      mixed: counting('mixed'),
    };
    return { patterns, counts };
  }

  it('a string without a secret, an escape or a line break: one test, no search', () => {
    const { patterns, counts } = counted();
    expect(redactForms('plain words, no secret', patterns, false)).toBe('plain words, no secret');
    expect(counts).toEqual({ any: 1, each: 0, mixed: 0 });
  });

  it('a string the loose reading cannot change, or without the longest run: no more tests', () => {
    const { patterns, counts } = counted(['Tk/9+ab_cDe-77Q']);
    // The prefilter of mixed spellings lets it by, but reading it changes nothing.
    expect(redactForms('%zz_ab_cDe-77Q', patterns, false)).toBe('%zz_ab_cDe-77Q');
    expect(counts).toEqual({ any: 1, each: 0, mixed: 1 });
    const other = counted(['Tk/9+ab_cDe-77Q']);
    // An escape, but not the secret's longest run: the prefilter stops it.
    expect(redactForms('a=%2F%C3%A9', other.patterns, false)).toBe('a=%2F%C3%A9');
    expect(other.counts).toEqual({ any: 1, each: 0, mixed: 1 });
  });

  it('a string without a space or an escape, for a key holding +: no loose reading', () => {
    const { patterns, counts } = counted(['Tk/9+ab_cDe-77Q']);
    expect(redactForms('a&b', patterns, false)).toBe('a&b');
    expect(counts).toEqual({ any: 1, each: 0, mixed: 0 });
  });

  it('a secret as written: found by one search, the rest of the string as it was', () => {
    const { patterns, counts } = counted();
    expect(redactForms('a Secr3t-Key b', patterns, false)).toBe(`a ${REDACTED} b`);
    // Two searches: the one that finds it, the one that finds nothing after.
    expect(counts).toEqual({ any: 1, each: 2, mixed: 0 });
  });
});
