import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectFakeMarketingServer,
  createFakeMarketingServer,
  type FakeMarketingServer,
  FaultRuleError,
  InvalidOptionError,
  type RemoteFakeMarketingServer,
  SeedError,
  ServerExistsError,
  StateError,
  type Tenant,
  type TenantSeed,
  UnknownServerError,
  WaitTimeoutError,
} from '../../src/index.js';

// The Tenant contract, run twice with the same code: on an in-process fake, and on a fake reached
// over its control API (HTTPS, an admin token) with connectFakeMarketingServer. What a test does
// with a tenant must not depend on where the fake runs.

const TOKEN = 'tenant-contract-token-0123456789abcdef';
const SEED: TenantSeed = {
  lists: [{ id: 1, name: 'Newsletter' }],
  contacts: [{ emailAddress: 'ann@example.com', lists: [1] }],
};
const addDee = {
  method: 'PUT',
  url: '/lists/1/contacts',
  payload: { emailAddress: 'dee@example.com' },
};

let local: FakeMarketingServer;
let remote: RemoteFakeMarketingServer;

beforeAll(async () => {
  local = await createFakeMarketingServer({
    adminToken: TOKEN,
    seed: { servers: [{ serverId: 1234, key: 'seeded' }] },
  });
  const { url, ca } = await local.listen();
  remote = await connectFakeMarketingServer({ url, ca, token: TOKEN });
});
afterAll(async () => {
  await remote?.close();
  await local?.close();
});

const makers: [string, () => { tenant(seed?: TenantSeed): Promise<Tenant> }][] = [
  ['in process', () => local],
  ['over the control API', () => remote],
];

describe.each(makers)('a tenant %s', (_where, maker) => {
  const tenant = (seed?: TenantSeed) => maker().tenant(seed);

  it('is made from its seed and answers with its credentials', async () => {
    await using a = await tenant(SEED);
    expect(a.authorization).toBe(
      `Basic ${Buffer.from(`${a.serverId}:${a.key}`).toString('base64')}`,
    );
    expect(a.baseUrl).toBe(`${local.url}/marketing/v1`);
    const lists = await a.inject('/lists');
    expect(lists.statusCode).toBe(200);
    expect(lists.json()).toEqual([{ id: 1, serverId: a.serverId, name: 'Newsletter' }]);
    const added = await a.inject(addDee);
    expect(added.json()).toEqual({ serverId: a.serverId, contactId: 2, listId: 1 });
    const state = await a.exportState();
    expect(state.contacts?.map((contact) => contact.emailAddress)).toEqual([
      'ann@example.com',
      'dee@example.com',
    ]);
  });

  it('refuses a bad seed and a taken id with the typed errors', async () => {
    const bad = await tenant({ lists: [{ name: 7 }] } as never).catch((e) => e);
    expect(bad).toBeInstanceOf(SeedError);
    expect(bad.message).toMatch(/^lists\[0\]\.name: /);
    await expect(tenant({ serverId: 1234 })).rejects.toBeInstanceOf(ServerExistsError);
  });

  it('has an outage and fault rules of its own', async () => {
    await using a = await tenant(SEED);
    await using b = await tenant(SEED);
    const outage = await a.maintenance({ times: 1 });
    expect(outage.id).toMatch(/^fault-\d+$/);
    expect((await a.inject('/lists')).statusCode).toBe(503);
    expect((await a.inject('/lists')).statusCode).toBe(200);
    const rule = await a.faults.add({ kind: 'status', status: 500, match: { path: '/content' } });
    expect((await a.inject('/content')).statusCode).toBe(500);
    expect((await b.inject('/content')).statusCode).toBe(200);
    expect((await a.faults.list()).map((view) => view.id)).toEqual([rule.id]);
    expect(await b.faults.list()).toEqual([]);
    expect(await b.faults.remove(rule.id)).toBe(false);
    await rule.remove();
    expect((await a.inject('/content')).statusCode).toBe(200);
    await a.faults.add({ kind: 'status', status: 502 });
    await a.faults.clear();
    expect(await a.faults.list()).toEqual([]);
    await expect(
      a.faults.add({ kind: 'reset', match: { serverId: b.serverId } }),
    ).rejects.toBeInstanceOf(FaultRuleError);
  });

  it('reads, waits for and archives its own journal, faulted requests included', async () => {
    await using a = await tenant(SEED);
    await using b = await tenant(SEED);
    await a.maintenance({ times: 1 });
    await a.inject('/lists');
    await b.inject('/lists');
    await a.inject(addDee);
    const entries = await a.requests();
    expect(entries.map((entry) => [entry.serverId, entry.authenticated, entry.status])).toEqual([
      [a.serverId, false, 503],
      [a.serverId, true, 200],
    ]);
    expect(await a.requests({ body: { emailAddress: 'dee@example.com' } })).toHaveLength(1);
    const waited = a.waitForRequest({ path: '/customfields' }, { timeoutMs: 5000 });
    await b.inject('/customfields');
    await a.inject('/customfields');
    expect((await waited).serverId).toBe(a.serverId);
    await expect(a.waitForRequest({ method: 'DELETE' }, { timeoutMs: 0 })).rejects.toBeInstanceOf(
      WaitTimeoutError,
    );
    expect((await a.requestsHar()).log.entries).toHaveLength(3);
    await expect(a.requests({ status: 'often' } as never)).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
  });

  it('sets its cap, and resets to its seed with its rules ended and its journal restarted', async () => {
    await using a = await tenant(SEED);
    await a.setMaxContacts(1);
    expect((await a.inject(addDee)).statusCode).toBe(403);
    await a.faults.add({ kind: 'status', status: 500, match: { path: '/content' } });
    await a.reset();
    expect(await a.requests()).toEqual([]);
    expect(await a.faults.list()).toEqual([]);
    expect((await a.inject(addDee)).statusCode).toBe(200);
    expect((await a.exportState()).maxContacts).toBe(10000);
  });

  it('closes for good: its key gets 401, its methods reject, a second close is quiet', async () => {
    const a = await tenant(SEED);
    await a.close();
    const refused = await local.inject({
      url: '/marketing/v1/lists',
      headers: { authorization: a.authorization },
    });
    expect(refused.statusCode).toBe(401);
    await expect(a.requests()).rejects.toBeInstanceOf(StateError);
    await expect(a.close()).resolves.toBeUndefined();
    expect(() => local.server(a.serverId)).toThrow(UnknownServerError);
  });
});

