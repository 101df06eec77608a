import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Recent, recentTexts } from '../../../src/journal/recent.js';

// Which string object comes back cannot be seen from JavaScript (strings compare by value): what
// recentTexts saves shows in the garbage collector's figures (bench/recording.mjs). What can be
// seen, and must hold, is that the string given back is always equal to the one given. Objects
// show which one comes back.

/** An equal string that is another object: built from pieces, as Node builds a header block. */
const anew = (text: string) => [...text].join('');

describe('recentTexts', () => {
  it('gives back a string equal to the one given, kept or new', () => {
    const recent = recentTexts(2);
    const answers = ['200 OK', '200 OK', '404 Not Found', '200 OK', '500', '404 Not Found'].map(
      (text) => recent.intern(anew(text)),
    );
    expect(answers).toEqual([
      '200 OK',
      '200 OK',
      '404 Not Found',
      '200 OK',
      '500',
      '404 Not Found',
    ]);
  });

  it('whatever the texts and however many it keeps', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.constantFrom('', 'a', 'b', 'ab', 'ba', 'a\u00e9', 'HTTP/1.1 200 OK\r\n')),
        (size, texts) => {
          const recent = recentTexts(size);
          for (const text of texts) expect(recent.intern(anew(text))).toBe(text);
        },
      ),
    );
  });
});

describe('Recent', () => {
  const sameName = (kept: { name: string }, value: { name: string }) => kept.name === value.name;

  it('gives back the value kept for an equal one, and keeps what keepAs makes of a new one', () => {
    const recent = new Recent(2, sameName, (value) => ({ ...value, kept: true }));
    const first = { name: 'a' };
    expect(recent.intern(first)).toBe(first);
    const kept = recent.intern({ name: 'a' });
    expect(kept).toEqual({ name: 'a', kept: true });
    expect(recent.intern({ name: 'a' })).toBe(kept);
  });

  it('keeps the last `size` distinct values, forgetting the oldest', () => {
    const recent = new Recent(2, sameName);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => recent.intern({ name }));
    expect(recent.intern({ name: 'b' })).toBe(b);
    expect(recent.intern({ name: 'c' })).toBe(c);
    const a2 = { name: 'a' };
    expect(recent.intern(a2)).toBe(a2);
    expect(a2).not.toBe(a);
    // `a2` took the place of the oldest, `b`; `c` stays.
    expect(recent.intern({ name: 'c' })).toBe(c);
    const b2 = { name: 'b' };
    expect(recent.intern(b2)).toBe(b2);
  });
});
