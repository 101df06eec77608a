import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeMarketingServer, type FakeMarketingServer, type Seed } from '../../src/index.js';
import { basic, parseXml } from '../helpers/fake.js';
import { checkInvariants, ServerModel } from './model.js';

const SERVER_ID = 4321;
const KEY = 'model-key';
const AUTH = basic(SERVER_ID, KEY);
const NOW = new Date('2026-11-22T12:00:00Z');

// Small pools make collisions (same address in another case, a field created twice) likely.
const LOCAL_PARTS = ['ann', 'ANN', 'Ben', 'dee.lee+tag'];
const EMAILS = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...LOCAL_PARTS), fc.constantFrom('example.com', 'EXAMPLE.com'))
      .map(([local, domain]) => `${local}@${domain}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      'not-an-address',
      'a@b',
      'a b@example.com',
      '@example.com',
      'x@@example.com',
    ),
  },
);
/** Fields a server may start with: enough that the 20-field limit is reachable in one run. */
const INITIAL_FIELDS = [
  'FirstName',
  'LastName',
  'City',
  ...Array.from({ length: 17 }, (_, i) => `F${i}`),
];
const FIELD_NAMES = fc.constantFrom(
  'FirstName',
  'firstname',
  'LastName',
  'City',
  'CITY',
  'Shoe',
  'Id',
  'emailAddress',
  'ContactId',
  '<b>',
  '',
  'x'.repeat(51),
  ...Array.from({ length: 22 }, (_, i) => `F${i}`),
);
const VALUES = fc.constantFrom('', 'Oslo', 'Ann', 'a & b <c>', 'ünï');
const LIST_IDS = fc.constantFrom(1, 2, 3, 4);
const CONTACT_IDS = fc.integer({ min: 1, max: 8 });
const ACCEPT = fc.constantFrom('application/json', 'text/xml');

interface Step {
  describe: string;
  run(fake: FakeMarketingServer, model: ServerModel): Promise<{ status: number; expected: number }>;
}

async function request(
  fake: FakeMarketingServer,
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  accept: string,
  body?: unknown,
) {
  const response = await fake.inject({
    method,
    url: `/marketing/v1${url}`,
    headers: { authorization: AUTH, accept },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (response.body && response.statusCode !== 204) {
    // Every answer with a body must be well-formed in the negotiated format.
    if (accept === 'text/xml') parseXml(response.body);
    else JSON.parse(response.body);
  }
  return response.statusCode;
}

const weighted = (weight: number, arbitrary: fc.Arbitrary<Step>) => ({ weight, arbitrary });

const steps: fc.Arbitrary<Step> = fc.oneof(
  weighted(
    6,
    fc
      .record({
        listId: LIST_IDS,
        email: EMAILS,
        fields: fc.option(
          fc.array(fc.record({ name: FIELD_NAMES, value: VALUES }), { maxLength: 3 }),
          { nil: undefined },
        ),
        firstName: fc.option(VALUES, { nil: undefined }),
        lastName: fc.option(VALUES, { nil: undefined }),
        accept: ACCEPT,
      })
      .map(({ listId, email, fields, firstName, lastName, accept }) => ({
        describe: `PUT /lists/${listId}/contacts ${JSON.stringify({ email, fields, firstName, lastName })}`,
        async run(fake, model) {
          const body = {
            emailAddress: email,
            ...(fields === undefined
              ? {}
              : { customFields: fields.map((f) => ({ Name: f.name, Value: f.value })) }),
            ...(firstName === undefined ? {} : { firstName }),
            ...(lastName === undefined ? {} : { lastName }),
          };
          const expected = model.addByEmail(listId, email, fields, firstName, lastName);
          return {
            expected,
            status: await request(fake, 'PUT', `/lists/${listId}/contacts`, accept, body),
          };
        },
      })),
  ),
  weighted(
    2,
    fc
      .record({ listId: LIST_IDS, contactId: CONTACT_IDS, accept: ACCEPT })
      .map(({ listId, contactId, accept }) => ({
        describe: `PUT /lists/${listId}/contacts/${contactId}`,
        async run(fake, model) {
          const expected = model.addById(listId, contactId);
          return {
            expected,
            status: await request(fake, 'PUT', `/lists/${listId}/contacts/${contactId}`, accept),
          };
        },
      })),
  ),
  weighted(
    1,
    fc.record({ listId: LIST_IDS, contactId: CONTACT_IDS }).map(({ listId, contactId }) => ({
      describe: `DELETE /lists/${listId}/contacts/${contactId}`,
      async run(fake, model) {
        const expected = model.remove(
          listId,
          model.contacts.find((c) => c.id === contactId),
        );
        return {
          expected,
          status: await request(
            fake,
            'DELETE',
            `/lists/${listId}/contacts/${contactId}`,
            'application/json',
          ),
        };
      },
    })),
  ),
  weighted(
    1,
    fc.record({ listId: LIST_IDS, email: EMAILS }).map(({ listId, email }) => ({
      describe: `DELETE /lists/${listId}/contacts?emailAddress=${email}`,
      async run(fake, model) {
        const valid = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
        const expected = !model.lists.includes(listId)
          ? 404
          : !valid
            ? 400
            : model.remove(listId, model.contactByEmail(email));
        const url = `/lists/${listId}/contacts?emailAddress=${encodeURIComponent(email)}`;
        return { expected, status: await request(fake, 'DELETE', url, 'application/json') };
      },
    })),
  ),
  weighted(
    1,
    CONTACT_IDS.map((contactId) => ({
      describe: `POST /contacts/unsubscribe/${contactId}`,
      async run(fake, model) {
        const expected = model.unsubscribe(model.contacts.find((c) => c.id === contactId));
        return {
          expected,
          status: await request(fake, 'POST', `/contacts/unsubscribe/${contactId}`, 'text/xml'),
        };
      },
    })),
  ),
  weighted(
    1,
    EMAILS.map((email) => ({
      describe: `POST /contacts/unsubscribe ${email}`,
      async run(fake, model) {
        const valid = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
        const expected = valid ? model.unsubscribe(model.contactByEmail(email)) : 400;
        return {
          expected,
          status: await request(fake, 'POST', '/contacts/unsubscribe', 'application/json', {
            emailAddress: email,
          }),
        };
      },
    })),
  ),
  weighted(
    3,
    fc.record({ name: FIELD_NAMES, accept: ACCEPT }).map(({ name, accept }) => ({
      describe: `POST /customfields/${name}`,
      async run(fake, model) {
        const expected = model.createField(name);
        return {
          expected,
          status: await request(fake, 'POST', `/customfields/${encodeURIComponent(name)}`, accept),
        };
      },
    })),
  ),
  weighted(
    1,
    fc.integer({ min: 1, max: 25 }).map((id) => ({
      describe: `DELETE /customfields/${id}`,
      async run(fake, model) {
        const expected = model.deleteField(id);
        return {
          expected,
          status: await request(fake, 'DELETE', `/customfields/${id}`, 'application/json'),
        };
      },
    })),
  ),
  weighted(
    1,
    // A cap at or above the current count (lowering it below is covered in handle.test.ts).
    fc.integer({ min: 0, max: 3 }).map((headroom) => ({
      describe: `setMaxContacts(contacts + ${headroom})`,
      async run(fake, model) {
        model.cap = model.contacts.length + headroom;
        fake.setMaxContacts(SERVER_ID, model.cap);
        return { expected: 0, status: 0 };
      },
    })),
  ),
);

async function jsonAndXmlAgree(fake: FakeMarketingServer) {
  const get = async (path: string, accept: string) =>
    (await fake.inject({ url: `/marketing/v1${path}`, headers: { authorization: AUTH, accept } }))
      .body;
  const lists = JSON.parse(await get('/lists', 'application/json')) as unknown[];
  const listsXml = parseXml(await get('/lists', 'text/xml')) as {
    ArrayOfList: { List?: Record<string, string>[] } | '';
  };
  const xmlLists = (listsXml.ArrayOfList === '' ? [] : (listsXml.ArrayOfList.List ?? [])).map(
    (l) => ({
      id: Number(l.Id),
      serverId: Number(l.ServerId),
      name: l.Name,
    }),
  );
  expect(xmlLists).toEqual(lists);
  const fields = JSON.parse(await get('/customfields', 'application/json')) as unknown[];
  const fieldsXml = parseXml(await get('/customfields', 'text/xml')) as {
    ArrayOfCustomField: { CustomField?: Record<string, string>[] } | '';
  };
  const xmlFields = (
    fieldsXml.ArrayOfCustomField === '' ? [] : (fieldsXml.ArrayOfCustomField.CustomField ?? [])
  ).map((f) => ({
    customFieldNameId: Number(f.CustomFieldNameId),
    name: f.Name,
    serverId: Number(f.ServerId),
    customFieldType: f.CustomFieldType,
  }));
  expect(xmlFields).toEqual(fields);
}

function initialSeed(cap: number, names: readonly string[]): Seed {
  return {
    servers: [
      {
        serverId: SERVER_ID,
        key: KEY,
        maxContacts: cap,
        customFields: names.map((name, index) => ({ customFieldNameId: index + 1, name })),
        lists: [1, 2, 3].map((id) => ({ id, name: `List ${id}` })),
      },
    ],
  };
}

describe('model-based: random API call sequences agree with a model of the specification', () => {
  it('statuses, state, invariants, JSON = XML, and seed(exportState()) round trips', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 6 }),
        fc.subarray(INITIAL_FIELDS),
        fc.array(steps, { minLength: 1, maxLength: 40 }),
        async (cap, names, sequence) => {
          const model = new ServerModel(cap, names);
          await using fake = await createFakeMarketingServer({
            seed: initialSeed(cap, names),
            clock: () => NOW,
          });
          for (const step of sequence) {
            const before = fake.exportState();
            const { status, expected } = await step.run(fake, model);
            expect(status, step.describe).toBe(expected);
            expect(status, step.describe).toBeLessThan(500);
            const after = fake.exportState();
            if (status >= 400) expect(after, `${step.describe} changed state`).toEqual(before);
            expect(after.servers[0], step.describe).toEqual(model.toServerSeed(SERVER_ID, KEY));
            expect(checkInvariants(after), step.describe).toEqual([]);
          }
          await jsonAndXmlAgree(fake);
          await using copy = await createFakeMarketingServer({
            seed: structuredClone(fake.exportState()),
            clock: () => NOW,
          });
          expect(copy.exportState()).toEqual(fake.exportState());
        },
      ),
      { numRuns: 200 },
    );
  });
});
