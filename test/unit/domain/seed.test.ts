import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../src/domain/store.js';
import { createFakeMarketingServer, type Seed, SeedError } from '../../../src/index.js';
import { smallSeed } from '../../helpers/fake.js';
import { server as helperServer, store as helperStore, seedErrorOf } from '../../helpers/seed.js';
import { thrownBy } from '../../helpers/thrown.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

function store(maxContacts = 10_000): Store {
  return new Store({ defaultMaxContacts: maxContacts, now: () => NOW });
}

function server(extra: Record<string, unknown>) {
  return { servers: [{ serverId: 1234, ...extra }] };
}

describe('seed validation names the exact path', () => {
  it.each([
    [null, '', 'must be an object'],
    [[], '', 'must be an object'],
    [{}, 'servers', 'is required'],
    [{ servers: {} }, 'servers', 'must be an array'],
    [{ servers: [], extra: 1 }, 'extra', 'unknown property'],
    [{ servers: [5] }, 'servers[0]', 'must be an object'],
    [{ servers: [{}] }, 'servers[0].serverId', '4- or 5-digit'],
    [{ servers: [{ serverId: 123 }] }, 'servers[0].serverId', '4- or 5-digit'],
    [{ servers: [{ serverId: 123456 }] }, 'servers[0].serverId', '4- or 5-digit'],
    [{ servers: [{ serverId: '1234' }] }, 'servers[0].serverId', '4- or 5-digit'],
    [{ servers: [{ serverId: 1234.5 }] }, 'servers[0].serverId', '4- or 5-digit'],
    [{ servers: [{ serverId: 1234 }, { serverId: 1234 }] }, 'servers[1].serverId', 'appears twice'],
    [server({ contact: [] }), 'servers[0].contact', 'unknown property'],
    [server({ key: '' }), 'servers[0].key', '1 to 200 characters'],
    [server({ key: 7 }), 'servers[0].key', 'must be a string'],
    [server({ key: 'a\nb' }), 'servers[0].key', 'without control characters'],
    [server({ key: '\u0085nelkey-x' }), 'servers[0].key', 'without control characters'],
    [server({ key: 'ab\u2028cdef' }), 'servers[0].key', 'U+2028'],
    [server({ key: '\ud800abcdef' }), 'servers[0].key', 'lone surrogates'],
    [server({ maxContacts: -1 }), 'servers[0].maxContacts', 'whole number'],
    [server({ nextIds: 5 }), 'servers[0].nextIds', 'must be an object'],
    [server({ nextIds: { field: 5 } }), 'servers[0].nextIds.field', 'unknown property'],
    [server({ nextIds: { list: 0 } }), 'servers[0].nextIds.list', 'positive integer'],
    [server({ nextIds: { contact: 1.5 } }), 'servers[0].nextIds.contact', 'positive integer'],
    [
      server({ lists: [{ id: 7, name: 'L' }], nextIds: { list: 7 } }),
      'servers[0].nextIds.list',
      'must be more than 7, the largest list id this server uses or has used',
    ],
    [
      server({ customFields: [{ name: 'A' }, { name: 'B' }], nextIds: { customField: 2 } }),
      'servers[0].nextIds.customField',
      'must be more than 2',
    ],
    [
      server({
        contacts: [{ contactId: 3, emailAddress: 'a@example.com' }],
        nextIds: { contact: 2 },
      }),
      'servers[0].nextIds.contact',
      'must be more than 3',
    ],
    [
      server({ content: [{ id: 4, name: 'C' }], nextIds: { content: 4 } }),
      'servers[0].nextIds.content',
      'must be more than 4',
    ],
    [server({ maxContacts: 1.5 }), 'servers[0].maxContacts', 'whole number'],
    [
      server({ lists: [{ name: 'A' }, { id: 0, name: 'B' }] }),
      'servers[0].lists[1].id',
      'positive integer',
    ],
    [
      server({
        lists: [
          { id: 2, name: 'A' },
          { id: 2, name: 'B' },
        ],
      }),
      'servers[0].lists[1].id',
      'used twice',
    ],
    [server({ lists: [{ id: 1 }] }), 'servers[0].lists[0].name', 'must be a string'],
    [server({ lists: [{ name: '' }] }), 'servers[0].lists[0].name', 'must not be empty'],
    [server({ customFields: [{ name: 'Id' }] }), 'servers[0].customFields[0].name', 'reserved'],
    [server({ customFields: [{ name: 'a<b' }] }), 'servers[0].customFields[0].name', '"<" or ">"'],
    [
      server({ customFields: [{ name: 'x'.repeat(51) }] }),
      'servers[0].customFields[0].name',
      '1 to 50',
    ],
    [
      server({ customFields: [{ name: 'City' }, { name: 'CITY' }] }),
      'servers[0].customFields[1].name',
      'defined twice',
    ],
    [
      server({ customFields: Array.from({ length: 21 }, (_, i) => ({ name: `F${i}` })) }),
      'servers[0].customFields',
      'limit of 20',
    ],
    [
      server({ customFields: [{ customFieldNameId: 'x', name: 'A' }] }),
      'servers[0].customFields[0].customFieldNameId',
      'positive integer',
    ],
    [server({ contacts: [{}] }), 'servers[0].contacts[0].emailAddress', 'well-formed'],
    [
      server({ contacts: [{ emailAddress: 'a@example.com' }, { emailAddress: 'b@example' }] }),
      'servers[0].contacts[1].emailAddress',
      'well-formed',
    ],
    [
      server({ contacts: [{ emailAddress: 'a@example.com' }, { emailAddress: 'A@EXAMPLE.com' }] }),
      'servers[0].contacts[1].emailAddress',
      'used by two contacts',
    ],
    [
      server({ contacts: [{ emailAddress: 'a@example.com', status: 'Bounced' }] }),
      'servers[0].contacts[0].status',
      '"Active" or "Unsubscribed"',
    ],
    [
      server({ contacts: [{ emailAddress: 'a@example.com', lists: [3] }] }),
      'servers[0].contacts[0].lists[0]',
      'does not have',
    ],
    [
      server({
        lists: [{ id: 3, name: 'L' }],
        contacts: [{ emailAddress: 'a@example.com', lists: [3, 3] }],
      }),
      'servers[0].contacts[0].lists[1]',
      'named twice',
    ],
    [
      server({ contacts: [{ emailAddress: 'a@example.com', customFields: { City: 'X' } }] }),
      'servers[0].contacts[0].customFields.City',
      'names no custom field',
    ],
    [
      server({
        customFields: [{ name: 'City' }],
        contacts: [{ emailAddress: 'a@example.com', customFields: { City: 5 } }],
      }),
      'servers[0].contacts[0].customFields.City',
      'must be a string',
    ],
    [
      server({
        customFields: [{ name: 'City' }],
        contacts: [{ emailAddress: 'a@example.com', customFields: { City: 'a', city: 'b' } }],
      }),
      'servers[0].contacts[0].customFields.city',
      'twice',
    ],
    [
      server({
        contacts: [
          { emailAddress: 'a@example.com', contactId: 1 },
          { emailAddress: 'b@example.com', contactId: 1 },
        ],
      }),
      'servers[0].contacts[1].contactId',
      'used twice',
    ],
    [
      server({ content: [{ name: 'A', created: 'yesterday' }] }),
      'servers[0].content[0].created',
      'ISO 8601',
    ],
    [
      server({ content: [{ name: 'A', created: '2026-02-30T10:00:00Z' }] }),
      'servers[0].content[0].created',
      'ISO 8601',
    ],
    [
      server({ content: [{ name: 'A', created: '2026-01-05T25:00:00Z' }] }),
      'servers[0].content[0].created',
      'ISO 8601',
    ],
    [
      server({
        content: [{ name: 'A', created: '2026-01-05T10:00:00Z', updated: '2026-01-04T10:00:00Z' }],
      }),
      'servers[0].content[0].updated',
      'before created',
    ],
    [server({ content: [{ id: 1 }] }), 'servers[0].content[0].name', 'must be a string'],
  ])('%# %j -> %s', (seed, path, problem) => {
    const target = store();
    const caught = thrownBy(() => target.seed(seed), SeedError);
    expect(caught.path).toBe(path);
    expect(caught.message).toContain(problem);
    if (path) expect(caught.message.startsWith(`${path}: `)).toBe(true);
    expect(target.exportState()).toEqual({ servers: [] });
  });
});

