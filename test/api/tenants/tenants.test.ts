import { describe, expect, it } from 'vitest';
import {
  FaultRuleError,
  InvalidOptionError,
  SeedError,
  ServerExistsError,
  StateError,
  type TenantSeed,
  UnknownServerError,
  WaitTimeoutError,
} from '../../../src/index.js';
import { AUTH, basic, call, SERVER_ID, useFake } from '../../helpers/fake.js';

// fake.tenant(seed): one server a test owns, scoped in its data, its fault rules, its outage and
// its journal, and gone when the test ends.

const fake = useFake();

const NEWSLETTER: TenantSeed = {
  customFields: [{ name: 'City' }],
  lists: [{ id: 1, name: 'Newsletter' }],
  contacts: [{ emailAddress: 'ann@example.com', customFields: { City: 'Porto' }, lists: [1] }],
};

const addDee = {
  method: 'PUT',
  url: '/lists/1/contacts',
  payload: { emailAddress: 'dee@example.com' },
};

describe('creating a tenant', () => {
  it('makes a server from one server seed, with credentials and the Basic header ready', async () => {
    const tenant = await fake.tenant(NEWSLETTER);
    expect(tenant.serverId).toBeGreaterThanOrEqual(10000);
    expect(tenant.serverId).toBeLessThanOrEqual(99999);
    expect(tenant.key).toMatch(/^[\w-]{21}$/);
    expect(tenant.authorization).toBe(basic(tenant.serverId, tenant.key));
    const lists = await fake.inject({
      url: '/marketing/v1/lists',
      headers: { authorization: tenant.authorization },
    });
    expect(lists.json()).toEqual([{ id: 1, serverId: tenant.serverId, name: 'Newsletter' }]);
    expect(tenant.server.contact('ANN@example.com')).toMatchObject({
      customFields: { City: 'Porto' },
      listIds: [1],
    });
  });

  it('takes a given serverId and key, and an empty seed', async () => {
    const chosen = await fake.tenant({ serverId: 4321, key: 'my-key' });
    expect([chosen.serverId, chosen.key]).toEqual([4321, 'my-key']);
    const empty = await fake.tenant();
    expect(empty.server.lists()).toEqual([]);
  });

  it('refuses a bad seed with the path from the server, adding nothing', async () => {
    const before = fake.exportState();
    const error = await fake
      .tenant({
        lists: [
          { id: 1, name: 'A' },
          { id: 1, name: 'B' },
        ],
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(SeedError);
    expect(error.message).toMatch(/^lists\[1\]\.id: /);
    await expect(fake.tenant('nope' as never)).rejects.toBeInstanceOf(InvalidOptionError);
    expect(fake.exportState()).toEqual(before);
  });

  it('refuses a serverId the fake holds', async () => {
    await expect(fake.tenant({ serverId: SERVER_ID })).rejects.toBeInstanceOf(ServerExistsError);
  });

  it('gives its baseUrl once the fake listens, and says why before', async () => {
    const tenant = await fake.tenant();
    expect(() => tenant.baseUrl).toThrow(StateError);
    const { baseUrl } = await fake.listen({ https: false });
    expect(tenant.baseUrl).toBe(baseUrl);
  });
});

describe('inject', () => {
  it('sends with its credentials, under /marketing/v1 for a short path, JSON for objects', async () => {
    const tenant = await fake.tenant(NEWSLETTER);
    const added = await tenant.inject(addDee);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ serverId: tenant.serverId, contactId: 2, listId: 1 });
    const beta = await tenant.inject({
      method: 'POST',
      url: '/marketing/beta/contacts/unsubscribe',
      payload: { emailAddress: 'dee@example.com' },
    });
    expect(beta.statusCode).toBeLessThan(500);
    const xml = await tenant.inject({ url: 'lists', headers: { Accept: 'application/xml' } });
    expect(xml.headers['content-type']).toMatch(/xml/);
    expect(xml.body).toContain('<Name>Newsletter</Name>');
    const other = await tenant.inject({ url: '/lists', headers: { authorization: AUTH } });
    expect(other.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ serverId: SERVER_ID })]),
    );
  });
});

