import { describe, expect, it } from 'vitest';
import {
  decodeEscapes,
  MAX_ESCAPE_WIDTH,
  mayHoldEscapes,
  redactForms,
} from '../../../src/redaction/secret-encodings.js';
import { REDACTED } from '../../../src/redaction/secret-forms.js';
import { compileSecrets } from '../../../src/redaction/secret-set.js';

// How a secret is found however it is escaped: each escape decodeEscapes reads and what it makes
// of it, which strings may hold escapes at all, and what redactForms takes out, and at what cost.

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
