import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Seed } from '../../src/domain/seed-types.js';
import { stateJson } from '../../src/state-json.js';

// The state is written in pieces (GET /__admin/state, the state file): the pieces joined must be
// exactly JSON.stringify's text, compact and pretty, and no piece longer than one contact, so that
// a state past the longest string V8 holds still goes out whole.

const text = fc.string({ maxLength: 12 });
const contact = fc.record(
  {
    contactId: fc.nat(),
    emailAddress: text,
    status: fc.constantFrom('Active', 'Unsubscribed'),
    customFields: fc.dictionary(text, text, { maxKeys: 3 }),
    lists: fc.array(fc.nat(), { maxLength: 3 }),
  },
  { requiredKeys: ['emailAddress'] },
);
const server = fc.record(
  {
    serverId: fc.integer({ min: 1000, max: 99999 }),
    key: text,
    maxContacts: fc.nat(),
    customFields: fc.array(fc.record({ customFieldNameId: fc.nat(), name: text }), {
      maxLength: 3,
    }),
    lists: fc.array(fc.record({ id: fc.nat(), name: text }), { maxLength: 3 }),
    contacts: fc.array(contact, { maxLength: 5 }),
    content: fc.array(fc.record({ id: fc.nat(), name: text, created: text, updated: text }), {
      maxLength: 2,
    }),
    nextIds: fc.record({ list: fc.nat(), contact: fc.nat() }),
  },
  { requiredKeys: ['serverId'] },
);
const state = fc.record({ servers: fc.array(server, { maxLength: 4 }) }) as fc.Arbitrary<Seed>;

describe('the state in pieces', () => {
  it('joins to exactly JSON.stringify, compact and pretty', () => {
    fc.assert(
      fc.property(state, (seed) => {
        expect([...stateJson(seed)].join('')).toBe(JSON.stringify(seed));
        expect([...stateJson(seed, true)].join('')).toBe(JSON.stringify(seed, null, 2));
      }),
      { numRuns: 300 },
    );
  });

  it('has no piece longer than one contact and its punctuation', () => {
    const big = 'v'.repeat(100_000);
    const seed: Seed = {
      servers: [
        {
          serverId: 1234,
          key: 'k',
          contacts: Array.from({ length: 20 }, (_, index) => ({
            emailAddress: `c${index}@example.com`,
            customFields: { Note: big },
          })),
        },
      ],
    };
    for (const pretty of [false, true]) {
      const pieces = [...stateJson(seed, pretty)];
      expect(pieces.length).toBeGreaterThan(20);
      expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThan(big.length + 200);
    }
  });
});
