import { describe, expect, it } from 'vitest';
import { IdMaps } from '../../../src/replay/ids.js';

// Ids the service assigns are paired by first appearance, per kind.

describe('IdMaps', () => {
  it('pairs an id at first sight; both sides keep to the pairing', () => {
    const ids = new IdMaps();
    expect(ids.agree('contact', 7, 70)).toBe(true);
    expect(ids.agree('contact', 7, 70)).toBe(true);
    expect(ids.agree('contact', 7, 71)).toBe(false);
    expect(ids.agree('contact', 8, 70)).toBe(false);
    // Another kind is paired apart.
    expect(ids.agree('field', 8, 70)).toBe(true);
    expect(ids.toFake('contact', 7)).toBe(70);
    expect(ids.toFake('field', 8)).toBe(70);
  });

  it('seeded ids are the same on both sides', () => {
    const ids = new IdMaps();
    ids.keep('field', [1, 2]);
    expect(ids.toFake('field', 2)).toBe(2);
    expect(ids.agree('field', 2, 2)).toBe(true);
    expect(ids.agree('field', 3, 1)).toBe(false);
    expect(ids.takeSubstitutions()).toEqual([]);
  });

  it('an id never paired is sent as one the fake never gave, the same each time, and said', () => {
    const ids = new IdMaps();
    expect(ids.toFake('contact', 7)).toBe(1_900_000_000);
    expect(ids.toFake('contact', 8)).toBe(1_900_000_001);
    expect(ids.toFake('contact', 7)).toBe(1_900_000_000);
    expect(ids.toFake('field', 7)).toBe(1_900_000_002);
    expect(ids.takeSubstitutions()).toEqual([
      "sent contact id 1900000000 for the recorded 7, which no answer of the recording paired with one of the fake's (an id the fake never gave)",
      "sent contact id 1900000001 for the recorded 8, which no answer of the recording paired with one of the fake's (an id the fake never gave)",
      "sent contact id 1900000000 for the recorded 7, which no answer of the recording paired with one of the fake's (an id the fake never gave)",
      "sent field id 1900000002 for the recorded 7, which no answer of the recording paired with one of the fake's (an id the fake never gave)",
    ]);
    expect(ids.takeSubstitutions()).toEqual([]);
  });
});
