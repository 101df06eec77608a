import { describe, expect, it } from 'vitest';
import { compileGlob, globProblem, MAX_GLOB_ALTERNATIVES } from '../../src/match/glob.js';

// Tests that the mutation run (npm run mutation) asked for: the parts of glob.ts that short
// globs and paths never reach (runs longer than one 32-bit word, escapes at the end, sets with
// odd brackets, braces nested or escaped, the quick prefix test).

const matches = (glob: string, path: string) => compileGlob(glob)(path);

describe('runs longer than 32 tokens or segments (Shift-And over several words)', () => {
  // A piece with `?` in it is found by Shift-And; 40 tokens take two words.
  const a = 'a'.repeat(20);
  const b = 'b'.repeat(19);
  const glob = `/x*${a}?${b}*y`;

  it('finds a long piece across the word boundary', () => {
    expect(matches(glob, `/xzz${a}Q${b}zzy`)).toBe(true);
    expect(matches(glob, `/x${a}Q${b}y`)).toBe(true);
    expect(matches(glob, `/x${a}${a}Q${b}${b}y`)).toBe(true);
  });

  it('misses it when one token past the first word differs', () => {
    expect(matches(glob, `/xzz${a}Q${'b'.repeat(18)}czzy`)).toBe(false);
    expect(matches(glob, `/xzz${a}Q${'b'.repeat(18)}y`)).toBe(false);
    expect(matches(glob, `/xzz${'a'.repeat(19)}Q${b}zzy`)).toBe(false);
  });

  it('a piece of exactly 32 and 33 tokens', () => {
    const p32 = `/*${'c'.repeat(31)}?*`;
    expect(matches(p32, `/z${'c'.repeat(31)}Xz`)).toBe(true);
    expect(matches(p32, `/z${'c'.repeat(30)}Xz`)).toBe(false);
    const p33 = `/*?${'c'.repeat(32)}*`;
    expect(matches(p33, `/zX${'c'.repeat(32)}z`)).toBe(true);
    expect(matches(p33, `/zX${'c'.repeat(31)}dz`)).toBe(false);
  });

  it('finds a run of more than 32 segments between two **', () => {
    const run = Array.from({ length: 34 }, (_, i) => (i === 20 ? '?' : `s${i % 3}`));
    const many = `/**/${run.join('/')}/**`;
    const path = Array.from({ length: 34 }, (_, i) => (i === 20 ? 'Q' : `s${i % 3}`));
    expect(matches(many, `/p/q/${path.join('/')}/r`)).toBe(true);
    expect(matches(many, `/${path.join('/')}`)).toBe(true);
    const broken = [...path];
    broken[33] = 'zz';
    expect(matches(many, `/p/${broken.join('/')}/r`)).toBe(false);
    const short = path.slice(1);
    expect(matches(many, `/p/${short.join('/')}/r`)).toBe(false);
  });

  it('places a middle group leftmost, leaving room for the next', () => {
    expect(matches('/**/a/b/**/b/c/**', '/a/b/b/c')).toBe(true);
    expect(matches('/**/a/b/**/b/c/**', '/a/b/c')).toBe(false);
    expect(matches('/x/**/a/**/y', '/x/a/y')).toBe(true);
    expect(matches('/x/**/a/**/y', '/x/y')).toBe(false);
    expect(matches('/x/**/a/**/a/y', '/x/a/y')).toBe(false);
    expect(matches('/x/**/a/**/a/y', '/x/a/a/y')).toBe(true);
  });

  it('keeps answering right once a piece has seen more characters than it caches', () => {
    const glob = '/*?z*';
    const chars = Array.from({ length: 700 }, (_, i) => String.fromCharCode(0x100 + i)).join('');
    expect(matches(glob, `/${chars}Qz`)).toBe(true);
    expect(matches(glob, `/${chars}`)).toBe(false);
    expect(matches(glob, `/${chars}Qz${chars}`)).toBe(true);
  });
});