describe('scoped fault rules and outages', () => {
  it("an outage of one tenant leaves other tenants and the seed's servers alone", async () => {
    const [a, b] = [await fake.tenant(NEWSLETTER), await fake.tenant(NEWSLETTER)];
    const outage = await a.maintenance();
    expect((await a.inject('/lists')).statusCode).toBe(503);
    expect((await b.inject('/lists')).statusCode).toBe(200);
    expect((await call(fake, 'GET', 'lists')).status).toBe(200);
    await outage.remove();
    expect((await a.inject('/lists')).statusCode).toBe(200);
  });

  it('adds rules that match its server only, lists and clears its own', async () => {
    const [a, b] = [await fake.tenant(NEWSLETTER), await fake.tenant(NEWSLETTER)];
    const global = fake.faults.add({ kind: 'delay', delayMs: 0, match: { path: '/content' } });
    const rule = await a.faults.add({ kind: 'status', status: 500, match: { path: '/lists' } });
    await b.faults.add({ kind: 'status', status: 502 });
    expect((await a.inject('/lists')).statusCode).toBe(500);
    expect((await a.inject('/customfields')).statusCode).toBe(200);
    expect((await b.inject('/customfields')).statusCode).toBe(502);
    expect(await a.faults.list()).toEqual([
      {
        id: rule.id,
        kind: 'status',
        status: 500,
        match: { path: '/lists', serverId: a.serverId },
        hits: 1,
      },
    ]);
    // Another tenant's rule and a global rule are not its own to remove.
    const [bRule] = await b.faults.list();
    expect(await a.faults.remove(bRule!.id)).toBe(false);
    expect(await a.faults.remove(global.id)).toBe(false);
    await a.faults.clear();
    expect(await a.faults.list()).toEqual([]);
    expect((await b.inject('/customfields')).statusCode).toBe(502);
    expect(fake.faults.list().map((view) => view.id)).toEqual([global.id, bRule!.id]);
  });

  it('refuses a rule aimed at another server, and a bad rule, adding nothing', async () => {
    const tenant = await fake.tenant();
    const error = await tenant.faults
      .add({ kind: 'reset', match: { serverId: SERVER_ID } })
      .catch((e) => e);
    expect(error).toBeInstanceOf(FaultRuleError);
    expect(error.message).toContain(`its own server, ${tenant.serverId}`);
    await expect(tenant.faults.add({ kind: 'nope' } as never)).rejects.toBeInstanceOf(
      FaultRuleError,
    );
    await expect(tenant.maintenance({ mode: 'down' } as never)).rejects.toBeInstanceOf(
      FaultRuleError,
    );
    expect(fake.faults.list()).toEqual([]);
  });

  it('takes a rule naming its own server', async () => {
    const tenant = await fake.tenant();
    await tenant.faults.add({ kind: 'status', status: 418, match: { serverId: tenant.serverId } });
    expect((await tenant.inject('/lists')).statusCode).toBe(418);
  });

  it('sets its own contact cap', async () => {
    const [a, b] = [await fake.tenant(NEWSLETTER), await fake.tenant(NEWSLETTER)];
    await a.setMaxContacts(1);
    expect((await a.inject(addDee)).statusCode).toBe(403);
    expect((await b.inject(addDee)).statusCode).toBe(200);
    await expect(a.setMaxContacts(-1)).rejects.toBeInstanceOf(InvalidOptionError);
  });
});

describe("a tenant's journal", () => {
  it('holds every exchange that named its server, faulted and refused ones included', async () => {
    const [a, b] = [await fake.tenant(NEWSLETTER), await fake.tenant()];
    await a.maintenance({ times: 1 });
    await a.inject('/lists');
    await a.inject('/lists');
    await a.inject({ url: '/lists', headers: { authorization: basic(a.serverId, 'wrong') } });
    await b.inject('/lists');
    const entries = await a.requests();
    expect(
      entries.map(({ serverId, authenticated, status, fault }) => ({
        serverId,
        authenticated,
        status,
        fault,
      })),
    ).toEqual([
      { serverId: a.serverId, authenticated: false, status: 503, fault: 'unavailable' },
      { serverId: a.serverId, authenticated: true, status: 200, fault: undefined },
      { serverId: a.serverId, authenticated: false, status: 401, fault: undefined },
    ]);
    expect((await b.requests()).map((entry) => entry.serverId)).toEqual([b.serverId]);
    expect(await a.requests({ status: '5xx' })).toHaveLength(1);
  });

  it('records connection faults with the claimed server too', async () => {
    const tenant = await fake.tenant();
    await tenant.faults.add({ kind: 'reset', times: 1 });
    await expect(tenant.inject('/lists')).rejects.toThrow();
    const [entry] = await tenant.requests();
    expect(entry).toMatchObject({
      serverId: tenant.serverId,
      authenticated: false,
      status: 0,
      fault: 'reset',
    });
  });

  it('refuses a filter naming another server, and a bad filter', async () => {
    const tenant = await fake.tenant();
    await expect(tenant.requests({ serverId: SERVER_ID })).rejects.toThrow(
      /another server|not this tenant|server \d+ only/,
    );
    await expect(tenant.requests({ serverId: tenant.serverId })).resolves.toEqual([]);
    await expect(tenant.requests({ status: 'often' } as never)).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
  });

  it('waits for its own requests only', async () => {
    const [a, b] = [await fake.tenant(), await fake.tenant()];
    const waiting = a.waitForRequest({ path: '/lists' }, { timeoutMs: 2000 });
    await b.inject('/lists');
    await a.inject('/lists');
    expect((await waiting).serverId).toBe(a.serverId);
    await b.inject('/customfields');
    const error = await a
      .waitForRequest({ path: '/customfields' }, { timeoutMs: 0 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
  });

  it('gives its HAR, with its entries only', async () => {
    const [a, b] = [await fake.tenant(), await fake.tenant()];
    await a.inject('/lists');
    await b.inject('/lists');
    const har = await a.requestsHar();
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0]!._serverId).toBe(a.serverId);
    expect(JSON.stringify(har)).not.toContain(a.key);
  });

  it('keeps the fake-wide journal whole', async () => {
    const [a, b] = [await fake.tenant(), await fake.tenant()];
    await a.inject('/lists');
    await b.inject('/lists');
    expect(fake.requests().map((entry) => entry.serverId)).toEqual([a.serverId, b.serverId]);
  });
});

