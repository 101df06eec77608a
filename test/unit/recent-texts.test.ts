import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentTexts } from '../../src/control/recent-texts.js';

// Which string object comes back cannot be seen from JavaScript (strings compare by value): what
// RecentTexts saves shows in the garbage collector's figures (bench/recording.mjs). What can be
// seen, and must hold, is that the string given back is always equal to the one given.

/** An equal string that is another object: built from pieces, as Node builds a header block. */
const anew = (text: string) => [...text].join('');

describe('RecentTexts', () => {
  it('gives back a string equal to the one given, kept or new', () => {
    const recent = new RecentTexts(2);
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
          const recent = new RecentTexts(size);
          for (const text of texts) expect(recent.intern(anew(text))).toBe(text);
        },
      ),
    );
  });
});
