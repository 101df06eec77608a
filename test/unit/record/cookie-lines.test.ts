import { describe, expect, it } from 'vitest';
import {
  cookiePairs,
  hiddenPair,
  isHiddenPair,
  mapSetCookiePairs,
  setCookiePairs,
} from '../../../src/record/cookie-lines.js';

describe('cookie lines', () => {
  it('splits a Cookie line by semicolons only: a comma may be in a name or a value', () => {
    expect(cookiePairs('a=1; x,y=2;b')).toEqual(['a=1', 'x,y=2', 'b']);
  });

  it.each([
    ['sid=abc; Path=/; HttpOnly', ['sid=abc']],
    ['a=1, b=2', ['a=1, b=2']],
    ['a=1; Path=/, b=2; Path=/', ['a=1', 'b=2']],
    ['a=1; Path=/, b=x,y; Secure', ['a=1', 'b=x,y']],
    ['c=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/', ['c=1']],
    ['c=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, d=2', ['c=1', 'd=2']],
    ['x,y=1; Path=/', ['x,y=1']],
    ['a=1; Path=/, NAMELESS', ['a=1', 'NAMELESS']],
    ['a=1; expires=Wednesday, 21-Oct-26 07:28:00 GMT, "QUOTED"; Path=/', ['a=1', '"QUOTED"']],
    ['a=1; Path=/,, b=2', ['a=1', 'b=2']],
    ['a=1; Path=/, ', ['a=1']],
    ['nameless', ['nameless']],
    ['', ['']],
    // The date's comma is known however the attribute is spaced, and only in a date.
    ['a=1;Expires=Wed, 21 Oct 2026 07:28:00 GMT', ['a=1']],
    ['a=1; Expires = Wed , 21 Oct 2026 07:28:00 GMT; Path=/', ['a=1']],
    ['a=1; Expires=Wed x, NAMELESS', ['a=1', 'NAMELESS']],
    ['a=1; Max-Age=5 expires=Wed, NAMELESS', ['a=1', 'NAMELESS']],
    // A date cut short: what follows its comma is no day's number, so a cookie.
    ['a=1; Expires=Wed, z=FOLDED', ['a=1', 'z=FOLDED']],
    ['a=1; Expires=Wed,', ['a=1']],
    ['a=1; Expires=Wed,21 Oct 2026 07:28:00 GMT', ['a=1']],
    ['a=1; xExpires=Wed, 21 Oct, NAMELESS', ['a=1', '21 Oct, NAMELESS']],
    ['a=1; Expires=Wed x, 21 Oct', ['a=1', '21 Oct']],
  ])('finds the cookies of the Set-Cookie line %j', (line, pairs) => {
    expect(setCookiePairs(line)).toEqual(pairs);
  });

  it.each([
    ['sid=abc; Path=/; HttpOnly', 'sid=<redacted>; Path=/; HttpOnly'],
    ['a=1; Path=/, b=x,y; Secure', 'a=<redacted>; Path=/, b=<redacted>; Secure'],
    [
      'c=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, d=2',
      'c=<redacted>; Expires=Wed, 21 Oct 2026 07:28:00 GMT, d=<redacted>',
    ],
    ['nameless; Max-Age=0', '<redacted>; Max-Age=0'],
    ['a=1; Path=/, NAMELESS; Secure', 'a=<redacted>; Path=/, <redacted>; Secure'],
    ['gone=; Max-Age=0', 'gone=<redacted>; Max-Age=0'],
    // The space around a pair is kept as it was.
    ['  sid=abc; Path=/', '  sid=<redacted>; Path=/'],
    ['a=1; Path=/,  b=2', 'a=<redacted>; Path=/,  b=<redacted>'],
    ['a=1; Path=/,b=2', 'a=<redacted>; Path=/,b=<redacted>'],
  ])('hides each cookie value of %j and keeps its attributes', (line, hidden) => {
    const written = mapSetCookiePairs(line, hiddenPair);
    expect(written).toBe(hidden);
    expect(setCookiePairs(written).every(isHiddenPair)).toBe(true);
  });

  it.each(['', '<redacted>', 'a=<redacted>', ' a = <redacted> ', 'x,y=<redacted>'])(
    'takes %j as hidden',
    (pair) => expect(isHiddenPair(pair)).toBe(true),
  );

  it.each([
    'KEY',
    'a=KEY',
    'a=<redacted>, b=KEY',
    'a=<redacted>KEY',
    '<redacted> KEY',
    'a=KEY=<redacted>',
  ])('takes %j as holding a value in clear', (pair) => expect(isHiddenPair(pair)).toBe(false));
});
