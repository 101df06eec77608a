import { describe, expect, it } from 'vitest';
import { basic, call, SERVER_ID, useFake } from '../../../helpers/fake.js';

// The control API of tenants (/__admin/tenants): what a test in another process calls to own one
// server of a shared fake. The remote handle's own behaviour is tested in
// test/e2e/tenant-contract.test.ts; here, the routes' answers and refusals.

const fake = useFake();

async function admin(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await fake.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body, json: () => response.json() };
}

async function createTenant(seed: unknown = { lists: [{ id: 1, name: 'News' }] }) {
  const created = await admin('POST', '/__admin/tenants', seed);
  expect(created.status).toBe(201);
  return created.json() as { serverId: number; key: string; authorization: string };
}

describe('POST /__admin/tenants', () => {
  it('creates a tenant from one server seed and answers its credentials and header', async () => {
    const { serverId, key, authorization } = await createTenant();
    expect(authorization).toBe(basic(serverId, key));
    expect(fake.server(serverId).lists()).toEqual([{ id: 1, serverId, name: 'News' }]);
    const empty = await admin('POST', '/__admin/tenants');
    expect(empty.status).toBe(201);
  });

  it('refuses a bad seed, a body that is not an object, and a taken id, changing nothing', async () => {
    const before = fake.exportState();
    const bad = await admin('POST', '/__admin/tenants', { lists: [{ id: 0, name: 'x' }] });
    expect(bad.status).toBe(400);
    expect(bad.json().message).toMatch(/^lists\[0\]\.id: /);
    const array = await admin('POST', '/__admin/tenants', [1]);
    expect(array.status).toBe(400);
    const taken = await admin('POST', '/__admin/tenants', { serverId: SERVER_ID });
    expect(taken.status).toBe(409);
    expect(fake.exportState()).toEqual(before);
  });
});

describe('/__admin/tenants/{serverId}', () => {
  it('scopes an outage, fault rules, the journal, the cap and the state to one server', async () => {
    const a = await createTenant();
    const b = await createTenant();
    const base = `/__admin/tenants/${a.serverId}`;
    const outage = await admin('POST', `${base}/maintenance`, { times: 1 });
    expect(outage.status).toBe(201);
    expect(outage.json()).toMatchObject({
      kind: 'unavailable',
      times: 1,
      match: { serverId: a.serverId },
    });
    expect((await call(fake, 'GET', 'lists', { auth: a.authorization })).status).toBe(503);
    expect((await call(fake, 'GET', 'lists', { auth: b.authorization })).status).toBe(200);
    expect((await call(fake, 'GET', 'lists', { auth: a.authorization })).status).toBe(200);

    const journal = await admin('GET', `${base}/requests`);
    expect(journal.json().map((entry: { status: number }) => entry.status)).toEqual([503, 200]);
    const filtered = await admin('GET', `${base}/requests?status=503`);
    expect(filtered.json()).toHaveLength(1);
    const har = await admin('GET', `${base}/requests.har`);
    expect(har.json().log.entries).toHaveLength(2);
    const waited = await admin('GET', `${base}/requests/wait?status=200&timeoutMs=0`);
    expect(waited.json()).toMatchObject({ serverId: a.serverId, status: 200 });
    const missed = await admin('GET', `${base}/requests/wait?method=DELETE&timeoutMs=0`);
    expect(missed.status).toBe(404);
    const other = await admin('GET', `${base}/requests?serverId=${b.serverId}`);
    expect(other.status).toBe(400);

    const rule = await admin('POST', `${base}/faults`, { kind: 'status', status: 500 });
    expect(rule.status).toBe(201);
    const { id } = rule.json();
    expect(
      (await admin('GET', `${base}/faults`)).json().map((view: { id: string }) => view.id),
    ).toEqual([id]);
    expect((await admin('GET', `/__admin/tenants/${b.serverId}/faults`)).json()).toEqual([]);
    expect((await admin('DELETE', `/__admin/tenants/${b.serverId}/faults/${id}`)).status).toBe(404);
    expect((await admin('DELETE', `${base}/faults/${id}`)).status).toBe(204);
    await admin('POST', `${base}/faults`, { kind: 'status', status: 500 });
    expect((await admin('DELETE', `${base}/faults`)).status).toBe(204);
    expect((await admin('GET', `${base}/faults`)).json()).toEqual([]);
    const aimed = await admin('POST', `${base}/faults`, {
      kind: 'reset',
      match: { serverId: b.serverId },
    });
    expect(aimed.status).toBe(400);

    const capped = await admin('PUT', `${base}/max-contacts`, { maxContacts: 0 });
    expect(capped.json()).toEqual({ serverId: a.serverId, maxContacts: 0 });
    const add = { body: { emailAddress: 'x@example.com' }, auth: a.authorization };
    expect((await call(fake, 'PUT', 'lists/1/contacts', add)).status).toBe(403);
    expect((await admin('GET', `${base}/state`)).json()).toMatchObject({
      serverId: a.serverId,
      maxContacts: 0,
    });

    expect((await admin('POST', `${base}/reset`)).status).toBe(204);
    expect((await admin('GET', `${base}/requests`)).json()).toEqual([]);
    expect((await admin('GET', `${base}/state`)).json()).toMatchObject({ maxContacts: 10000 });
  });

  it('removes a tenant: its key gets 401, and every tenant route then answers 404', async () => {
    const a = await createTenant();
    const base = `/__admin/tenants/${a.serverId}`;
    expect((await admin('DELETE', base)).status).toBe(204);
    expect((await call(fake, 'GET', 'lists', { auth: a.authorization })).status).toBe(401);
    for (const [method, path] of [
      ['DELETE', ''],
      ['POST', '/reset'],
      ['GET', '/state'],
      ['GET', '/requests'],
      ['GET', '/requests/wait?timeoutMs=0'],
      ['GET', '/requests.har'],
      ['GET', '/faults'],
      ['DELETE', '/faults'],
      ['POST', '/maintenance'],
    ] as const) {
      const response = await admin(method, `${base}${path}`);
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(response.json().message).toBe(
        `Server ${a.serverId} does not exist in this fake; create it with addServer() or a seed.`,
      );
    }
  });

  it('is described by the OpenAPI document', async () => {
    const document = (await admin('GET', '/__admin/openapi.json')).json();
    const operations = Object.values(
      document.paths as Record<string, Record<string, { operationId: string }>>,
    ).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(operations).toEqual(
      expect.arrayContaining([
        'createTenant',
        'removeTenant',
        'resetTenant',
        'tenantState',
        'tenantRequests',
        'tenantWaitForRequest',
        'tenantRequestsHar',
        'tenantFaults',
        'addTenantFault',
        'tenantMaintenance',
        'clearTenantFaults',
        'removeTenantFault',
        'setTenantMaxContacts',
      ]),
    );
  });
});
