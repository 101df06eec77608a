import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/domain/store.js';
import { seedErrorOf, server, store } from '../helpers/seed.js';

// Tests that the mutation run (npm run mutation) asked for: the exact messages of seed checks and
// seeds that extend a server already there (ids, names, addresses and caps counted with it).

const seedError = (seed: unknown, into = store()) => seedErrorOf(seed, into).message;

const at = (value: Record<string, unknown>) => server({ contacts: [value] });

describe('seed messages, word for word', () => {
  it.each([
    [{}, 'servers: is required: a seed is { "servers": [...] }'],
    [
      { servers: [{ serverId: 1234 }, { serverId: 1234 }] },
      'servers[1].serverId: server 1234 appears twice in this seed',
    ],
    [
      server({ key: '' }),
      'servers[0].key: must be 1 to 200 characters without control characters (C0, DEL, C1), U+2028, U+2029 or lone surrogates',
    ],
    [
      server({ key: 'x'.repeat(201) }),
      'servers[0].key: must be 1 to 200 characters without control characters (C0, DEL, C1), U+2028, U+2029 or lone surrogates',
    ],
    [
      server({ key: 'a\x7fb' }),
      'servers[0].key: must be 1 to 200 characters without control characters (C0, DEL, C1), U+2028, U+2029 or lone surrogates',
    ],
    [
      server({ maxContacts: -1 }),
      'servers[0].maxContacts: must be a whole number of 0 or more, got number -1',
    ],
    [
      server({ customFields: [{ name: '' }] }),
      'servers[0].customFields[0].name: must be a string of 1 to 50 characters',
    ],
    [
      server({ customFields: [{ name: 'a>b' }] }),
      'servers[0].customFields[0].name: must not contain "<" or ">"',
    ],
    [
      server({ customFields: [{ name: 'ContactId' }] }),
      'servers[0].customFields[0].name: "ContactId" is a reserved name (EmailAddress, ContactId, Id)',
    ],
    [
      server({ customFields: [{ name: 'City' }, { name: 'city' }] }),
      'servers[0].customFields[1].name: custom field "city" is defined twice',
    ],
    [
      server({ customFields: Array.from({ length: 21 }, (_, i) => ({ name: `F${i}` })) }),
      'servers[0].customFields: 21 custom fields exceed the limit of 20 per server',
    ],
    [server({ lists: [{ name: '' }] }), 'servers[0].lists[0].name: must not be empty'],
    [
      at({ emailAddress: 'a@example.com', status: 'Bounced' }),
      'servers[0].contacts[0].status: must be "Active" or "Unsubscribed", got the string "Bounced"',
    ],
    [
      at({ emailAddress: 'a@example.com', customFields: ['City'] }),
      'servers[0].contacts[0].customFields: must be an object of values by custom field name, got an array',
    ],
    [
      at({ emailAddress: 'a@example.com', customFields: { Town: 'X' } }),
      'servers[0].contacts[0].customFields.Town: names no custom field of this server',
    ],
    [
      server({
        customFields: [{ name: 'City' }],
        contacts: [{ emailAddress: 'a@example.com', customFields: { City: 'a', CITY: 'b' } }],
      }),
      'servers[0].contacts[0].customFields.CITY: sets the same custom field twice (names are case-insensitive)',
    ],
    [
      server({
        customFields: [{ name: 'City' }],
        contacts: [{ emailAddress: 'a@example.com', customFields: { City: 7 } }],
      }),
      'servers[0].contacts[0].customFields.City: must be a string, got number 7',
    ],
    [
      at({ emailAddress: 'a@example.com', lists: 1 }),
      'servers[0].contacts[0].lists: must be an array, got number 1',
    ],
    [
      at({ emailAddress: 'a@example.com', lists: [0] }),
      'servers[0].contacts[0].lists[0]: must be a positive integer, got number 0',
    ],
    [
      at({ emailAddress: 'a@example.com', lists: [4] }),
      'servers[0].contacts[0].lists[0]: names list 4, which this server does not have',
    ],
    [
      server({
        lists: [{ id: 1, name: 'A' }],
        contacts: [{ emailAddress: 'a@example.com', lists: [1, 1] }],
      }),
      'servers[0].contacts[0].lists[1]: list 1 is named twice',
    ],
    [
      server({
        contacts: [{ emailAddress: 'a@example.com' }, { emailAddress: 'A@example.com' }],
      }),
      'servers[0].contacts[1].emailAddress: "A@example.com" is used by two contacts (addresses are case-insensitive)',
    ],
    [
      server({
        content: [{ name: 'A', created: '2026-01-05T10:00:00Z', updated: '2026-01-05T09:59:59Z' }],
      }),
      'servers[0].content[0].updated: must not be before created',
    ],
  ])('%j -> %s', (seed, message) => {
    expect(seedError(seed)).toBe(message);
  });

  it('takes the edges: a key of 200 characters, maxContacts 0, updated equal to created', () => {
    const target = store();
    target.seed(server({ key: 'x'.repeat(200) }));
    target.seed({ servers: [{ serverId: 5678, maxContacts: 0 }] });
    target.seed({
      servers: [
        {
          serverId: 4321,
          content: [
            { name: 'Same', created: '2026-01-05T10:00:00Z', updated: '2026-01-05T10:00:00Z' },
            { name: 'Now' },
            { name: 'Old', created: '2026-01-01T00:00:00Z' },
          ],
        },
      ],
    });
    const [first, second, third] = target.exportState().servers;
    expect(first!.key).toBe('x'.repeat(200));
    expect(second!.maxContacts).toBe(0);
    expect(third!.content!.map(({ name, created, updated }) => [name, created, updated])).toEqual([
      ['Same', '2026-01-05T10:00:00.000Z', '2026-01-05T10:00:00.000Z'],
      ['Now', '2026-11-22T12:00:00.000Z', '2026-11-22T12:00:00.000Z'],
      ['Old', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ]);
  });
});

describe('a seed that extends a server already there', () => {
  function existing(): Store {
    const target = store();
    target.seed(
      server({
        maxContacts: 2,
        customFields: [{ customFieldNameId: 3, name: 'City' }],
        lists: [{ id: 2, name: 'A' }],
        contacts: [{ contactId: 5, emailAddress: 'ann@example.com', lists: [2] }],
        content: [{ id: 7, name: 'C', created: '2026-01-01T00:00:00Z' }],
      }),
    );
    return target;
  }

  it.each([
    [
      { key: 'other' },
      'servers[0].key: server 1234 exists with another key; use regenerateKey() to change it',
    ],
    [
      { customFields: [{ name: 'CITY' }] },
      'servers[0].customFields[0].name: custom field "CITY" is defined twice',
    ],
    [
      { customFields: Array.from({ length: 20 }, (_, i) => ({ name: `F${i}` })) },
      'servers[0].customFields: 21 custom fields exceed the limit of 20 per server',
    ],
    [
      { customFields: [{ customFieldNameId: 3, name: 'Town' }] },
      'servers[0].customFields[0].customFieldNameId: custom field id 3 is used twice',
    ],
    [
      { contacts: [{ emailAddress: 'ANN@example.com' }] },
      'servers[0].contacts[0].emailAddress: "ANN@example.com" is used by two contacts (addresses are case-insensitive)',
    ],
    [
      { contacts: [{ emailAddress: 'b@example.com', contactId: 5 }] },
      'servers[0].contacts[0].contactId: contact id 5 is used twice',
    ],
    [{ content: [{ id: 7, name: 'D' }] }, 'servers[0].content[0].id: content id 7 is used twice'],
  ])('%j -> %s', (extra, message) => {
    expect(seedError(server(extra), existing())).toBe(message);
  });

  it('counts its fields, lists and ids: new contacts use them, new ids follow them', () => {
    const target = existing();
    target.seed(
      server({
        maxContacts: 3,
        customFields: [{ name: 'Zip' }],
        lists: [{ name: 'B' }],
        contacts: [
          { emailAddress: 'bo@example.com', lists: [2, 3], customFields: { city: 'Porto' } },
        ],
        content: [{ name: 'D', created: '2026-01-02T00:00:00Z' }],
      }),
    );
    const [state] = target.exportState().servers;
    expect(state!.maxContacts).toBe(3);
    expect(state!.customFields).toEqual([
      { customFieldNameId: 3, name: 'City' },
      { customFieldNameId: 4, name: 'Zip' },
    ]);
    expect(state!.lists!.map((list) => list.id)).toEqual([2, 3]);
    expect(state!.content!.map((item) => item.id)).toEqual([7, 8]);
    const bo = state!.contacts!.find((contact) => contact.emailAddress === 'bo@example.com')!;
    expect(bo.contactId).toBe(6);
    expect(bo.lists).toEqual([2, 3]);
    expect(bo.customFields).toEqual({ City: 'Porto' });
  });
});
