import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer, type FakeMarketingServer } from '../../src/index.js';
import { AUTH, smallSeed } from '../helpers/fake.js';

/**
 * Whatever the fake accepted round-trips: a fake driven through the API (JSON and XML answers,
 * the control API too) with hostile names and values exports a state that a fresh fake takes
 * back exactly, through seed(), through POST /__admin/seed with GET /__admin/state, and through
 * the state file.
 */

const HOSTILE = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__defineGetter__',
  'valueOf',
  '\u0000',
  'a\u0000b',
  'x'.repeat(50),
  'y'.repeat(255),
  '\u{1F600}',
  '\u{1D518}\u{1D52B}',
  '\ud800',
  '\udfff',
  '\ufffe',
  '<b>',
  '&amp;',
  ']]>',
  '"quoted"',
  "it's",
  'tab\there',
  'Ω',
  'FirstName',
  'city',
  'City',
  'emailaddress',
  ' ',
];
const TEXT = fc.oneof(
  fc.constantFrom(...HOSTILE),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
);
const LOCAL_PARTS = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'ann',
    'Ann',
    'ben',
    "o'neil",
    '<x>',
    '&',
    '\u{1F600}',
  ),
  fc.constantFrom('l'.repeat(240), 'q+tag', 'Ω'),
  fc.stringMatching(/^[a-z0-9._%+-]{1,20}$/),
);
const EMAILS = LOCAL_PARTS.map((local) => `${local}@example.com`);
const ACCEPT = fc.constantFrom('application/json', 'application/xml', 'text/xml', undefined);

type Action =
  | { kind: 'field'; name: string }
  | { kind: 'deleteField'; id: number }
  | {
      kind: 'addByEmail';
      listId: number;
      email: string;
      values: { Name: string; Value: string }[];
      firstName: string | undefined;
    }
  | { kind: 'addById'; listId: number; contactId: number }
  | { kind: 'remove'; listId: number; contactId: number }
  | { kind: 'unsubscribe'; email: string }
  | { kind: 'server'; key: string; maxContacts: number }
  | { kind: 'cap'; maxContacts: number };

const ACTION: fc.Arbitrary<Action> = fc.oneof(
  { weight: 3, arbitrary: TEXT.map((name) => ({ kind: 'field' as const, name })) },
  fc.integer({ min: 1, max: 8 }).map((id) => ({ kind: 'deleteField' as const, id })),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('addByEmail' as const),
      listId: fc.integer({ min: 1, max: 2 }),
      email: EMAILS,
      values: fc.array(fc.record({ Name: TEXT, Value: TEXT }), { maxLength: 3 }),
      firstName: fc.option(TEXT, { nil: undefined }),
    }),
  },
  fc.record({
    kind: fc.constant('addById' as const),
    listId: fc.integer({ min: 1, max: 2 }),
    contactId: fc.integer({ min: 1, max: 6 }),
  }),
  fc.record({
    kind: fc.constant('remove' as const),
    listId: fc.integer({ min: 1, max: 2 }),
    contactId: fc.integer({ min: 1, max: 6 }),
  }),
  fc
    .oneof(EMAILS, fc.constantFrom('ann@example.com', 'BEN@example.com', '__proto__@example.com'))
    .map((email) => ({ kind: 'unsubscribe' as const, email })),
  fc.record({
    kind: fc.constant('server' as const),
    key: TEXT,
    maxContacts: fc.integer({ min: 0, max: 100 }),
  }),
  fc.integer({ min: 0, max: 20 }).map((maxContacts) => ({ kind: 'cap' as const, maxContacts })),
);

