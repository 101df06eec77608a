import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/domain/errors.js';
import { MAX_ID } from '../../../src/domain/rules.js';
import type { Store } from '../../../src/domain/store.js';
import { seedErrorOf, server, store } from '../../helpers/seed.js';
import { thrownBy } from '../../helpers/thrown.js';

/**
 * Ids are 32-bit, as the service's (an ASP.NET `int`): seeds refuse ids past 2^31 - 1 and
 * counters past one more, and an add that would need an id past it is a 409, never a duplicate
 * (without the bound, a contact id of 2^53 - 1 makes the next adds share 2^53).
 */
const tenantOf = (into: Store) => into.tenant(1234)!;

const rejected = (action: () => unknown) => thrownBy(action, ApiError);

describe('ids in seeds', () => {
  it('the bound is 2^31 - 1', () => {
    expect(MAX_ID).toBe(2 ** 31 - 1);
  });

  it.each([
    ['lists', { lists: [{ id: MAX_ID + 1, name: 'L' }] }, 'servers[0].lists[0].id'],
    [
      'contacts',
      { contacts: [{ contactId: MAX_ID + 1, emailAddress: 'a@example.com' }] },
      'servers[0].contacts[0].contactId',
    ],
    [
      'custom fields',
      { customFields: [{ customFieldNameId: MAX_ID + 1, name: 'F' }] },
      'servers[0].customFields[0].customFieldNameId',
    ],
    ['content', { content: [{ id: MAX_ID + 1, name: 'C' }] }, 'servers[0].content[0].id'],
  ])('%s: the largest id is accepted, one past it refused, naming the bound', (_, part, path) => {
    const error = seedErrorOf(server(part));
    expect(error.message).toBe(`${path}: must be at most 2147483647, got number 2147483648`);
    const atBound = JSON.parse(JSON.stringify(part).replace('2147483648', '2147483647'));
    const into = store();
    into.seed(server(atBound));
    // Seeded back from its own export, as every accepted state must be.
    const again = store();
    again.seed(into.exportState());
    expect(again.exportState()).toEqual(into.exportState());
  });

  it('ids past 2^53 (not exact) are refused with the same message', () => {
    const seed = server({
      contacts: [{ contactId: 9007199254740991, emailAddress: 'max@example.com' }],
    });
    expect(seedErrorOf(seed).message).toBe(
      'servers[0].contacts[0].contactId: must be at most 2147483647, got number 9007199254740991',
    );
  });

  it('a missing id that would be assigned past the bound is refused', () => {
    const seed = server({
      contacts: [
        { contactId: MAX_ID, emailAddress: 'last@example.com' },
        { emailAddress: 'one-more@example.com' },
      ],
    });
    expect(seedErrorOf(seed).message).toBe(
      'servers[0].contacts[1].contactId: is needed: every contact id up to 2147483647, the largest, is given or used, so none is left to assign',
    );
  });

  it.each(['list', 'contact', 'customField', 'content'])(
    'nextIds.%s may be one past the largest id (all used), not two',
    (name) => {
      const error = seedErrorOf(server({ nextIds: { [name]: MAX_ID + 2 } }));
      expect(error.message).toBe(
        `servers[0].nextIds.${name}: must be at most 2147483648 (one past the largest id, 2147483647), got number 2147483649`,
      );
      const into = store();
      into.seed(server({ nextIds: { [name]: MAX_ID + 1 } }));
      const again = store();
      again.seed(into.exportState());
      expect(again.exportState()).toEqual(into.exportState());
    },
  );
});

describe('adds at the bound', () => {
  it('a new contact when the last contact id is used: 409 ID_LIMIT, nothing changes; known contacts still join', () => {
    const into = store();
    into.seed(
      server({
        lists: [{ id: 1, name: 'L' }],
        contacts: [{ contactId: MAX_ID - 1, emailAddress: 'before@example.com' }],
      }),
    );
    const tenant = tenantOf(into);
    expect(tenant.addToListByEmail(1, { emailAddress: 'last@example.com' }).contactId).toBe(MAX_ID);
    const before = into.exportState();
    const error = rejected(() => tenant.addToListByEmail(1, { emailAddress: 'past@example.com' }));
    expect(error.code).toBe('ID_LIMIT');
    expect(error.status).toBe(409);
    expect(error.message).toBe(
      'No contact id is left on this server: ids go up to 2147483647 and are never reused. Reset the server, or seed one with lower ids.',
    );
    expect(into.exportState()).toEqual(before);
    // Someone already known is no new id.
    expect(tenant.addToListByEmail(1, { emailAddress: 'BEFORE@example.com' }).contactId).toBe(
      MAX_ID - 1,
    );
    // The export (counter one past the bound) seeds back.
    const again = store();
    again.seed(into.exportState());
    expect(again.exportState()).toEqual(into.exportState());
  });

  it('a new custom field when the last field id is used: 409 ID_LIMIT, nothing changes', () => {
    const into = store();
    into.seed(server({ customFields: [{ customFieldNameId: MAX_ID, name: 'Last' }] }));
    const tenant = tenantOf(into);
    const before = into.exportState();
    const error = rejected(() => tenant.createField('Another'));
    expect(error.code).toBe('ID_LIMIT');
    expect(error.message).toContain('No custom field id is left');
    expect(into.exportState()).toEqual(before);
  });

  it('from any seeded contact id, adds give distinct ids up to the bound, then 409', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: MAX_ID - 6, max: MAX_ID + 3 }),
        fc.integer({ min: 1, max: 8 }),
        (seeded, adds) => {
          const into = store();
          const seed = server({
            lists: [{ id: 1, name: 'L' }],
            contacts: [{ contactId: seeded, emailAddress: 'seeded@example.com' }],
          });
          if (seeded > MAX_ID) {
            expect(seedErrorOf(seed, into).message).toContain('must be at most 2147483647');
            return;
          }
          into.seed(seed);
          const tenant = tenantOf(into);
          const ids = [seeded];
          for (let index = 0; index < adds; index++) {
            const emailAddress = `new${index}@example.com`;
            if (seeded + index + 1 <= MAX_ID) {
              ids.push(tenant.addToListByEmail(1, { emailAddress }).contactId);
            } else {
              expect(rejected(() => tenant.addToListByEmail(1, { emailAddress })).code).toBe(
                'ID_LIMIT',
              );
            }
          }
          expect(new Set(ids).size).toBe(ids.length);
          expect(Math.max(...ids)).toBeLessThanOrEqual(MAX_ID);
          const again = store();
          again.seed(into.exportState());
          expect(again.exportState()).toEqual(into.exportState());
        },
      ),
      { numRuns: 60 },
    );
  });
});
