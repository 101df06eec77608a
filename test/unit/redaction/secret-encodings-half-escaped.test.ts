import { describe, expect, it } from 'vitest';
import { redactForms } from '../../../src/redaction/secret-encodings.js';
import { REDACTED } from '../../../src/redaction/secret-forms.js';
import { compileSecrets } from '../../../src/redaction/secret-set.js';

// A secret spelt with only some of its
// characters percent-escaped (secret-encodings.ts, redactMixed), taken out of strings whose other
// escapes (multi-byte characters, bytes that start no character) must stay exactly as written.

const KEY = 'Tk/9+ab_cDe-77Q';
const { text, wire } = compileSecrets([KEY])!;
const R = REDACTED;

describe('a secret spelt half escaped, in text', () => {
  it.each([
    ['k=Tk/9%2Bab_cDe-77Q', `k=${R}`],
    ['k=Tk%2F9+ab_cDe-77Q&x=1', `k=${R}&x=1`],
    ['Tk%2F9+ab_cDe-77Q', R],
    ['a=%E2%82%AC&k=Tk%2F9+ab_cDe-77Q&b=%C3%A9', `a=%E2%82%AC&k=${R}&b=%C3%A9`],
    ['a=%F0%9F%98%80%C3%A9Tk%2F9+ab_cDe-77Q%E2%82%AC', `a=%F0%9F%98%80%C3%A9${R}%E2%82%AC`],
    // Escapes that start no character: each kept as written, three units from three.
    ['%FF%C3Tk%2F9+ab_cDe-77Q%E2%82', `%FF%C3${R}%E2%82`],
    ['%C3%28Tk%2F9+ab_cDe-77Q%F0%9F%98', `%C3(${R}%F0%9F%98`],
    // Twice, with a run of escapes between.
    ['Tk%2F9+ab_cDe-77Q%2F%2FTk/9%2Bab_cDe-77Q', `${R}%2F%2F${R}`],
  ])('%s', (value, redacted) => {
    expect(redactForms(value, text, false)).toBe(redacted);
  });

  it('a secret holding + read back with a space, as a form decoder leaves it', () => {
    expect(redactForms('k=Tk/9 ab_cDe-77Q&x=1', text, false)).toBe(`k=${R}&x=1`);
    expect(redactForms('k=Tk%2F9 ab_cDe-77Q', text, false)).toBe(`k=${R}`);
    // On the wire a space is a space: no form decoder has been there.
    expect(redactForms('k=Tk/9 ab_cDe-77Q', wire, true)).toBe('k=Tk/9 ab_cDe-77Q');
  });

  it('finds a secret that starts inside a run of escapes, after one that starts no character', () => {
    const key = '/Tk9+ab_cDe-77Q';
    const compiled = compileSecrets([key])!;
    for (const [value, redacted] of [
      ['x=%C3%A9%2FTk9+ab_cDe-77Q', `x=%C3%A9${R}`],
      ['x=%C3%2FTk9+ab_cDe-77Q', `x=%C3${R}`],
      ['x=%FF%2FTk9+ab_cDe-77Q', `x=%FF${R}`],
      ['x=%E2%82%2FTk9+ab_cDe-77Q', `x=%E2%82${R}`],
    ] as const) {
      expect(redactForms(value, compiled.text, false)).toBe(redacted);
      expect(redactForms(value, compiled.wire, true)).toBe(redacted);
    }
  });

  it('ends the secret inside a run of escapes, before the next character', () => {
    const key = 'Tk9+ab_cDe-77Q/';
    const compiled = compileSecrets([key])!;
    for (const value of ['x=Tk9+ab_cDe-77Q%2F%C3%A9', 'x=Tk9%2Bab_cDe-77Q%2F%C3%A9']) {
      expect(redactForms(value, compiled.text, false)).toBe(`x=${R}%C3%A9`);
      expect(redactForms(value, compiled.wire, true)).toBe(`x=${R}%C3%A9`);
    }
  });

  it('reads an escape that starts no character as its three characters, in text', () => {
    const key = 'FFTk9+ab/cDe-77Q';
    const compiled = compileSecrets([key])!;
    expect(redactForms('x=%FFTk9+ab%2FcDe-77Q', compiled.text, false)).toBe(`x=%${R}`);
  });

  it('reads a character escaped whole, right before the secret, as that character only', () => {
    const key = '/Tk9+ab_cDe-77Q';
    const compiled = compileSecrets([key])!;
    for (const char of ['%E0%A0%80', '%F0%90%80%80', '%DF%BF', '%EF%BF%BD']) {
      expect(redactForms(`x=${char}%2FTk9+ab_cDe-77Q`, compiled.text, false)).toBe(`x=${char}${R}`);
    }
  });

  it('reads every escape of a multi-byte character, lead bytes at the edges of their ranges', () => {
    // U+0800 (E0 A0 80), U+10000 (F0 90 80 80), U+0080 (C2 80): each read whole.
    for (const [char, spelt] of [
      ['\u0800', '%E0%A0%80'],
      ['\u{10000}', '%F0%90%80%80'],
      ['\u0080', '%C2%80'],
    ] as const) {
      const compiled = compileSecrets([`a${char}Tk9+ab/cDe`])!;
      expect(redactForms(`x=a${spelt}Tk9+ab%2FcDe&y`, compiled.text, false)).toBe(`x=${R}&y`);
    }
  });

  it('reads %80, which starts no character, as its three characters, in text', () => {
    const compiled = compileSecrets(['80Tk9+ab/cDe-77Q'])!;
    expect(redactForms('x=%80Tk9+ab%2FcDe-77Q', compiled.text, false)).toBe(`x=%${R}`);
  });

  it('reads a character of a run as its own escapes only, not the escapes after it', () => {
    const compiled = compileSecrets(['Tk9+ab/cDe-77Q\u00e9/'])!;
    expect(redactForms('x=Tk9+ab%2FcDe-77Q%C3%A9%2F&y', compiled.text, false)).toBe(`x=${R}&y`);
    const kept = compileSecrets(['FF/Tk9+ab/cDe-77Q'])!;
    expect(redactForms('x=%FF%2FTk9+ab%2FcDe-77Q', kept.text, false)).toBe(`x=%${R}`);
  });

  it('ends a secret inside an escape read as its three characters', () => {
    const compiled = compileSecrets(['Tk9+ab/cDe-77Q%FF'])!;
    expect(redactForms('x=Tk9+ab%2FcDe-77Q%FF&y', compiled.text, false)).toBe(`x=${R}&y`);
    expect(redactForms('x=Tk9+ab%2FcDe-77Q%FF', compiled.text, false)).toBe(`x=${R}`);
  });

  it('on the wire, never reads a space as +, even in a string with escapes', () => {
    expect(redactForms('k=Tk/9 ab_cDe-77Q&x=%41', wire, true)).toBe('k=Tk/9 ab_cDe-77Q&x=%41');
  });

  it('finds a secret holding + spelt with a space in a string with nothing else to read', () => {
    expect(redactForms('k=Tk/9 ab_cDe-77Q', text, false)).toBe(`k=${R}`);
  });

  it('leaves a string whose loose reading holds no secret as it was, escapes as written', () => {
    for (const value of [
      'k=Tk%2F9+ab_cDe-77',
      'k=Tk%2f9+ab_cDe-77&%41',
      'ab_cDe-77Q%2f%41',
      'x ab_cDe-77Q y',
      'ab_cDe-77Q',
    ]) {
      expect(redactForms(value, text, false)).toBe(value);
    }
  });
});

describe('a secret spelt half escaped, on the wire', () => {
  it.each([
    ['k=Tk/9%2Bab_cDe-77Q', `k=${R}`],
    ['a=%E2%82%AC&k=Tk%2F9+ab_cDe-77Q&b=%FF', `a=%E2%82%AC&k=${R}&b=%FF`],
    ['%C3%A9Tk%2F9+ab_cDe-77Q', `%C3%A9${R}`],
  ])('%s', (value, redacted) => {
    expect(redactForms(value, wire, true)).toBe(redacted);
  });

  it('a key that is not ASCII, its UTF-8 bytes escaped one by one', () => {
    const key = 'clé/secrète+1';
    const compiled = compileSecrets([key])!;
    // %C3%A9 is é's two bytes: on the wire (latin1) and in text, one character either way.
    expect(redactForms('k=cl%C3%A9/secr%C3%A8te%2B1&x', compiled.wire, true)).toBe(`k=${R}&x`);
    expect(redactForms('k=cl%C3%A9/secr%C3%A8te%2B1&x', compiled.text, false)).toBe(`k=${R}&x`);
  });
});
