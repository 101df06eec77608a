import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactForms } from '../../../src/redaction/secret-encodings.js';
import {
  type Compiled,
  MIN_SECRET_LENGTH,
  REDACTED,
  replaceAll,
} from '../../../src/redaction/secret-forms.js';
import { compileSecrets, SecretSet } from '../../../src/redaction/secret-set.js';

// The redactor's secrets are kept up to date by what changed: a key that comes adds its forms, a
// key that goes takes them out. The set must then find exactly what a set compiled from scratch
// finds, and an update must cost in the keys that changed, not in all of them.

const redactBoth = (compiled: Compiled | undefined, value: string) =>
  compiled === undefined
    ? [value, value]
    : [redactForms(value, compiled.text, false), redactForms(value, compiled.wire, true)];

const key = fc.string({
  unit: fc.constantFrom('a', 'b', 'K', '1', '+', '/', '-', '_', '&', "'", ' '),
  minLength: 4,
  maxLength: 12,
});

describe('a SecretSet updated step by step', () => {
  it('redacts exactly as a set compiled from scratch from the same secrets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(key, { maxLength: 60 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }),
        (steps, noise) => {
          const set = new SecretSet();
          for (const secrets of steps) {
            const incremental = set.update(secrets);
            const fresh = compileSecrets(secrets);
            expect(incremental === undefined).toBe(fresh === undefined);
            const value = [
              ...secrets.slice(0, 3),
              ...secrets.slice(0, 2).map((one) => Buffer.from(`1234:${one}`).toString('base64')),
              ...noise,
            ].join('|');
            expect(redactBoth(incremental, value)).toEqual(redactBoth(fresh, value));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('computes the forms of the keys that came only, whatever the number it holds', () => {
    const keys = Array.from(
      { length: 2000 },
      (_, index) => `tenant-key-${String(index).padStart(6, '0')}`,
    );
    const set = new SecretSet();
    set.update(keys);
    expect(set.computed).toBe(2000);
    const more = [...keys, 'tenant-key-new-one'];
    const compiled = set.update(more)!;
    expect(set.computed).toBe(2001);
    expect(redactForms('x tenant-key-new-one y', compiled.text, false)).toBe('x <redacted> y');
    // A key that goes computes nothing, and is no longer looked for.
    const after = set.update(keys.slice(1))!;
    expect(set.computed).toBe(2001);
    expect(redactForms('tenant-key-000000', after.text, false)).toBe('tenant-key-000000');
    expect(redactForms('tenant-key-000001', after.text, false)).toBe('<redacted>');
  });

  it('leaves secrets shorter than its minimum alone, and compiles nothing for none', () => {
    expect(new SecretSet().update(['short'])).toBeUndefined();
    expect(new SecretSet(1).update(['k'])).toBeDefined();
    const set = new SecretSet();
    set.update(['long-enough-key']);
    expect(set.update([])).toBeUndefined();
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
