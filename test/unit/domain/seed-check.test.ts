import { describe, expect, it } from 'vitest';
import { isServerId, isValidEmail, parseServerId } from '../../../src/domain/rules.js';
import { seedErrorOf, server, store } from '../../helpers/seed.js';

// The exact wording of seed errors (the
// "got ..." part included), the edges of dates, ids and limits. Each pins behaviour a user sees.

const seedError = seedErrorOf;

const content = (created: unknown) => server({ content: [{ name: 'A', created }] });

describe('seed errors say what they got', () => {
  it.each([
    [null, 'must be an object, got null'],
    [[], 'must be an object, got an array'],
    ['servers', 'must be an object, got the string "servers"'],
    [5, 'must be an object, got number 5'],
    [true, 'must be an object, got boolean true'],
  ])('the seed %j -> %s', (seed, message) => {
    const error = seedError(seed);
    expect(error.path).toBe('');
    expect(error.message).toBe(message);
  });

  it('names the unknown property at the top level without a leading dot, with the keys allowed', () => {
    const error = seedError({ servers: [], extra: 1 });
    expect(error.path).toBe('extra');
    expect(error.message).toBe('extra: unknown property; expected one of $schema, servers');
  });

  it('names an unknown property of a server with every property a server may have', () => {
    const error = seedError(server({ contact: [] }));
    expect(error.message).toBe(
      'servers[0].contact: unknown property; expected one of serverId, key, maxContacts, customFields, lists, contacts, content, nextIds',
    );
  });

  it.each([
    [{ servers: {} }, 'servers: must be an array, got an object'],
    [{ servers: 'all' }, 'servers: must be an array, got the string "all"'],
    [server({ lists: 3 }), 'servers[0].lists: must be an array, got number 3'],
    [server({ lists: [7] }), 'servers[0].lists[0]: must be an object, got number 7'],
    [server({ lists: [{ name: 5 }] }), 'servers[0].lists[0].name: must be a string, got number 5'],
    [
      server({ lists: [{ id: 0, name: 'L' }] }),
      'servers[0].lists[0].id: must be a positive integer, got number 0',
    ],
    [
      server({ lists: [{ id: 1.5, name: 'L' }] }),
      'servers[0].lists[0].id: must be a positive integer, got number 1.5',
    ],
    [
      server({ lists: [{ id: 2 ** 53, name: 'L' }] }),
      `servers[0].lists[0].id: must be at most 2147483647, got number ${2 ** 53}`,
    ],
    [
      server({ lists: [{ id: '1', name: 'L' }] }),
      'servers[0].lists[0].id: must be a positive integer, got the string "1"',
    ],
    [
      server({ contacts: [{ emailAddress: 'a@example.com', contactId: -1 }] }),
      'servers[0].contacts[0].contactId: must be a positive integer, got number -1',
    ],
    [
      content(5),
      'servers[0].content[0].created: must be an ISO 8601 UTC date-time such as 2026-01-05T10:00:00Z, got number 5',
    ],
    [
      content(null),
      'servers[0].content[0].created: must be an ISO 8601 UTC date-time such as 2026-01-05T10:00:00Z, got null',
    ],
  ])('%j -> %s', (seed, message) => {
    expect(seedError(seed).message).toBe(message);
  });

  it('quotes a string of 60 characters whole and cuts a longer one to 57 and an ellipsis', () => {
    const sixty = `${'a'.repeat(56)}@x.y`.replace('@', ' ');
    expect(sixty).toHaveLength(60);
    expect(seedError(server({ contacts: [{ emailAddress: sixty }] })).message).toBe(
      `servers[0].contacts[0].emailAddress: must be a well-formed email address, got the string "${sixty}"`,
    );
    const long = `${sixty}z`;
    expect(seedError(server({ contacts: [{ emailAddress: long }] })).message).toBe(
      `servers[0].contacts[0].emailAddress: must be a well-formed email address, got the string "${long.slice(0, 57)}..."`,
    );
  });
});