describe('escapes, sets and braces', () => {
  it.each([
    // A backslash at the very end stands for itself.
    ['/a\\', '/a\\', true],
    ['/a\\', '/a', false],
    ['/\\?', '/?', true],
    ['/\\?', '/x', false],
    ['/\\[a]', '/[a]', true],
    ['/\\[a]', '/a', false],
    ['/a\\/b', '/a/b', false],
    // A set needs a character before its `]`; without a `]`, `[` is literal.
    ['/[]a]', '/]', true],
    ['/[]a]', '/a', true],
    ['/[]a]', '/b', false],
    ['/[a', '/[a', true],
    ['/[a', '/a', false],
    ['/[a-]', '/-', true],
    ['/[a-]', '/a', true],
    ['/[a-]', '/b', false],
    ['/[-a]', '/-', true],
    ['/[b-d]', '/a', false],
    ['/[b-d]', '/b', true],
    ['/[b-d]', '/d', true],
    ['/[b-d]', '/e', false],
    ['/[b-dx]', '/x', true],
    ['/[b-dx]', '/-', false],
    ['/[!b-d]', '/c', false],
    ['/[!b-d]', '/e', true],
    ['/[^b]x', '/bx', false],
    ['/[!a]', '/!', true],
    ['/[^a]', '/^', true],
    ['/[abx]', '/c', false],
    ['/[abx]', '/x', true],
    ['/[^b]x', '/ax', true],
    // Braces: nested, escaped, without a comma, unbalanced.
    ['/{a,{b,c}}', '/c', true],
    ['/{a,{b,c}}', '/b', true],
    ['/{a,{b,c}}', '/{b,c}', false],
    ['/{a,b}{c,d}', '/bd', true],
    ['/{a,b}{c,d}', '/ab', false],
    ['/\\{a,b}', '/{a,b}', true],
    ['/\\{a,b}', '/a', false],
    ['/{a\\,b,c}', '/a,b', true],
    ['/{a\\,b,c}', '/c', true],
    ['/{a}', '/{a}', true],
    ['/{a}', '/a', false],
    ['/a,b', '/a,b', true],
    ['/}{a,b}', '/}a', true],
    ['/{a,b', '/{a,b', true],
    ['/{,a}x', '/x', true],
    ['/{,a}x', '/ax', true],
    ['/{a,}x', '/x', true],
    ['/x{a,b}/{c,d}', '/xb/d', true],
    ['/x{a,b}/{c,d}', '/xb/e', false],
  ])('%s against %s: %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });

  it('stops expanding braces past the limit, however many a glob could make', () => {
    // 2^42 alternatives: expanding them all would never end.
    const glob = '/{a,b}'.repeat(42);
    expect(globProblem(glob)).toBe(
      `expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives with {...}.`,
    );
  });

  it('takes the last of the most alternatives allowed', () => {
    const glob = '/{a,b}{c,d}{e,f}{g,h}{i,j}';
    expect(globProblem(glob)).toBeUndefined();
    expect(matches(glob, '/bdfhj')).toBe(true);
    expect(matches(glob, '/acegi')).toBe(true);
    expect(matches(glob, '/bdfhk')).toBe(false);
    const many = `/{${Array.from({ length: MAX_GLOB_ALTERNATIVES }, (_, i) => `n${i}`).join(',')}}`;
    expect(globProblem(many)).toBeUndefined();
    expect(matches(many, `/n${MAX_GLOB_ALTERNATIVES - 1}`)).toBe(true);
    expect(globProblem(`/{${Array.from({ length: 33 }, (_, i) => `n${i}`).join(',')}}`)).toBe(
      `expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives with {...}.`,
    );
  });
});

describe('the quick prefix test', () => {
  it.each([
    ['/lists/*/contacts', '/lists/3/contacts', true],
    ['/lists/*/contacts', '/list/3/contacts', false],
    ['/lists/a*', '/lists/ab', true],
    ['/lists/a*', '/lists/b', false],
    ['/lists/1?', '/lists/12', true],
    ['/lists/[12]', '/lists/2', true],
    ['/lists/\\*', '/lists/*', true],
    ['/lists/\\*', '/lists/x', false],
    ['/lists/{1,2}', '/lists/2', true],
    ['/lists/{1,2}', '/lists/3', false],
    ['/x*', '/xy', true],
    ['*', '/', false],
    ['/plain/path', '/plain/path', true],
    ['/plain/path', '/plain/pat', false],
  ])('%s against %s: %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });
});

describe('segments', () => {
  it.each([
    ['/a*b', '/ab', true],
    ['/a*b', '/a', false],
    ['/a*b', '/b', false],
    ['/ab*ab', '/ab', false],
    ['/ab*ab', '/abab', true],
    // A middle piece may not overlap the last one.
    ['/a*b*b', '/ab', false],
    ['/a*b*b', '/abb', true],
    ['/x*a?*a?', '/xaQ', false],
    ['/x*a?*a?', '/xaQaR', true],
    ['/a*b*a', '/aba', true],
    ['/a*b*a', '/aa', false],
    ['/*a*', '/a', true],
    ['/*a*', '/b', false],
    ['/*?*', '/x', true],
    ['/a**b', '/ab', true],
    ['/*/*', '/a/b', true],
    ['/*/*', '/a/', false],
    ['/*/*', '//b', false],
    ['/**/x', '/a/b/x', true],
    ['/**/x/**', '/x', true],
    ['/**/x/**', '/a', false],
    ['/a/**/b/c', '/a/b', false],
    ['/a/b/**/c', '/a/c', false],
    ['/?/*[0-9]', '/a/b7', true],
    ['/?/*[0-9]', '/a/b', false],
    ['/*[0-9]?', '/7', false],
  ])('%s against %s: %s', (glob, path, expected) => {
    expect(matches(glob, path)).toBe(expected);
  });
});
