import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from '../../src/json-depth.js';

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects, and only past the limit', () => {
    expect(jsonDepthExceeds('[[1]]', 2)).toBe(false);
    expect(jsonDepthExceeds('[[1]]', 1)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":1}}', 2)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":1}}', 1)).toBe(true);
    expect(jsonDepthExceeds('{"a":[1]}', 1)).toBe(true);
    expect(jsonDepthExceeds('', 0)).toBe(false);
    expect(jsonDepthExceeds('1', 0)).toBe(false);
    expect(jsonDepthExceeds('[', 0)).toBe(true);
    expect(jsonDepthExceeds('{', 0)).toBe(true);
  });

  it('closes what it opened: siblings do not add up', () => {
    expect(jsonDepthExceeds('[][][]', 1)).toBe(false);
    expect(jsonDepthExceeds('{}{}{}', 1)).toBe(false);
    expect(jsonDepthExceeds('[{}]', 2)).toBe(false);
    expect(jsonDepthExceeds('{"a":[],"b":[],"c":[]}', 2)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds('["[[[[{{{{"]', 1)).toBe(false);
    expect(jsonDepthExceeds('["\\"[[[["]', 1)).toBe(false);
    expect(jsonDepthExceeds('["\\\\"]', 1)).toBe(false);
    // After the string ends, brackets count again.
    expect(jsonDepthExceeds('["x",[["y"]]]', 2)).toBe(true);
    // A backslash outside a string skips nothing.
    expect(jsonDepthExceeds('\\[[', 1)).toBe(true);
    // A backslash right before the closing quote keeps the string open; the one after it escapes it.
    expect(jsonDepthExceeds('["\\\\\\"[[[["]', 1)).toBe(false);
  });
});
