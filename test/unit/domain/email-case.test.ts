import { describe, expect, it } from 'vitest';
import { foldCase } from '../../../src/domain/rules.js';

// How the fake folds the case of email addresses, as docs/emulated-api.md says: JavaScript's
// toLowerCase, Unicode default case mapping without a locale.

describe('email case folding', () => {
  it.each([
    ['ASCII', 'Ann@Example.com', 'ann@example.com', true],
    ['the Kelvin sign folds to k', '\u212Aate@example.com', 'kate@example.com', true],
    [
      'dotted capital I folds to i and a combining dot',
      '\u0130lker@example.com',
      'i\u0307lker@example.com',
      true,
    ],
    ['dotted capital I is not plain i', '\u0130lker@example.com', 'ilker@example.com', false],
    ['sharp s is not ss', 'stra\u00dfe@example.com', 'strasse@example.com', false],
  ])('%s', (_what, one, other, same) => {
    expect(foldCase(one) === foldCase(other)).toBe(same);
  });
});
