import { describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  InvalidOptionError,
  SeedError,
  ServerExistsError,
  StateError,
  UnknownServerError,
} from '../../src/index.js';
import { basic, call, makeFake, smallSeed, useFake } from '../helpers/fake.js';

const fake = useFake();

async function dirty(target: FakeMarketingServer) {
  await call(target, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'new@example.com' } });
  await call(target, 'POST', 'customfields/Shoe');
  await call(target, 'DELETE', 'customfields/3');
  await call(target, 'POST', 'contacts/unsubscribe/1');
}

describe('reset', () => {
  it('returns to exactly the state after creation, ids and keys included', async () => {
    const initial = fake.exportState();
    await dirty(fake);
    const added = fake.addServer();
    fake.regenerateKey(1234);
    fake.setMaxContacts(1234, 1);
    fake.seed({ servers: [{ serverId: 4321, lists: [{ name: 'Later' }] }] });
    fake.reset();
    expect(fake.exportState()).toEqual(initial);
    expect(() => fake.server(added.serverId)).toThrow(UnknownServerError);
    // ids continue as after creation, not as before the reset
    const response = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'again@example.com' },
    });
    expect(response.json()).toEqual({ serverId: 1234, contactId: 4, listId: 1 });
  });

  it('is repeatable: the baseline is not changed by what happens after a reset', async () => {
    const initial = fake.exportState();
    await dirty(fake);
    fake.reset();
    await dirty(fake);
    fake.reset();
    expect(fake.exportState()).toEqual(initial);
  });
});

describe('resetServer', () => {
  it('resets one tenant and leaves the others alone', async () => {
    const initial = fake.exportState();
    await dirty(fake);
    await call(fake, 'PUT', 'lists/1/contacts', {
      auth: basic(56789, 'key-56789'),
      body: { emailAddress: 'other@example.com' },
    });
    const other = fake.exportState().servers[1];
    fake.resetServer(1234);
    expect(fake.exportState().servers.find((s) => s.serverId === 1234)).toEqual(initial.servers[0]);
    expect(fake.exportState().servers.find((s) => s.serverId === 56789)).toEqual(other);
  });

  it('removes a tenant added after creation; an id never seen throws', () => {
    const { serverId } = fake.addServer();
    fake.resetServer(serverId);
    expect(() => fake.server(serverId)).toThrow(UnknownServerError);
    expect(() => fake.resetServer(4242)).toThrow(UnknownServerError);
    expect(() => fake.resetServer(4242)).toThrow('Server 4242 does not exist in this fake');
  });
});