describe('the remote handle', () => {
  it('says what to fix when the fake is not there, not trusted, or the token is wrong', async () => {
    await expect(
      connectFakeMarketingServer({ url: 'https://127.0.0.1:1', ca: local.ca }),
    ).rejects.toThrow(/No fake answers at https:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    await expect(connectFakeMarketingServer({ url: local.url, token: TOKEN })).rejects.toThrow(
      /pass ca/,
    );
    await expect(
      connectFakeMarketingServer({ url: local.url, ca: local.ca, token: 'x'.repeat(32) }),
    ).rejects.toThrow(/Bearer <admin token>/);
    await expect(connectFakeMarketingServer({ url: 'not a url' })).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
    await expect(
      connectFakeMarketingServer({ url: local.url, ca: '/nonexistent/ca.pem' }),
    ).rejects.toThrow(/ca must be PEM text or the path of a PEM file/);
  });

  it('offers the fake-wide controls as promises', async () => {
    await using a = await remote.tenant(SEED);
    await a.inject('/lists');
    const [entry] = await remote.requests({ serverId: a.serverId });
    expect(entry?.status).toBe(200);
    const state = await remote.exportState();
    expect(state.servers.map((server) => server.serverId)).toContain(a.serverId);
    const rule = await remote.faults.add({
      kind: 'status',
      status: 500,
      match: { serverId: a.serverId },
    });
    expect((await remote.faults.list()).map((view) => view.id)).toContain(rule.id);
    expect(await remote.faults.remove(rule.id)).toBe(true);
    expect(await remote.faults.remove(rule.id)).toBe(false);
    const response = await remote.fetch('/__admin/health', {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
