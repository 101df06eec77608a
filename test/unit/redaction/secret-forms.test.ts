import { describe, expect, it } from 'vitest';
import { redactForms } from '../../../src/redaction/secret-encodings.js';
import { Anchors, REDACTED, replaceAll } from '../../../src/redaction/secret-forms.js';
import { compileSecrets } from '../../../src/redaction/secret-set.js';

// The forms of a secret that compileSecrets builds, the
// prefilter of mixed spellings (Patterns.mixed, Patterns.plus) and where the index takes over.

const R = REDACTED;

describe('the forms of a secret', () => {
  it('base64url of the key alone, its + and / as - and _', () => {
    const key = 'zz??>>~~';
    expect(Buffer.from(key).toString('base64')).toBe('eno/Pz4+fn4=');
    const { text, wire } = compileSecrets([key])!;
    for (const patterns of [text, wire]) {
      expect(replaceAll(`t=${Buffer.from(key).toString('base64url')}&x`, patterns)).toBe(
        `t=${R}&x`,
      );
      expect(replaceAll(`t=${Buffer.from(key).toString('base64')}&x`, patterns)).toBe(`t=${R}&x`);
    }
  });

  it('spaces as a form writes them (+), the rest as is', () => {
    const { text, wire } = compileSecrets(['my secret/key1'])!;
    expect(redactForms('k=my+secret/key1', text, false)).toBe(`k=${R}`);
    expect(redactForms('k=my+secret/key1', wire, true)).toBe(`k=${R}`);
  });

  it("JSON's \\/ for a slash, the string's other escapes left as written", () => {
    const { text } = compileSecrets(['ab/cdefg'])!;
    expect(redactForms('{"u":"http:\\/\\/x","k":"ab\\/cdefg"}', text, false)).toBe(
      `{"u":"http:\\/\\/x","k":"${R}"}`,
    );
  });

  it('a base64 run that ends the string, in a string read loosely', () => {
    // The key's base64 with its / escaped and its + as is: only the loose reading finds it.
    const { text } = compileSecrets(['zz??>>~~'])!;
    expect(redactForms('k=eno%2FPz4+fn4=', text, false)).toBe(`k=${R}`);
    expect(redactForms('k=eno%2FPz4+fn4', text, false)).toBe(`k=${R}`);
  });
});

describe('the prefilter of mixed spellings', () => {
  const answers = (key: string) => {
    const { mixed } = compileSecrets([key])!.text;
    return ['zz', 'ab_cDe-77Q', 'ab_cDe-77', 'abcdef', 'ghijkl', 'Tk9'].map((value) =>
      mixed.test(value),
    );
  };

  it("holds the longest run of a key's URL-safe characters, wherever it is in the key", () => {
    expect(answers('Tk/9+ab_cDe-77Q')).toEqual([false, true, false, false, false, false]);
    expect(answers('ab_cDe-77Q/Tk9')).toEqual([false, true, false, false, false, false]);
    // Two runs of the same length: the first.
    expect(answers('abcdef/ghijkl')).toEqual([false, false, false, true, false, false]);
    // A run of exactly the minimum is enough.
    expect(answers('abcdef/gh')).toEqual([false, false, false, true, false, false]);
  });

  it('lets every string by when a key has no run as long as the minimum', () => {
    expect(answers('ab/cd/ef/gh')).toEqual([true, true, true, true, true, true]);
    // One such key among others is enough.
    const { mixed } = compileSecrets(['Tk/9+ab_cDe-77Q', 'ab/cd/ef/gh'])!.text;
    expect(mixed.test('zz')).toBe(true);
  });

  it('says whether some key holds a +', () => {
    expect(compileSecrets(['Tk/9+ab_cDe-77Q'])!.text.plus).toBe(true);
    expect(compileSecrets(['Secr3t-Key'])!.text.plus).toBe(false);
    expect(compileSecrets(['Secr3t-Key', 'Tk/9+ab_cDe-77Q'])!.text.plus).toBe(true);
  });
});

describe('where the index takes over', () => {
  // Each of these keys has four forms: itself and three base64 cores.
  const keys = (count: number) => Array.from({ length: count }, (_, i) => `secret-number-${i}-x`);

  it('at 48 forms one regular expression, past it the index, which also finds where they are', () => {
    const at = compileSecrets(keys(12))!.text;
    expect(at.each).toBeInstanceOf(RegExp);
    expect((at.each as RegExp).source.split('|')).toHaveLength(48);
    expect(at.any).toBeInstanceOf(RegExp);
    const past = compileSecrets(keys(13))!.text;
    expect(past.any).toBeInstanceOf(Anchors);
    expect(past.each).toBe(past.any);
    // All 52 forms are in it: each key's own spelling and its base64 cores are found.
    const key = 'secret-number-12-x';
    expect(replaceAll(`a ${key} b`, past)).toBe('a <redacted> b');
    expect(replaceAll(Buffer.from(`1:${key}`).toString('base64'), past)).toBe('<redacted>');
  });

  it('a form of exactly the minimum length still goes in the index', () => {
    const { any } = compileSecrets([...keys(20), 'Six6ix'])!.text;
    expect(any).not.toBeInstanceOf(RegExp);
  });
});