describe('addServer', () => {
  it('makes a tenant with a free 5-digit id and a fresh key that works at once', async () => {
    const { serverId, key } = fake.addServer();
    expect(serverId).toBeGreaterThanOrEqual(10000);
    expect(serverId).toBeLessThanOrEqual(99999);
    expect(key).toMatch(/^[\w-]{21}$/);
    expect((await call(fake, 'GET', 'lists', { auth: basic(serverId, key) })).status).toBe(200);
  });

  it('takes a given id, key and cap', async () => {
    expect(fake.addServer({ serverId: 4242, key: 'mine', maxContacts: 0 })).toEqual({
      serverId: 4242,
      key: 'mine',
    });
    fake.seed({ servers: [{ serverId: 4242, lists: [{ name: 'L' }] }] });
    const response = await call(fake, 'PUT', 'lists/1/contacts', {
      auth: basic(4242, 'mine'),
      body: { emailAddress: 'a@example.com' },
    });
    expect(response.status).toBe(403);
  });

  it.each([
    [{ serverId: 123 }, '4- or 5-digit'],
    [{ serverId: 100000 }, '4- or 5-digit'],
    [{ key: '' }, 'key must be 1 to 200 characters without control characters'],
    [{ key: '\u0085nelkey-x' }, 'key must be 1 to 200'],
    [{ key: '\u009fapc-key-x' }, 'key must be 1 to 200'],
    [{ key: 'ab\u2028cdef' }, 'key must be 1 to 200'],
    [{ key: 'ab\u2029cdef' }, 'key must be 1 to 200'],
    [{ key: '\ud800abcdef' }, 'lone surrogates'],
    [{ key: 'abcdef\udc00' }, 'lone surrogates'],
    [{ key: 'del\u007fkey' }, 'key must be 1 to 200'],
    [{ key: 'x'.repeat(201) }, 'key must be 1 to 200'],
    [{ key: 'tab\there' }, 'key must be 1 to 200'],
    [{ key: 42 as unknown as string }, 'key must be 1 to 200'],
    [{ maxContacts: 2 ** 53 }, 'maxContacts must be a whole number from 0 to 2^53 - 1'],
    [{ serverId: '1234' as unknown as number }, 'got the string "1234"'],
    [5 as unknown as object, 'addServer options must be an object'],
    [{ maxContacts: -1 }, 'whole number'],
  ])('%j -> InvalidOptionError', (options, message) => {
    const before = fake.exportState();
    expect(() => fake.addServer(options)).toThrow(InvalidOptionError);
    expect(() => fake.addServer(options)).toThrow(message);
    expect(fake.exportState()).toEqual(before);
  });

  it('an existing serverId -> ServerExistsError (409), nothing changes', () => {
    const before = fake.exportState();
    expect(() => fake.addServer({ serverId: 1234 })).toThrow(ServerExistsError);
    expect(() => fake.addServer({ serverId: 1234, key: 'another' })).toThrow(
      'Server 1234 already exists',
    );
    let caught: unknown;
    try {
      fake.addServer({ serverId: 1234 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ status: 409, code: 'SERVER_EXISTS', serverId: 1234 });
    expect(fake.exportState()).toEqual(before);
  });

  it('tenants used in parallel never see each other', async () => {
    const tenants = Array.from({ length: 8 }, () => fake.addServer());
    await Promise.all(
      tenants.map(async ({ serverId, key }, index) => {
        fake.seed({
          servers: [
            { serverId, lists: [{ name: `L${index}` }], customFields: [{ name: 'FirstName' }] },
          ],
        });
        const auth = basic(serverId, key);
        for (let i = 0; i < 5; i++) {
          await call(fake, 'PUT', 'lists/1/contacts', {
            auth,
            body: { emailAddress: `shared${i}@example.com`, firstName: `T${index}` },
          });
        }
        await call(fake, 'POST', `customfields/Only${index}`, { auth });
      }),
    );
    for (const [index, { serverId, key }] of tenants.entries()) {
      const view = fake.server(serverId);
      expect(view.contacts()).toHaveLength(5);
      expect(view.contacts().every((c) => c.customFields.FirstName === `T${index}`)).toBe(true);
      expect(view.customFields().map((f) => f.name)).toEqual(['FirstName', `Only${index}`]);
      const lists = (await call(fake, 'GET', 'lists', { auth: basic(serverId, key) })).json();
      expect(lists).toEqual([{ id: 1, serverId, name: `L${index}` }]);
    }
  });
});

describe('setMaxContacts and regenerateKey', () => {
  it('unknown servers throw UnknownServerError', () => {
    expect(() => fake.setMaxContacts(4242, 5)).toThrow(UnknownServerError);
    expect(() => fake.regenerateKey(4242)).toThrow(UnknownServerError);
    expect(() => fake.server(4242)).toThrow(UnknownServerError);
  });

  it('a cap below the current count keeps every contact and refuses new ones', async () => {
    fake.setMaxContacts(1234, 1);
    expect(fake.server(1234).contacts()).toHaveLength(3);
    const refused = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'dee@example.com' },
    });
    expect(refused.status).toBe(403);
    const existing = await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'cy@example.com' },
    });
    expect(existing.status).toBe(200);
  });

  it('a bad cap throws InvalidOptionError', () => {
    expect(() => fake.setMaxContacts(1234, -1)).toThrow(InvalidOptionError);
    expect(() => fake.setMaxContacts(1234, 2.5)).toThrow(InvalidOptionError);
    expect(fake.server(1234).maxContacts()).toBe(10);
  });
});

