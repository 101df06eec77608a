import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectFakeMarketingServer,
  InvalidOptionError,
  StateError,
  WaitTimeoutError,
} from '../../src/index.js';
import { receivedRequest } from '../../src/testing/matchers.js';
import { basic, SERVER_ID, useFake } from '../helpers/fake.js';

// Where one tenant ends and the rest begins: what a tenant is told of the journal, what becomes of
// its waits and its handle when its server goes, what its requests may reach, and what a remote
// handle takes from whatever answers at its URL.

const fake = useFake();
const secretBody = {
  emailAddress: 'victim-private@example.com',
  customFields: [{ name: 'SSN', value: '078-05-1120' }],
};
const seed = { customFields: [{ name: 'SSN' }], lists: [{ id: 1, name: 'News' }] };

describe("a tenant's journal tells of its own requests only", () => {
  it("a timed-out wait lists none of another tenant's requests, in process", async () => {
    const [victim, other] = [await fake.tenant(seed), await fake.tenant(seed)];
    await victim.inject({ method: 'PUT', url: '/lists/1/contacts', payload: secretBody });
    const error = await other
      .waitForRequest({ body: { emailAddress: 'ann@example.com' } }, { timeoutMs: 10 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect(error.message).not.toContain('victim-private');
    expect(error.closest).toEqual([]);
    await other.inject({
      method: 'PUT',
      url: '/lists/1/contacts',
      payload: { emailAddress: 'own@example.com' },
    });
    const own = await other
      .waitForRequest({ body: { emailAddress: 'ann@example.com' } }, { timeoutMs: 10 })
      .catch((e) => e);
    expect(own.message).toContain('own@example.com');
    expect(own.message).not.toContain('victim-private');
  });

  it('and over the control API', async () => {
    const [victim, other] = [await fake.tenant(seed), await fake.tenant(seed)];
    await victim.inject({ method: 'PUT', url: '/lists/1/contacts', payload: secretBody });
    const answer = await fake.inject({
      url: `/__admin/tenants/${other.serverId}/requests/wait?timeoutMs=10&body=${encodeURIComponent('{"emailAddress":"a@b.c"}')}`,
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('victim-private');
    expect(answer.body).not.toContain(String(victim.serverId));
  });

  it('a matcher on a tenant with an empty journal says so, not that the fake received nothing', async () => {
    const [busy, idle] = [await fake.tenant(seed), await fake.tenant(seed)];
    await busy.inject('/lists');
    const result = await receivedRequest(idle, { method: 'GET' });
    expect(result.pass).toBe(false);
    expect(result.message()).toContain(`tenant ${idle.serverId}'s journal is empty`);
  });
});

describe('when its server goes', () => {
  it('its pending waits reject, and a tenant made later with its id never answers them', async () => {
    const first = await fake.tenant({ serverId: 4321 });
    const waiting = first.waitForRequest({ path: '/customfields' }, { timeoutMs: 5000 });
    await first.close();
    await expect(waiting).rejects.toThrow(/Server 4321 was removed/);
    const second = await fake.tenant({ serverId: 4321 });
    await second.inject('/customfields');
    expect(await second.requests()).toHaveLength(1);
  });

  it('a handle whose server was removed by someone else controls nothing, not even a newcomer with its id', async () => {
    const first = await fake.tenant({ serverId: 4322 });
    await fake.inject({ method: 'DELETE', url: '/__admin/tenants/4322' });
    const second = await fake.tenant({ serverId: 4322 });
    await second.inject('/lists');
    await expect(first.requests()).rejects.toThrow(/this handle no longer controls server 4322/);
    await expect(first.faults.add({ kind: 'status', status: 500 })).rejects.toBeInstanceOf(
      StateError,
    );
    await first.close();
    expect((await second.inject('/lists')).statusCode).toBe(200);
  });

  it('its server view reads nothing of a newcomer that takes its id', async () => {
    const first = await fake.tenant({ serverId: 4323, lists: [{ id: 1, name: 'Mine' }] });
    const view = first.server;
    await first.close();
    await fake.tenant({
      serverId: 4323,
      key: 'newcomer-secret-key',
      lists: [{ id: 1, name: 'Theirs' }],
    });
    expect(() => view.lists()).toThrow(StateError);
    expect(() => first.server.key()).toThrow(/is closed/);
  });

  it("a server of the fake's own seed comes back with the fake's reset; a tenant's does not", async () => {
    const tenant = await fake.tenant();
    expect(
      (await fake.inject({ method: 'DELETE', url: `/__admin/tenants/${SERVER_ID}` })).statusCode,
    ).toBe(204);
    await tenant.close();
    fake.reset();
    expect(fake.server(SERVER_ID).serverId).toBe(SERVER_ID);
    expect(() => fake.server(tenant.serverId)).toThrow();
  });
});

describe("a tenant's requests go to the emulated API only", () => {
  it.each([
    '/../../__admin/state',
    '/%2e%2e/%2e%2e/__admin/state',
    '/lists/./../../../__admin/reset',
    '\\..\\__admin\\state',
    '/lists\u0000',
  ])('refuses %s, reaching nothing', async (url) => {
    const tenant = await fake.tenant(seed);
    const before = fake.exportState();
    await expect(tenant.inject({ method: 'POST', url })).rejects.toBeInstanceOf(InvalidOptionError);
    expect(fake.exportState()).toEqual(before);
    expect(fake.requests()).toEqual([]);
  });

  it('takes ordinary paths, with queries and escapes', async () => {
    const tenant = await fake.tenant(seed);
    expect((await tenant.inject('/lists?count=1')).statusCode).toBe(200);
    expect((await tenant.inject('/customfields/a%2Fb')).statusCode).toBeLessThan(500);
  });
});

describe('a remote handle takes only what a fake answers', () => {
  let impostor: Server;
  let url: string;
  let okEverywhere: Server;
  let okUrl: string;
  const folder = mkdtempSync(join(tmpdir(), 'remote-'));
  beforeAll(async () => {
    impostor = createServer((req, res) => {
      const json = (body: string) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (req.url === '/__admin/health') {
        json('{}');
      } else if (req.url === '/__admin/state') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const drip = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(drip));
      }
      // Anything else is never answered.
    });
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    // A JSON service on the wrong port: every route says it is fine.
    okEverywhere = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
    );
    await new Promise<void>((resolve) => okEverywhere.listen(0, '127.0.0.1', resolve));
    okUrl = `http://127.0.0.1:${(okEverywhere.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    impostor.closeAllConnections();
    await new Promise((resolve) => impostor.close(resolve));
    okEverywhere.closeAllConnections();
    await new Promise((resolve) => okEverywhere.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a health answer that is not the fake’s', async () => {
    await expect(connectFakeMarketingServer({ url })).rejects.toThrow(
      /does not answer as a fake-marketing-server control API/,
    );
  });

  it('gives up on a server that never answers, within its timeoutMs', async () => {
    const handle = new (await import('../../src/index.js')).RemoteFakeMarketingServer({
      url,
      timeoutMs: 300,
    });
    await expect(handle.tenant()).rejects.toThrow();
    await handle.close();
  });

  it('refuses what no fake answers: a health of {}, a tenant without id, a list that is not one', async () => {
    await expect(connectFakeMarketingServer({ url })).rejects.toThrow(
      /does not answer as a fake-marketing-server control API/,
    );
    // Every path answers {"status":"ok"}: health passes, nothing else does.
    const everywhere = await connectFakeMarketingServer({ url: okUrl, timeoutMs: 2000 });
    await expect(everywhere.tenant()).rejects.toThrow(
      /POST \/__admin\/tenants answered no serverId/,
    );
    await expect(everywhere.requests()).rejects.toThrow(/answered no list/);
    await expect(everywhere.faults.list()).rejects.toThrow(/answered no list/);
    await everywhere.close();
  });

  it('gives up on an answer that drips, within its timeoutMs in all', async () => {
    const { RemoteFakeMarketingServer } = await import('../../src/index.js');
    const handle = new RemoteFakeMarketingServer({ url, timeoutMs: 400 });
    await expect(handle.exportState()).rejects.toThrow(/gave no whole answer/);
    await handle.close();
  });

  it('refuses bad options before sending anything', async () => {
    await expect(
      connectFakeMarketingServer({ url, token: 'a\r\nX-Evil: 1' }),
    ).rejects.toBeInstanceOf(InvalidOptionError);
    await expect(connectFakeMarketingServer({ url: 'ftp://127.0.0.1/' })).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
    const notPem = join(folder, 'not.pem');
    writeFileSync(notPem, 'hello');
    await expect(connectFakeMarketingServer({ url, ca: notPem })).rejects.toThrow(
      /holds no '-----BEGIN CERTIFICATE-----' block/,
    );
    await expect(connectFakeMarketingServer({ url, timeoutMs: 0 })).rejects.toBeInstanceOf(
      InvalidOptionError,
    );
  });

  it('says a wrong token is a wrong token', async () => {
    await using secured = await (await import('../../src/index.js')).createFakeMarketingServer({
      adminToken: 't'.repeat(32),
    });
    const { url: securedUrl } = await secured.listen({ https: false });
    const error = await connectFakeMarketingServer({
      url: securedUrl,
      token: 'x'.repeat(32),
    }).catch((e) => e);
    expect(error.code).toBe('ADMIN_UNAUTHORIZED');
    expect(error.message).toContain('Bearer <admin token>');
  });
});

it('keeps the credentials of its tenants out of the refusal it answers', async () => {
  const tenant = await fake.tenant(seed);
  const answer = await fake.inject({
    url: '/marketing/v1/lists',
    headers: { authorization: basic(tenant.serverId, 'wrong-key-123') },
  });
  expect(answer.statusCode).toBe(401);
  expect(answer.body).not.toContain(tenant.key);
});

describe('keys that stopped being one', () => {
  it("are still kept out of the journal: a closed tenant's, a regenerated one, one reset away", async () => {
    const closed = await fake.tenant({ key: 'closed-tenant-secret-1111' });
    await closed.close();
    const live = await fake.tenant({ key: 'live-tenant-secret-2222' });
    fake.regenerateKey(live.serverId);
    const added = fake.addServer({ key: 'added-server-secret-3333' });
    fake.reset();
    for (const key of [
      'closed-tenant-secret-1111',
      'live-tenant-secret-2222',
      'added-server-secret-3333',
    ]) {
      await fake.inject({
        url: `/marketing/v1/lists?key=${key}`,
        headers: { authorization: basic(closed.serverId, key), 'x-echo': key },
      });
    }
    const recorded = JSON.stringify([fake.requests(), fake.requestsHar()]);
    for (const key of [
      'closed-tenant-secret-1111',
      'live-tenant-secret-2222',
      'added-server-secret-3333',
    ]) {
      expect(recorded).not.toContain(key);
    }
    expect(recorded).toContain('<redacted>');
    expect(added.serverId).toBeGreaterThan(0);
  });
});
