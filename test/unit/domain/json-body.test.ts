import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/domain/errors.js';
import { firstRepeatedName, parseJsonBody } from '../../../src/domain/json-body.js';

describe('firstRepeatedName', () => {
  it.each([
    ['{"a":1,"a":2}', 'a'],
    ['{"a":{"b":1},"c":[{"b":2}],"a":3}', 'a'],
    ['[{"x":1},{"x":2,"y":{"x":3,"x":4}}]', 'x'],
    ['{"\\"":1,"\\u0022":2}', '"'],
    ['{"k\\\\":1,"k\\u005c":2}', 'k\\'],
    ['{"a":"{\\"a\\":1,\\"a\\":2}","b":"}","b":1}', 'b'],
    ['{"__proto__":1,"__proto__":2}', '__proto__'],
  ])('finds the repeat in %s', (text, name) => {
    expect(firstRepeatedName(text)).toBe(name);
  });

  it.each([
    ['{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}'],
    ['{"a":"a","b":"a"}'],
    ['{"A":1,"a":2}'],
    ['[1,"{\\"a\\":1,\\"a\\":2}"]'],
    ['"no object"'],
  ])('finds none in %s', (text) => {
    expect(firstRepeatedName(text)).toBeUndefined();
  });

  it('finds none in any JSON.stringify output, and the repeat once a member is doubled', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), fc.jsonValue(), (value, name, extra) => {
        expect(firstRepeatedName(JSON.stringify(value))).toBeUndefined();
        const doubled = `{${JSON.stringify(name)}:${JSON.stringify(extra)},"inner":${JSON.stringify(value)},${JSON.stringify(name)}:1}`;
        expect(firstRepeatedName(doubled)).toBe(name);
      }),
    );
  });

  it('stays linear in the names of one object (a quadratic check would not finish)', () => {
    const names = Array.from({ length: 200_000 }, (_, index) => `"k${index}":${index}`);
    expect(firstRepeatedName(`{${names.join(',')}}`)).toBeUndefined();
    expect(firstRepeatedName(`{${names.join(',')},"k199999":0}`)).toBe('k199999');
  });

  it('walks deep nesting without recursion', () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    expect(firstRepeatedName(deep)).toBeUndefined();
  });
});

describe('parseJsonBody', () => {
  it('keeps __proto__ and constructor as own data and pollutes nothing', () => {
    const value = parseJsonBody(
      Buffer.from('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
    ) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    [Buffer.from([0x22, 0xff, 0x22]), 'MALFORMED_JSON'],
    [Buffer.from(''), 'INVALID_BODY'],
    [Buffer.from(' '), 'MALFORMED_JSON'],
    [Buffer.from('{"a":1,"a":1}'), 'MALFORMED_JSON'],
  ])('refuses %s with %s', (bytes, code) => {
    expect(() => parseJsonBody(bytes)).toThrow(ApiError);
    try {
      parseJsonBody(bytes);
    } catch (error) {
      expect((error as ApiError).code).toBe(code);
      expect((error as ApiError).status).toBe(400);
    }
  });

  it('skips a byte order mark', () => {
    expect(parseJsonBody(Buffer.from('\ufeff{"a":1}'))).toEqual({ a: 1 });
  });
});