describe('reset and close', () => {
  it('reset goes back to its own seed: data, key and cap; its rules end; its journal starts again', async () => {
    const tenant = await fake.tenant({ ...NEWSLETTER, maxContacts: 5 });
    const other = await fake.tenant(NEWSLETTER);
    await tenant.inject(addDee);
    await other.inject(addDee);
    await tenant.setMaxContacts(0);
    fake.regenerateKey(tenant.serverId);
    await tenant.faults.add({ kind: 'status', status: 500, match: { path: '/content' } });
    await tenant.reset();
    expect(tenant.server.contacts().map((contact) => contact.emailAddress)).toEqual([
      'ann@example.com',
    ]);
    expect(tenant.server.key()).toBe(tenant.key);
    expect(tenant.server.maxContacts()).toBe(5);
    expect(await tenant.faults.list()).toEqual([]);
    expect(await tenant.requests()).toEqual([]);
    expect((await tenant.inject('/content')).statusCode).toBe(200);
    expect(await tenant.requests()).toHaveLength(1);
    // Its neighbour keeps its contact and journal.
    expect(other.server.contacts()).toHaveLength(2);
    expect(await other.requests()).toHaveLength(1);
  });

  it("the fake's reset keeps tenants, back to their seed; addServer servers go", async () => {
    const tenant = await fake.tenant(NEWSLETTER);
    const added = fake.addServer();
    await tenant.inject(addDee);
    fake.reset();
    expect(tenant.server.contacts()).toHaveLength(1);
    expect((await tenant.inject('/lists')).statusCode).toBe(200);
    expect(() => fake.server(added.serverId)).toThrow(UnknownServerError);
    expect(await tenant.requests()).toHaveLength(1);
  });

  it('resetServer of a tenant goes back to its seed too', async () => {
    const tenant = await fake.tenant(NEWSLETTER);
    await tenant.inject(addDee);
    fake.resetServer(tenant.serverId);
    expect(tenant.server.contacts()).toHaveLength(1);
  });

  it('close removes the server for good: its key gets 401, its rules end, its methods say so', async () => {
    const tenant = await fake.tenant(NEWSLETTER);
    await tenant.faults.add({ kind: 'no-response', match: { path: '/content' } });
    await tenant.close();
    const refused = await fake.inject({
      url: '/marketing/v1/lists',
      headers: { authorization: tenant.authorization },
    });
    expect(refused.statusCode).toBe(401);
    expect(fake.faults.list()).toEqual([]);
    fake.reset();
    expect(() => fake.server(tenant.serverId)).toThrow(UnknownServerError);
    await expect(tenant.requests()).rejects.toBeInstanceOf(StateError);
    await expect(tenant.inject('/lists')).rejects.toThrow(`Tenant ${tenant.serverId} is closed`);
    await expect(tenant.close()).resolves.toBeUndefined();
  });

  it('is disposed by await using', async () => {
    let serverId = 0;
    {
      await using tenant = await fake.tenant();
      serverId = tenant.serverId;
      expect(fake.server(serverId).serverId).toBe(serverId);
    }
    expect(() => fake.server(serverId)).toThrow(UnknownServerError);
  });

  it('exports its state as one server of a seed, which makes the same tenant again', async () => {
    const tenant = await fake.tenant(NEWSLETTER);
    await tenant.inject(addDee);
    const state = await tenant.exportState();
    expect(state).toMatchObject({
      serverId: tenant.serverId,
      key: tenant.key,
      lists: [{ id: 1, name: 'Newsletter' }],
    });
    await tenant.close();
    const again = await fake.tenant(state);
    expect(again.server.contacts().map((contact) => contact.emailAddress)).toEqual([
      'ann@example.com',
      'dee@example.com',
    ]);
  });

  it('no tenant is made once the fake is closed', async () => {
    await fake.close();
    await expect(fake.tenant()).rejects.toBeInstanceOf(StateError);
  });
});