describe('seed loading', () => {
  it('assigns missing ids after the largest id given, in order', () => {
    const target = store();
    target.seed(
      server({
        lists: [{ name: 'A' }, { id: 5, name: 'B' }, { name: 'C' }],
        customFields: [{ name: 'X' }, { customFieldNameId: 3, name: 'Y' }],
        contacts: [
          { emailAddress: 'a@example.com', lists: [6] },
          { contactId: 10, emailAddress: 'b@example.com' },
        ],
        content: [{ name: 'Old', created: '2026-01-01T00:00:00+02:00' }, { name: 'New' }],
      }),
    );
    const [state] = target.exportState().servers;
    expect(state?.lists).toEqual([
      { id: 6, name: 'A' },
      { id: 5, name: 'B' },
      { id: 7, name: 'C' },
    ]);
    expect(state?.customFields?.map((field) => field.customFieldNameId)).toEqual([4, 3]);
    expect(state?.contacts?.map((contact) => contact.contactId)).toEqual([11, 10]);
    expect(state?.content).toEqual([
      {
        id: 1,
        name: 'Old',
        created: '2025-12-31T22:00:00.000Z',
        updated: '2025-12-31T22:00:00.000Z',
      },
      {
        id: 2,
        name: 'New',
        created: '2026-11-22T12:00:00.000Z',
        updated: '2026-11-22T12:00:00.000Z',
      },
    ]);
  });

  it('fills defaults: a random key, the default cap, Active status', () => {
    const target = store(77);
    const [credentials] = target.seed(server({ contacts: [{ emailAddress: 'a@example.com' }] }));
    expect(credentials?.key).toMatch(/^[\w-]{21}$/);
    const [state] = target.exportState().servers;
    expect(state?.maxContacts).toBe(77);
    expect(state?.contacts?.[0]?.status).toBe('Active');
  });

  it('is atomic across servers: a bad second server leaves the first unapplied', () => {
    const target = store();
    expect(() =>
      target.seed({
        servers: [
          { serverId: 1111, lists: [{ name: 'A' }] },
          { serverId: 2222, contacts: [{ emailAddress: 'bad' }] },
        ],
      }),
    ).toThrow(SeedError);
    expect(target.exportState()).toEqual({ servers: [] });
  });

  it('takes nextIds: the next items created get them; an extended server never goes back', () => {
    const target = store();
    target.seed(server({ customFields: [{ name: 'A' }], nextIds: { customField: 9, list: 4 } }));
    const tenant = target.requireTenant(1234);
    expect(tenant.peekNextIds()).toMatchObject({ field: 9, list: 4, contact: 1, content: 1 });
    expect(target.exportState().servers[0]!.nextIds).toEqual({
      list: 4,
      contact: 1,
      customField: 9,
      content: 1,
    });
    // Extending the server: a counter below the one it has would hand out an id again.
    expect(() => target.seed(server({ nextIds: { customField: 5 } }))).toThrow(
      'servers[0].nextIds.customField: must be more than 8',
    );
    const before = target.exportState();
    expect(() => target.seed(server({ nextIds: { list: 2 } }))).toThrow(SeedError);
    expect(target.exportState()).toEqual(before);
    target.seed(server({ nextIds: { list: 10 } }));
    expect(tenant.peekNextIds().list).toBe(10);
  });

  it('seeding an existing server adds to it, checking against what it holds', () => {
    const target = store();
    target.seed(smallSeed());
    const before = target.exportState();
    expect(() =>
      target.seed({
        servers: [{ serverId: 1234, contacts: [{ emailAddress: 'ANN@example.com' }] }],
      }),
    ).toThrow('servers[0].contacts[0].emailAddress: "ANN@example.com" is used by two contacts');
    expect(() =>
      target.seed({ servers: [{ serverId: 1234, customFields: [{ name: 'city' }] }] }),
    ).toThrow('servers[0].customFields[0].name');
    expect(() =>
      target.seed({ servers: [{ serverId: 1234, lists: [{ id: 2, name: 'x' }] }] }),
    ).toThrow('list id 2 is used twice');
    expect(() => target.seed({ servers: [{ serverId: 1234, key: 'another' }] })).toThrow(
      'servers[0].key: server 1234 exists with another key',
    );
    expect(target.exportState()).toEqual(before);

    target.seed({
      servers: [
        {
          serverId: 1234,
          lists: [{ name: 'Third' }],
          contacts: [
            { emailAddress: 'dee@example.com', lists: [1, 3], customFields: { city: 'Oslo' } },
          ],
        },
      ],
    });
    const [state] = target.exportState().servers;
    expect(state?.lists?.at(-1)).toEqual({ id: 3, name: 'Third' });
    expect(state?.contacts?.at(-1)).toEqual({
      contactId: 4,
      emailAddress: 'dee@example.com',
      status: 'Active',
      customFields: { City: 'Oslo' },
      lists: [1, 3],
    });
  });

  it('takes a server over its cap, as setMaxContacts() can leave one, so every export seeds back', () => {
    const target = store();
    target.seed(smallSeed()); // server 1234 has 3 contacts and maxContacts 10
    const extra = Array.from({ length: 8 }, (_, i) => ({ emailAddress: `n${i}@example.com` }));
    target.seed({ servers: [{ serverId: 1234, contacts: extra }] });
    expect(target.tenant(1234)!.contacts.size).toBe(11);
    target.seed({
      servers: [{ serverId: 4321, maxContacts: 1, lists: [{ id: 1, name: 'L' }], contacts: extra }],
    });
    expect(target.tenant(4321)!.contacts.size).toBe(8);
    expect(target.tenant(4321)!.maxContacts).toBe(1);
    // The cap still refuses a contact created later.
    expect(() =>
      target.tenant(4321)!.addToListByEmail(1, { emailAddress: 'new@example.com' }),
    ).toThrow('The maximum number of contacts (1) for this server has been reached.');
  });

  it('reads a seed file, and names the file when it is missing or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fms-seed-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(smallSeed()));
    const fake = await createFakeMarketingServer({ seed: good });
    expect(fake.server(1234).lists()).toHaveLength(2);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "servers": [');
    await expect(createFakeMarketingServer({ seed: broken })).rejects.toThrow(
      `seed file ${broken} is not valid JSON`,
    );
    await expect(createFakeMarketingServer({ seed: join(dir, 'missing.json') })).rejects.toThrow(
      'cannot read seed file',
    );
    expect(() => fake.seed(broken)).toThrow(SeedError);
    await fake.close();
  });

  it('the default fixture loads, with at least two servers and realistic data', async () => {
    const seed = (await import('../../../fixtures/default.json', { with: { type: 'json' } }))
      .default as Seed;
    const target = store();
    target.seed(seed);
    const state = target.exportState();
    expect(state.servers.length).toBeGreaterThanOrEqual(2);
    const contacts = state.servers.flatMap((s) => s.contacts ?? []);
    expect(contacts.length).toBeGreaterThanOrEqual(24);
    expect(contacts.some((c) => c.status === 'Unsubscribed')).toBe(true);
    for (const s of state.servers) {
      expect(s.customFields?.map((f) => f.name)).toEqual(
        expect.arrayContaining(['FirstName', 'LastName']),
      );
      expect(s.lists?.length).toBeGreaterThanOrEqual(2);
      expect(s.content?.length).toBeGreaterThanOrEqual(1);
    }
  });
});