describe('seed dates', () => {
  const message = (text: string) =>
    `servers[0].content[0].created: must be an ISO 8601 UTC date-time such as 2026-01-05T10:00:00Z, got "${text}"`;

  it.each([
    // Date.parse takes 24:00 as the next midnight: the seed does not.
    '2026-01-05T24:00:00Z',
    '2026-01-05T23:60:00Z',
    '2026-01-05T23:59:60Z',
    '2026-02-29T10:00:00Z',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-05T10:00:00',
    '2026-01-05T10:00:00+24:00',
    '2026-01-05 10:00:00Z',
    ' 2026-01-05',
    '2026-01-05T10:00:00Zjunk',
    '2026-01-05T10:00:00.1234567890Z',
    '2026-1-05',
    // Years 0 to 99 are checked as themselves, not as 1900 to 1999 (0050 is no leap year).
    '0050-02-29',
    '0000-02-30',
  ])('refuses %j, quoting it', (text) => {
    const error = seedError(content(text));
    expect(error.path).toBe('servers[0].content[0].created');
    expect(error.message).toBe(message(text));
  });

  it.each([
    ['2026-01-05', '2026-01-05T00:00:00.000Z'],
    ['2024-02-29T10:00:00Z', '2024-02-29T10:00:00.000Z'],
    ['2026-01-05T23:59:59Z', '2026-01-05T23:59:59.000Z'],
    ['2026-01-05T00:00:00Z', '2026-01-05T00:00:00.000Z'],
    ['2026-01-05T10:00Z', '2026-01-05T10:00:00.000Z'],
    ['2026-01-05T10:00:00.123456789Z', '2026-01-05T10:00:00.123Z'],
    ['2026-01-05T10:00:00.5+02:00', '2026-01-05T08:00:00.500Z'],
    ['2026-12-31T23:30:00-01:00', '2027-01-01T00:30:00.000Z'],
    // Years 0 to 99 are real years, leap days included (year 0 is a leap year).
    ['0050-01-05T10:00:00Z', '0050-01-05T10:00:00.000Z'],
    ['0000-02-29', '0000-02-29T00:00:00.000Z'],
    ['0096-02-29', '0096-02-29T00:00:00.000Z'],
  ])('takes %j as %s', (text, iso) => {
    const target = store();
    target.seed(content(text));
    expect(target.exportState().servers[0]!.content![0]!.created).toBe(iso);
  });
});

describe('seed ids given and assigned', () => {
  it('refuses an id that the server being extended already uses, saying which', () => {
    const target = store();
    target.seed(server({ lists: [{ id: 4, name: 'A' }] }));
    const error = seedError(server({ lists: [{ id: 4, name: 'B' }] }), target);
    expect(error.message).toBe('servers[0].lists[0].id: list id 4 is used twice');
  });

  it('assigns missing ids after the largest id the extended server used', () => {
    const target = store();
    target.seed(server({ lists: [{ id: 4, name: 'A' }] }));
    target.seed(server({ lists: [{ name: 'B' }, { name: 'C' }] }));
    expect(target.exportState().servers[0]!.lists!.map((list) => list.id)).toEqual([4, 5, 6]);
  });

  it('takes id 1, the smallest positive id', () => {
    const target = store();
    target.seed(server({ lists: [{ id: 1, name: 'A' }] }));
    expect(target.exportState().servers[0]!.lists).toEqual([{ id: 1, name: 'A' }]);
  });
});

describe('the bounds of server ids and email addresses', () => {
  it('server ids run from 1000 to 99999, as numbers and as text', () => {
    expect([999, 1000, 99999, 100000].map(isServerId)).toEqual([false, true, true, false]);
    expect(['999', '1000', '99999', '100000'].map(parseServerId)).toEqual([
      undefined,
      1000,
      99999,
      undefined,
    ]);
    const target = store();
    target.seed({ servers: [{ serverId: 1000 }, { serverId: 99999 }] });
    expect(target.exportState().servers.map((s) => s.serverId)).toEqual([1000, 99999]);
    for (const serverId of [999, 100000]) {
      expect(seedError({ servers: [{ serverId }] }).message).toBe(
        `servers[0].serverId: must be a 4- or 5-digit integer, got number ${serverId}`,
      );
    }
  });

  it('an email address of exactly 254 characters is accepted, 255 is not', () => {
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(185)}.com`;
    expect(at254).toHaveLength(254);
    expect(isValidEmail(at254)).toBe(true);
    expect(isValidEmail(`a${at254}`)).toBe(false);
    const target = store();
    target.seed(server({ contacts: [{ emailAddress: at254 }] }));
    expect(target.exportState().servers[0]!.contacts![0]!.emailAddress).toBe(at254);
  });
});
