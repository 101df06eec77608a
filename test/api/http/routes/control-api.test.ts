import { describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../../src/index.js';
import { basic, call, makeFake, smallSeed, useFake } from '../../../helpers/fake.js';

const fake = useFake();

/** A control API call: no Basic credentials. */
function admin(
  target: FakeMarketingServer,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return call(target, method, `/__admin${path}`, { body, headers, auth: null });
}

describe('control API', () => {
  it('GET /health', async () => {
    expect((await admin(fake, 'GET', '/health')).json()).toEqual({ status: 'ok' });
  });

  it('GET /state is exportState()', async () => {
    const response = await admin(fake, 'GET', '/state');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual(fake.exportState());
  });

  it('POST /reset resets state, journal and faults', async () => {
    const before = fake.exportState();
    await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'dee@example.com' } });
    fake.faults.add({ kind: 'delay', delayMs: 1 });
    expect((await admin(fake, 'POST', '/reset')).status).toBe(204);
    expect(fake.exportState()).toEqual(before);
    expect(fake.requests()).toEqual([]);
    expect(fake.faults.list()).toEqual([]);
  });

  it('POST /seed adds data and answers the credentials; a bad seed is a 400 with the path', async () => {
    const added = await admin(fake, 'POST', '/seed', {
      servers: [{ serverId: 4321, key: 'k', lists: [{ name: 'L' }] }],
    });
    expect(added.status).toBe(200);
    expect(added.json()).toEqual([{ serverId: 4321, key: 'k' }]);
    const before = fake.exportState();
    const bad = await admin(fake, 'POST', '/seed', {
      servers: [{ serverId: 4321, lists: [{ id: 1, name: 'dup' }] }],
    });
    expect(bad.status).toBe(400);
    expect(bad.json()).toEqual({
      message: 'servers[0].lists[0].id: list id 1 is used twice',
      path: 'servers[0].lists[0].id',
    });
    expect((await admin(fake, 'POST', '/seed')).status).toBe(400);
    expect(fake.exportState()).toEqual(before);
  });

  it('accepts a seed larger than the public API body limit', async () => {
    const contacts = Array.from({ length: 20_000 }, (_, i) => ({
      emailAddress: `c${i}@example.com`,
      customFields: { FirstName: 'x'.repeat(40) },
    }));
    const response = await admin(fake, 'POST', '/seed', {
      servers: [
        { serverId: 4321, maxContacts: 20_000, customFields: [{ name: 'FirstName' }], contacts },
      ],
    });
    expect(response.status).toBe(200);
    expect(fake.server(4321).contacts()).toHaveLength(20_000);
  });

  it('POST /servers adds a tenant; POST /servers/{id}/reset removes or resets it', async () => {
    const created = await admin(fake, 'POST', '/servers', {
      serverId: 4321,
      key: 'k',
      maxContacts: 5,
    });
    expect(created.status).toBe(201);
    expect(created.json()).toEqual({ serverId: 4321, key: 'k' });
    expect((await call(fake, 'GET', 'lists', { auth: basic(4321, 'k') })).status).toBe(200);
    const random = (await admin(fake, 'POST', '/servers')).json() as { serverId: number };
    expect(random.serverId).toBeGreaterThanOrEqual(10000);
    const existing = await admin(fake, 'POST', '/servers', { serverId: 4321 });
    expect(existing.status).toBe(409);
    expect(existing.json()).toEqual({
      message: 'Server 4321 already exists; pick another serverId or omit it.',
    });
    expect((await admin(fake, 'POST', '/servers', { id: 1 })).json()).toEqual({
      message: "Unknown property 'id'; use serverId, key, maxContacts.",
    });
    expect((await admin(fake, 'POST', '/servers/4321/reset')).status).toBe(204);
    expect(() => fake.server(4321)).toThrow();
    expect((await admin(fake, 'POST', '/servers/4321/reset')).status).toBe(404);
    expect((await admin(fake, 'POST', '/servers/abc/reset')).status).toBe(404);
  });

  it('POST /servers/{id}/regenerate-key answers the new key; the old one stops working', async () => {
    const response = await admin(fake, 'POST', '/servers/1234/regenerate-key');
    const { serverId, key } = response.json() as { serverId: number; key: string };
    expect(serverId).toBe(1234);
    expect((await call(fake, 'GET', 'lists')).status).toBe(401);
    expect((await call(fake, 'GET', 'lists', { auth: basic(1234, key) })).status).toBe(200);
    expect((await admin(fake, 'POST', '/servers/9999/regenerate-key')).status).toBe(404);
  });

  it('PUT /servers/{id}/max-contacts sets the cap', async () => {
    const response = await admin(fake, 'PUT', '/servers/1234/max-contacts', { maxContacts: 3 });
    expect(response.json()).toEqual({ serverId: 1234, maxContacts: 3 });
    expect(
      (await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'dee@example.com' } }))
        .status,
    ).toBe(403);
    expect(
      (await admin(fake, 'PUT', '/servers/1234/max-contacts', { maxContacts: -1 })).status,
    ).toBe(400);
    expect((await admin(fake, 'PUT', '/servers/1234/max-contacts', {})).status).toBe(400);
    expect(
      (await admin(fake, 'PUT', '/servers/9999/max-contacts', { maxContacts: 3 })).status,
    ).toBe(404);
    expect(fake.server(1234).maxContacts()).toBe(3);
  });

  it('GET and DELETE /requests, with filters', async () => {
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'content');
    await call(fake, 'GET', 'lists', { auth: basic(56789, 'key-56789') });
    const all = (await admin(fake, 'GET', '/requests')).json() as unknown[];
    expect(all).toHaveLength(3);
    expect((await admin(fake, 'GET', '/requests?path=/lists&serverId=1234')).json()).toEqual([
      fake.requests()[0],
    ]);
    expect((await admin(fake, 'GET', '/requests?method=get&path=/content')).json()).toHaveLength(1);
    expect((await admin(fake, 'GET', '/requests?server=1')).status).toBe(400);
    expect((await admin(fake, 'GET', '/requests?serverId=abc')).status).toBe(400);
    expect((await admin(fake, 'DELETE', '/requests')).status).toBe(204);
    expect(fake.requests()).toEqual([]);
  });

  it('GET/POST/DELETE /faults and DELETE /faults/{id}', async () => {
    const created = await admin(fake, 'POST', '/faults', {
      kind: 'status',
      status: 500,
      match: { path: '/lists' },
    });
    expect(created.status).toBe(201);
    const rule = created.json() as { id: string };
    expect(rule).toEqual({
      id: rule.id,
      kind: 'status',
      status: 500,
      match: { path: '/lists' },
      hits: 0,
    });
    expect((await call(fake, 'GET', 'lists')).status).toBe(500);
    expect((await admin(fake, 'GET', '/faults')).json()).toEqual([{ ...rule, hits: 1 }]);
    expect((await admin(fake, 'DELETE', `/faults/${rule.id}`)).status).toBe(204);
    expect((await admin(fake, 'DELETE', `/faults/${rule.id}`)).status).toBe(404);
    await admin(fake, 'POST', '/faults', { kind: 'reset' });
    expect((await admin(fake, 'DELETE', '/faults')).status).toBe(204);
    expect(fake.faults.list()).toEqual([]);
  });

  it('a bad fault rule is a 400 that says what is wrong, and adds nothing', async () => {
    const response = await admin(fake, 'POST', '/faults', { kind: 'delay' });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      message:
        'Invalid fault rule: kind "delay" needs delayMs, a whole number of milliseconds from 0 to 600000.',
    });
    expect((await admin(fake, 'POST', '/faults', [])).status).toBe(400);
    expect(fake.faults.list()).toEqual([]);
  });

  it('POST /maintenance is the outage shorthand', async () => {
    const response = await admin(fake, 'POST', '/maintenance', { times: 1 });
    expect(response.status).toBe(201);
    expect(response.json()).toMatchObject({ kind: 'unavailable', times: 1 });
    expect((await call(fake, 'GET', 'lists')).status).toBe(503);
    expect((await admin(fake, 'POST', '/maintenance', { mode: 'boom' })).status).toBe(400);
  });

  it('answers JSON errors whatever the Accept, and 404 for unknown control routes', async () => {
    const response = await fake.inject({
      url: '/__admin/nothing',
      headers: { accept: 'text/xml' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(response.body).message).toContain(
      'No control route matches GET /__admin/nothing',
    );
  });

  it('a known control path with a wrong method is a 405 with Allow', async () => {
    const response = await admin(fake, 'PUT', '/faults');
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('DELETE, GET, POST');
    expect(response.json().message).toBe(
      'PUT is not allowed on /__admin/faults; use DELETE, GET, POST.',
    );
  });

  it('bad bodies are 400/415 in JSON', async () => {
    const malformed = await fake.inject({
      method: 'POST',
      url: '/__admin/seed',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(malformed.statusCode).toBe(400);
    const text = await fake.inject({
      method: 'POST',
      url: '/__admin/faults',
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
    expect(JSON.parse(text.body).message).toMatch(/must be JSON/);
  });

  it('is not journaled', async () => {
    await admin(fake, 'GET', '/health');
    await admin(fake, 'GET', '/state');
    expect(fake.requests()).toEqual([]);
  });
});

describe('control API with an admin token', () => {
  it.each([
    ['no header', {}],
    ['a wrong token', { authorization: 'Bearer nope' }],
    ['an empty token', { authorization: 'Bearer ' }],
    ['Basic credentials', { authorization: basic(1234, 'key-1234') }],
    ['the token as Basic', { authorization: 'Basic s3cret' }],
  ])('%s -> 401 and nothing changes', async (_, headers) => {
    await using guarded = await makeFake({ adminToken: 's3cret' });
    const before = guarded.exportState();
    for (const [method, path] of [
      ['POST', '/reset'],
      ['POST', '/seed'],
      ['GET', '/state'],
      ['POST', '/faults'],
      ['GET', '/nothing'],
    ] as const) {
      const response = await admin(
        guarded,
        method,
        path,
        method === 'POST' ? { servers: [] } : undefined,
        headers,
      );
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="fake-marketing-server"');
      expect(response.json()).toEqual({
        message:
          "The control API needs 'Authorization: Bearer <admin token>' with the fake's admin token.",
      });
    }
    expect(guarded.exportState()).toEqual(before);
    expect(guarded.faults.list()).toEqual([]);
  });

  it('the right token opens every route, with the scheme in any case', async () => {
    await using guarded = await makeFake({ adminToken: 's3cret' });
    expect(
      (await admin(guarded, 'GET', '/health', undefined, { authorization: 'Bearer s3cret' }))
        .status,
    ).toBe(200);
    expect(
      (await admin(guarded, 'POST', '/reset', undefined, { authorization: 'bearer s3cret' }))
        .status,
    ).toBe(204);
  });

  it('the token does not guard the emulated API, which keeps Basic auth', async () => {
    await using guarded = await makeFake({ adminToken: 's3cret' });
    expect((await call(guarded, 'GET', 'lists')).status).toBe(200);
  });

  it('allows listening on a non-loopback host', async () => {
    await using guarded = await makeFake({ adminToken: 's3cret', seed: smallSeed() });
    const { url } = await guarded.listen({ host: '0.0.0.0', https: false });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('allowedHosts', () => {
  const state = (target: FakeMarketingServer, host: string) =>
    target.inject({ url: '/__admin/state', headers: { host } });

  it('adds names (and, with a leading dot, every name under one) that the control API answers', async () => {
    await using allowing = await makeFake({ allowedHosts: ['sandbox', '.internal'] });
    expect((await state(allowing, 'sandbox:8443')).statusCode).toBe(200);
    expect((await state(allowing, 'fake.ci.internal')).statusCode).toBe(200);
    expect((await state(allowing, 'SANDBOX.')).statusCode).toBe(200);
    const refused = await state(allowing, 'evil.example');
    expect(refused.statusCode).toBe(403);
    expect(JSON.parse(refused.body).message).toBe(
      "Host 'evil.example' is not allowed on the control API, which guards against DNS rebinding: add it with the allowedHosts option (CLI: --allowed-hosts).",
    );
    expect((await state(fake, 'sandbox')).statusCode).toBe(403);
  });

  it.each([['not-an-array'], [['']], [['bad host']], [[42]]])(
    'refuses %j',
    async (allowedHosts) => {
      await expect(makeFake({ allowedHosts: allowedHosts as never })).rejects.toThrow(
        /allowedHosts must be an array of host names/,
      );
    },
  );
});

describe('GET /__admin/ca.pem', () => {
  it('is 404 while the fake serves no certificate of its own', async () => {
    const response = await fake.inject({ url: '/__admin/ca.pem' });
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).message).toContain('made no certificate');
  });
});

describe('listen({ localControlOnly })', () => {
  it('listens on any host without a token, serving the control API to this machine only', async () => {
    await using local = await makeFake();
    await expect(local.listen({ host: '0.0.0.0', https: false })).rejects.toThrow(
      /set the adminToken option first \(or localControlOnly/,
    );
    await local.listen({ host: '0.0.0.0', https: false, localControlOnly: true });
    const from = (remoteAddress: string, url = '/__admin/state') =>
      local.inject({ url, remoteAddress, headers: { authorization: basic(1234, 'key-1234') } });
    expect((await from('127.0.0.1')).statusCode).toBe(200);
    expect((await from('::ffff:127.0.0.1')).statusCode).toBe(200);
    const far = await from('172.17.0.1');
    expect(far.statusCode).toBe(403);
    expect(JSON.parse(far.body).message).toContain('FMS_ADMIN_TOKEN');
    expect((await from('172.17.0.1', '/marketing/v1/lists')).statusCode).toBe(200);
  });

  it('changes nothing when the fake has an admin token: the token decides', async () => {
    await using tokened = await makeFake({ adminToken: 't' });
    await tokened.listen({ host: '0.0.0.0', https: false, localControlOnly: true });
    const far = await tokened.inject({
      url: '/__admin/state',
      remoteAddress: '172.17.0.1',
      headers: { authorization: 'Bearer t' },
    });
    expect(far.statusCode).toBe(200);
  });
});

describe('listen options that make no sense', () => {
  it.each([
    [{ headersTimeoutMs: 50 }, /headersTimeoutMs must be a whole number of milliseconds from 100/],
    [{ headersTimeoutMs: 1.5 }, /headersTimeoutMs must be/],
    [{ tlsHostnames: ['bad name'] }, /tlsHostnames must be an array of host names or addresses/],
    [{ tlsHostnames: 'fake' }, /tlsHostnames must be an array/],
  ])('%j throws InvalidOptionError and listens on nothing', async (options, message) => {
    await using target = await makeFake();
    await expect(target.listen({ https: false, ...(options as object) })).rejects.toThrow(message);
    expect(() => target.url).toThrow(/Not listening/);
  });
});