describe('exportState round trip', () => {
  it('seed(exportState()) on a fresh store reproduces the state', () => {
    const first = store();
    first.seed(smallSeed());
    const tenant = first.requireTenant(1234);
    tenant.addToListByEmail(2, { emailAddress: 'new@example.com', firstName: 'N' });
    tenant.createField('Extra');
    tenant.deleteField(3);
    tenant.unsubscribe(1);
    const exported = first.exportState();
    const second = store();
    second.seed(JSON.parse(JSON.stringify(exported)));
    expect(second.exportState()).toEqual(exported);
  });
});

describe('the finer points of seeds', () => {
  // These use the shared helpers (a server seed with a key), not this file's own.
  const server = helperServer;
  const store = helperStore;

  // The exact messages of seed checks and
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
          content: [
            { name: 'A', created: '2026-01-05T10:00:00Z', updated: '2026-01-05T09:59:59Z' },
          ],
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
      expect(third!.content!.map(({ name, created, updated }) => [name, created, updated])).toEqual(
        [
          ['Same', '2026-01-05T10:00:00.000Z', '2026-01-05T10:00:00.000Z'],
          ['Now', '2026-11-22T12:00:00.000Z', '2026-11-22T12:00:00.000Z'],
          ['Old', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
        ],
      );
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
});
