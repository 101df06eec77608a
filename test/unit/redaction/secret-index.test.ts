import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactForms } from '../../../src/redaction/secret-encodings.js';
import {
  Anchors,
  findSpans,
  type Patterns,
  REDACTED,
} from '../../../src/redaction/secret-forms.js';
import { compileSecrets } from '../../../src/redaction/secret-set.js';

// Past a few dozen forms (a handful of servers), the redactor finds the secrets through an index
// (Anchors) instead of one regular expression. The index must answer exactly as the regular
// expression would, and its work must stay linear in the string whatever the keys: with an
// index of the forms' first characters, one anonymous request, a path of the prefix 2,000 keys
// shared, froze the fake for a minute.

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The same forms, both ways: by one regular expression, and by the index. */
function bothWays(forms: string[], base64: string[]): { regex: Patterns; index: Patterns } {
  const sorted = [...new Set(forms)].sort((a, b) => b.length - a.length);
  const source = sorted.map(escapeRegExp).join('|');
  const anchors = new Anchors(sorted);
  const common = { base64: new Set(base64), plus: false, mixed: { test: () => false } };
  return {
    regex: { any: new RegExp(source), each: new RegExp(source, 'g'), ...common },
    index: { any: anchors, each: anchors, ...common },
  };
}

// A small alphabet, so that forms overlap, share prefixes and nest inside one another.
const char = fc.constantFrom('a', 'b', 'k', 'x', '1', '+', '/', '=');
const form = fc.string({ unit: char, minLength: 6, maxLength: 14 });

describe('the index of forms answers as the regular expression does', () => {
  it('finds a form exactly when the regular expression does, at the same places', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(form, { minLength: 1, maxLength: 30 }),
        fc.array(fc.oneof(form, fc.string({ unit: char, maxLength: 8 })), { maxLength: 20 }),
        fc.nat(),
        (bases, pieces, pick) => {
          // Forms that are prefixes of others, as a key and its longer neighbour (`…x12`,
          // `…x123`): at one start, the longest must win.
          const forms = [
            ...new Set([
              ...bases,
              ...bases.map((one) => one.slice(0, 6 + (pick % (one.length - 5)))),
            ]),
          ];
          // Some forms are base64 cores: the base64 run around them goes too.
          const base64 = forms.filter((_, index) => (pick >> index) & 1);
          const { regex, index } = bothWays(forms, base64);
          // Whole forms, and pieces of them, side by side.
          const value = [...pieces, ...bases.slice(0, pick % 4)].join('');
          expect(index.any.test(value)).toBe(regex.any.test(value));
          expect(findSpans(value, index)).toEqual(findSpans(value, regex));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('finds a form at the very start and the very end, and none in a string shorter than six', () => {
    const anchors = new Anchors(['abcdefgh', 'zzzzzz']);
    expect(anchors.test('abcdefgh')).toBe(true);
    expect(anchors.test('..abcdefgh')).toBe(true);
    expect(anchors.test('abcdefg')).toBe(false);
    expect(anchors.test('zzzzz')).toBe(false);
    expect(anchors.test('')).toBe(false);
    expect(anchors.matches('zzzzzz abcdefgh')).toEqual([
      [0, 6],
      [7, 15],
    ]);
  });
});

describe('what the index finds, and what it compares', () => {
  it('a place whose six characters anchor a form, where the form is not, is no match', () => {
    const anchors = new Anchors(['abcdefgh']);
    expect(anchors.matches('abcdefXX zzzzzz abcdefgh')).toEqual([[16, 24]]);
    // Each place with the anchor's characters cost one comparison, and only those.
    expect(anchors.comparisons).toBe(2);
  });

  it('an anchor found before where its form could start is no match', () => {
    // Neighbours in sorted order share 11 characters: each is anchored at its last six, which
    // the first form also holds at 0 and 3, where it cannot end.
    const anchors = new Anchors(['ab1ab1ab1ab1', 'ab1ab1ab1ab2']);
    expect(anchors.matches('ab1ab1ab1ab1')).toEqual([[0, 12]]);
    expect(anchors.matches('ab1ab1ab1ab2 ab1ab1ab1ab1')).toEqual([
      [0, 12],
      [13, 25],
    ]);
    expect(anchors.test('b1ab1ab1ab1')).toBe(false);
  });
});

describe('the work of the index stays linear in the string, whatever the keys', () => {
  /** Redacts `value` as the journal does a URL, and says how many forms it compared. */
  function redactCounting(keys: string[], value: string) {
    const compiled = compileSecrets(keys)!;
    const anchors = compiled.wire.any;
    expect(anchors).toBeInstanceOf(Anchors);
    const before = (anchors as Anchors).comparisons;
    const redacted = redactForms(value, compiled.wire, true);
    return { redacted, compared: (anchors as Anchors).comparisons - before };
  }

  it('2,000 keys sharing a 150-character prefix, against 8 KB of that prefix', () => {
    const keys = Array.from({ length: 2000 }, (_, index) => `${'k'.repeat(150)}x${index}`);
    const path = `/marketing/v1/lists/${'k'.repeat(8000)}`;
    const { redacted, compared } = redactCounting(keys, path);
    expect(redacted).toBe(path);
    // The first-characters index compared every key's forms at every place: tens of millions.
    expect(compared).toBeLessThan(path.length);
  });

  it('3,000 tenant keys (`integration-test-api-key-tenant-<n>`), against their prefix repeated', () => {
    const keys = Array.from(
      { length: 3000 },
      (_, index) => `integration-test-api-key-tenant-${index}`,
    );
    const path = `/marketing/v1/lists/${'integration-test-api-key-tenant-'.repeat(500)}`;
    const { redacted, compared } = redactCounting(keys, path);
    expect(redacted).toBe(path);
    expect(compared).toBeLessThan(path.length);
  });

  it('still finds each of those keys, however many share its prefix', () => {
    const keys = Array.from({ length: 2000 }, (_, index) => `${'k'.repeat(150)}x${index}`);
    const compiled = compileSecrets(keys)!;
    for (const key of [keys[0]!, keys[1234]!, keys[1999]!]) {
      const value = `/marketing/${'k'.repeat(300)}${key}/lists`;
      expect(redactForms(value, compiled.wire, true)).not.toContain(key);
      expect(redactForms(value, compiled.wire, true)).toContain(REDACTED);
    }
    // A key is found whole: `…x12` is not a key when only `…x123` is.
    const keysFrom100 = keys.slice(100);
    const compiledFrom100 = compileSecrets(keysFrom100)!;
    const notAKey = `${'k'.repeat(150)}x12`;
    expect(redactForms(`/${notAKey}/`, compiledFrom100.wire, true)).toBe(`/${notAKey}/`);
  });
});
