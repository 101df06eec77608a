import { describe, expect, it } from 'vitest';
import { MAX_GLOB_LENGTH } from '../../../src/match/glob.js';
import {
  apiPath,
  basicUsername,
  compileMatch,
  parseRequestMatch,
} from '../../../src/match/request-match.js';

// Request-match.ts's edges.

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('basicUsername', () => {
  it('decodes the username of a Basic header in any case, without the key', () => {
    expect(basicUsername(`Basic ${b64('1234:key')}`)).toBe('1234');
    expect(basicUsername(`basic ${b64('1234:key')}`)).toBe('1234');
    expect(basicUsername(`BASIC ${b64('99:a:b')}`)).toBe('99');
    expect(basicUsername(`Basic   ${b64('7:k')}  `)).toBe('7');
  });

  it('is undefined for no header, other schemes, and a pair without a username', () => {
    expect(basicUsername(undefined)).toBeUndefined();
    expect(basicUsername(`Bearer ${b64('1234:key')}`)).toBeUndefined();
    expect(basicUsername(`Basic${b64('1234:key')}`)).toBeUndefined();
    expect(basicUsername(`Basicx${b64('1234:key')}`)).toBeUndefined();
    expect(basicUsername(`Basic ${b64(':key')}`)).toBeUndefined();
    expect(basicUsername(`Basic ${b64('nocolon')}`)).toBeUndefined();
    expect(basicUsername('Basic ')).toBeUndefined();
  });
});

describe('apiPath', () => {
  it.each([
    ['/marketing/v1', '/'],
    ['/marketing/v1/', '/'],
    ['/marketing/v1/lists', '/lists'],
    ['/marketing/beta', '/'],
    ['/marketing/beta/content/3', '/content/3'],
    ['/marketing/v1x/lists', '/marketing/v1x/lists'],
    ['/marketing/v10', '/marketing/v10'],
    ['/other/path', '/other/path'],
    ['', '/'],
  ])('%s is %s to a rule', (path, expected) => {
    expect(apiPath(path)).toBe(expected);
  });
});

describe('compileMatch', () => {
  const facts = (method: string, path: string, serverId?: number) => ({ method, path, serverId });

  it('matches everything without a match, and with an empty one', () => {
    expect(compileMatch(undefined)(facts('DELETE', '/anything'))).toBe(true);
    expect(compileMatch({})(facts('GET', '/marketing/v1/lists', 5))).toBe(true);
  });

  it('compares the method in any case', () => {
    const match = compileMatch({ method: 'put' });
    expect(match(facts('PUT', '/marketing/v1/lists'))).toBe(true);
    expect(match(facts('GET', '/marketing/v1/lists'))).toBe(false);
  });

  it('compares the server id', () => {
    const match = compileMatch({ serverId: 12 });
    expect(match(facts('GET', '/marketing/v1/lists', 12))).toBe(true);
    expect(match(facts('GET', '/marketing/v1/lists', 13))).toBe(false);
    expect(match(facts('GET', '/marketing/v1/lists'))).toBe(false);
  });

  it('reads a glob after the version, or the whole path when the glob starts with /marketing/', () => {
    const afterVersion = compileMatch({ path: '/lists' });
    expect(afterVersion(facts('GET', '/marketing/v1/lists'))).toBe(true);
    expect(afterVersion(facts('GET', '/marketing/beta/lists'))).toBe(true);
    expect(afterVersion(facts('GET', '/marketing/v1/lists/1'))).toBe(false);
    const whole = compileMatch({ path: '/marketing/v1/lists' });
    expect(whole(facts('GET', '/marketing/v1/lists'))).toBe(true);
    expect(whole(facts('GET', '/marketing/beta/lists'))).toBe(false);
  });

  it('treats /lists/ as /lists, but / stays /', () => {
    const match = compileMatch({ path: '/lists' });
    expect(match(facts('GET', '/marketing/v1/lists/'))).toBe(true);
    expect(match(facts('GET', '/marketing/v1/lists//'))).toBe(false);
    const root = compileMatch({ path: '/' });
    expect(root(facts('GET', '/marketing/v1'))).toBe(true);
    expect(root(facts('GET', '/marketing/v1/lists'))).toBe(false);
  });

  it('needs every part to match', () => {
    const match = compileMatch({ method: 'GET', path: '/lists/*', serverId: 1 });
    expect(match(facts('GET', '/marketing/v1/lists/3', 1))).toBe(true);
    expect(match(facts('POST', '/marketing/v1/lists/3', 1))).toBe(false);
    expect(match(facts('GET', '/marketing/v1/lists/3', 2))).toBe(false);
    expect(match(facts('GET', '/marketing/v1/content/3', 1))).toBe(false);
  });
});

describe('parseRequestMatch', () => {
  const fail = (message: string): never => {
    throw new Error(message);
  };
  const parse = (input: Record<string, unknown>) => parseRequestMatch(input, 'match.', fail);

  it('keeps the parts given, the method upper-cased', () => {
    expect(parse({})).toEqual({});
    expect(parse({ method: 'get', path: '/lists/*', serverId: 12 })).toEqual({
      method: 'GET',
      path: '/lists/*',
      serverId: 12,
    });
  });

  it.each([
    [{ method: 'GET1' }, 'match.method must be an HTTP method such as "GET".'],
    [{ method: '' }, 'match.method must be an HTTP method such as "GET".'],
    [{ method: 'x GET' }, 'match.method must be an HTTP method such as "GET".'],
    [{ method: 'GET ' }, 'match.method must be an HTTP method such as "GET".'],
    [{ method: 5 }, 'match.method must be an HTTP method such as "GET".'],
    // An array whose text passes the pattern: refused for its type, not a TypeError later.
    [{ method: ['GET'] }, 'match.method must be an HTTP method such as "GET".'],
    [
      { path: 'lists' },
      'match.path must be a glob that starts with "/", such as "/lists/*/contacts".',
    ],
    [{ path: 5 }, 'match.path must be a glob that starts with "/", such as "/lists/*/contacts".'],
    [
      { path: `/${'a'.repeat(MAX_GLOB_LENGTH)}` },
      `match.path is ${MAX_GLOB_LENGTH + 1} characters long; a glob may have at most ${MAX_GLOB_LENGTH}.`,
    ],
    [{ serverId: 1.5 }, 'match.serverId must be a whole number from 0 to 999999999.'],
    [{ serverId: '12' }, 'match.serverId must be a whole number from 0 to 999999999.'],
    // A number no 1-to-9-digit Basic username can name could never match.
    [{ serverId: -5 }, 'match.serverId must be a whole number from 0 to 999999999.'],
    [{ serverId: 1e300 }, 'match.serverId must be a whole number from 0 to 999999999.'],
    [{ serverId: 1_000_000_000 }, 'match.serverId must be a whole number from 0 to 999999999.'],
  ])('refuses %j: %s', (input, message) => {
    expect(() => parse(input)).toThrow(new Error(message));
  });

  it('takes server ids from 0 to 999999999, the range of a 1-to-9-digit Basic username', () => {
    expect(parse({ serverId: 0 })).toEqual({ serverId: 0 });
    expect(parse({ serverId: 999_999_999 })).toEqual({ serverId: 999_999_999 });
  });

  it('says where, as the caller names it', () => {
    expect(() => parseRequestMatch({ serverId: 'x' }, 'filter ', fail)).toThrow(
      new Error('filter serverId must be a whole number from 0 to 999999999.'),
    );
  });
});
