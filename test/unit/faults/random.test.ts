import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/faults/random.js';

// Fault probabilities promise the same draws for
// the same seed in every version, so the sequence of mulberry32 is pinned, not only its shape.

describe('seededRandom (mulberry32)', () => {
  it.each([
    [0, [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]],
    [42, [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]],
    [-1, [0.8964226141106337, 0.189478256739676, 0.7156526781618595]],
  ])('seed %d gives the published mulberry32 sequence', (seed, expected) => {
    const next = seededRandom(seed);
    expect([next(), next(), next()]).toEqual(expected);
  });

  it('reads the seed as an unsigned 32-bit number', () => {
    const wrapped = seededRandom(2 ** 32 + 42);
    const plain = seededRandom(42);
    expect([wrapped(), wrapped()]).toEqual([plain(), plain()]);
  });

  it('draws in [0, 1)', () => {
    const next = seededRandom(7);
    const draws = Array.from({ length: 10_000 }, next);
    expect(draws.every((draw) => draw >= 0 && draw < 1)).toBe(true);
  });
});