/** Percent-encoded; a lone surrogate (no UTF-8 form) is sent as the bytes of one. */
function pathText(text: string): string {
  const lone = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
  return text
    .split(lone)
    .map((part) => (lone.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}

async function perform(fake: FakeMarketingServer, action: Action, accept: string | undefined) {
  const api = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown) =>
    fake.inject({
      method,
      url: path.startsWith('/__admin') ? path : `/marketing/v1${path}`,
      headers: {
        ...(path.startsWith('/__admin') ? {} : { authorization: AUTH }),
        ...(accept === undefined ? {} : { accept }),
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  switch (action.kind) {
    case 'field':
      return api('POST', `/customfields/${pathText(action.name)}`);
    case 'deleteField':
      return api('DELETE', `/customfields/${action.id}`);
    case 'addByEmail':
      return api('PUT', `/lists/${action.listId}/contacts`, {
        emailAddress: action.email,
        customFields: action.values,
        ...(action.firstName === undefined ? {} : { firstName: action.firstName }),
      });
    case 'addById':
      return api('PUT', `/lists/${action.listId}/contacts/${action.contactId}`);
    case 'remove':
      return api('DELETE', `/lists/${action.listId}/contacts/${action.contactId}`);
    case 'unsubscribe':
      return api('POST', '/contacts/unsubscribe', { emailAddress: action.email });
    case 'server':
      return api('POST', '/__admin/servers', { key: action.key, maxContacts: action.maxContacts });
    case 'cap':
      return api('PUT', '/__admin/servers/1234/max-contacts', { maxContacts: action.maxContacts });
  }
}

/** Calls that create items after a round trip: a field, a contact. */
const AFTER_TRIP: Action[] = [
  { kind: 'field', name: 'AfterTrip' },
  {
    kind: 'addByEmail',
    listId: 1,
    email: 'after-trip@example.com',
    values: [],
    firstName: undefined,
  },
];

/** A run in which the fake accepts a call of each kind the test counts. */
const EVERY_KIND_ACCEPTED: [Action, string | undefined][] = [
  [{ kind: 'field', name: 'Example' }, undefined],
  [
    {
      kind: 'addByEmail',
      listId: 1,
      email: 'example@example.com',
      values: [],
      firstName: undefined,
    },
    'text/xml',
  ],
  [{ kind: 'unsubscribe', email: 'ann@example.com' }, 'application/json'],
  [{ kind: 'server', key: 'example-key-1', maxContacts: 10 }, undefined],
  [{ kind: 'cap', maxContacts: 20 }, undefined],
];

const directory = mkdtempSync(join(tmpdir(), 'fms-round-trip-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('whatever the fake accepted round-trips', () => {
  it('through seed(exportState()), POST /__admin/seed of GET /__admin/state, and the state file', async () => {
    let run = 0;
    // What was accepted, so the property cannot pass by refusing everything.
    const accepted = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(ACTION, ACCEPT), { minLength: 1, maxLength: 25 }),
        async (actions) => {
          const stateFile = join(directory, `state-${run++}.json`);
          const fake = await createFakeMarketingServer({ seed: smallSeed(), stateFile });
          try {
            for (const [action, accept] of actions) {
              const response = await perform(fake, action, accept);
              expect(response.statusCode, JSON.stringify(action)).toBeLessThan(500);
              if (response.statusCode < 300) {
                accepted.set(action.kind, (accepted.get(action.kind) ?? 0) + 1);
              }
            }
            const state = fake.exportState();
            const text = JSON.stringify(state);

            await using fresh = await createFakeMarketingServer();
            fresh.seed(state);
            expect(JSON.stringify(fresh.exportState())).toBe(text);

            const exported = await fake.inject({ url: '/__admin/state' });
            expect(exported.statusCode).toBe(200);
            await using seeded = await createFakeMarketingServer();
            const seeding = await seeded.inject({
              method: 'POST',
              url: '/__admin/seed',
              headers: { 'content-type': 'application/json' },
              payload: exported.body,
            });
            expect(seeding.statusCode, seeding.body).toBe(200);
            expect(JSON.stringify(seeded.exportState())).toBe(text);

            fake.saveState();
            await using loaded = await createFakeMarketingServer({ stateFile });
            expect(JSON.stringify(loaded.exportState())).toBe(text);

            // Not only the state: what comes next too. The same calls give every copy the same
            // new ids as the original (deleted ids are not handed out again).
            const after: string[] = [];
            for (const copy of [fake, fresh, seeded, loaded]) {
              for (const action of AFTER_TRIP) await perform(copy, action, undefined);
              after.push(JSON.stringify(copy.exportState()));
            }
            expect(new Set(after).size).toBe(1);
          } finally {
            await fake.close();
          }
        },
      ),
      // One run of each kind the fake accepts, besides the random ones: 30 random runs may hold
      // no accepted unsubscribe (only the seed's addresses are), and the check below needs one.
      { numRuns: 30, examples: [[EVERY_KIND_ACCEPTED]] },
    );
    for (const kind of ['field', 'addByEmail', 'server', 'cap', 'unsubscribe']) {
      expect(accepted.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
    // Saves leave only the state files.
    expect(readdirSync(directory).every((name) => /^state-\d+\.json$/.test(name))).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a deleted custom field id is not reused by a copy made from the export', async () => {
    await using fake = await createFakeMarketingServer({ seed: smallSeed() });
    const api = (target: FakeMarketingServer, method: 'POST' | 'DELETE', path: string) =>
      target.inject({ method, url: `/marketing/v1${path}`, headers: { authorization: AUTH } });
    const created = (await api(fake, 'POST', '/customfields/Temp')).json() as {
      customFieldNameId: number;
    };
    expect(
      (await api(fake, 'DELETE', `/customfields/${created.customFieldNameId}`)).statusCode,
    ).toBe(204);
    const state = fake.exportState();
    expect(state.servers[0]!.nextIds?.customField).toBe(created.customFieldNameId + 1);
    await using copy = await createFakeMarketingServer({ seed: state });
    const next = [fake, copy].map(async (target) =>
      (await api(target, 'POST', '/customfields/Next')).json(),
    );
    const [original, copied] = await Promise.all(next);
    expect(copied).toEqual(original);
    expect(original).toMatchObject({ customFieldNameId: created.customFieldNameId + 1 });
  });

  it('a custom field named __proto__ made through the API seeds back (defect 8)', async () => {
    await using fake = await createFakeMarketingServer({ seed: smallSeed() });
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const created = await fake.inject({
        method: 'POST',
        url: `/marketing/v1/customfields/${name}`,
        headers: { authorization: AUTH },
      });
      expect(created.statusCode).toBe(200);
    }
    const added = await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: { authorization: AUTH },
      payload: {
        emailAddress: 'proto@example.com',
        customFields: [
          { Name: '__proto__', Value: '{"polluted":true}' },
          { Name: 'constructor', Value: 'c' },
        ],
      },
    });
    expect(added.statusCode).toBe(200);
    const exported = await fake.inject({ url: '/__admin/state' });
    expect(exported.body).toContain('"__proto__":"{\\"polluted\\":true}"');

    await using fresh = await createFakeMarketingServer();
    const seeding = await fresh.inject({
      method: 'POST',
      url: '/__admin/seed',
      headers: { 'content-type': 'application/json' },
      payload: exported.body,
    });
    expect(seeding.statusCode, seeding.body).toBe(200);
    expect(fresh.exportState()).toEqual(fake.exportState());
    const contact = fresh.server(1234).contact('proto@example.com');
    expect(contact?.customFields).toMatchObject({ constructor: 'c' });
    expect(Object.getOwnPropertyDescriptor(contact?.customFields, '__proto__')?.value).toBe(
      '{"polluted":true}',
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