describe('server(id) view', () => {
  it('shows lists, contacts, fields, content and members as plain copies', () => {
    const view = fake.server(1234);
    expect(view.lists()).toEqual([
      { id: 1, serverId: 1234, name: 'Newsletter' },
      { id: 2, serverId: 1234, name: 'Customers & <Friends>' },
    ]);
    expect(view.contact('ANN@example.com')).toEqual({
      contactId: 1,
      emailAddress: 'Ann@Example.com',
      status: 'Active',
      customFields: { FirstName: 'Ann', City: 'Lisbon' },
      listIds: [1],
    });
    expect(view.contact(99)).toBeUndefined();
    expect(view.contact('nobody@example.com')).toBeUndefined();
    expect(view.listMembers(2).map((c) => c.contactId)).toEqual([2]);
    expect(view.customFields()).toHaveLength(3);
    expect(view.content()[0]).toEqual({
      id: 1,
      name: 'Welcome',
      created: '2026-01-05T10:00:00.000Z',
      updated: '2026-01-06T09:30:00.000Z',
    });
    view.contact(1)!.listIds.push(2);
    expect(view.contact(1)!.listIds).toEqual([1]);
  });

  it('follows the state across reset()', async () => {
    const view = fake.server(1234);
    await dirty(fake);
    expect(view.contacts()).toHaveLength(4);
    fake.reset();
    expect(view.contacts()).toHaveLength(3);
  });
});

describe('exportState and seed', () => {
  it('seed(exportState()) on a fresh fake reproduces the state, and the keys work', async () => {
    await dirty(fake);
    const exported = fake.exportState();
    await using copy = await createFakeMarketingServer({
      seed: JSON.parse(JSON.stringify(exported)),
    });
    expect(copy.exportState()).toEqual(exported);
    expect((await call(copy, 'GET', 'lists')).status).toBe(200);
  });

  it('seed() returns the credentials of the servers it added or extended', () => {
    const result = fake.seed({ servers: [{ serverId: 1234 }, { serverId: 4321, key: 'k' }] });
    expect(result).toEqual([
      { serverId: 1234, key: 'key-1234' },
      { serverId: 4321, key: 'k' },
    ]);
  });

  it('an invalid seed throws SeedError and changes nothing', () => {
    const before = fake.exportState();
    expect(() =>
      fake.seed({
        servers: [{ serverId: 4321 }, { serverId: 1234, contacts: [{ emailAddress: 'x' }] }],
      }),
    ).toThrow(SeedError);
    expect(fake.exportState()).toEqual(before);
  });

  it('createFakeMarketingServer rejects an invalid seed with SeedError', async () => {
    const seed = smallSeed();
    seed.servers[0]!.contacts![2]!.emailAddress = 'broken';
    await expect(createFakeMarketingServer({ seed })).rejects.toThrow(
      'servers[0].contacts[2].emailAddress: must be a well-formed email address',
    );
  });

  it('the maxContacts option is the default cap', async () => {
    await using capped = await createFakeMarketingServer({
      maxContacts: 1,
      seed: { servers: [{ serverId: 4321, key: 'k' }] },
    });
    expect(capped.server(4321).maxContacts()).toBe(1);
    expect(capped.addServer().serverId).toBeGreaterThan(0);
    await expect(createFakeMarketingServer({ maxContacts: -5 })).rejects.toThrow(
      InvalidOptionError,
    );
  });
});

describe('lifecycle', () => {
  it('url, baseUrl and ca throw before listen()', () => {
    expect(() => fake.url).toThrow(StateError);
    expect(() => fake.baseUrl).toThrow('call and await listen() first');
    expect(() => fake.ca).toThrow(StateError);
  });

  it('refuses a non-loopback host without an admin token', async () => {
    await expect(fake.listen({ host: '0.0.0.0', https: false })).rejects.toThrow(
      /not a loopback address/,
    );
    await expect(fake.listen({ key: 'k' })).rejects.toThrow('Give both key and cert');
  });

  it('close() is idempotent and a closed fake cannot listen', async () => {
    await fake.close();
    await fake.close();
    await expect(fake.listen()).rejects.toThrow(StateError);
  });

  it('two fakes in one process share nothing', async () => {
    await using other = await makeFake();
    await dirty(fake);
    expect(other.server(1234).contacts()).toHaveLength(3);
    expect(fake.server(1234).contacts()).toHaveLength(4);
  });
});
