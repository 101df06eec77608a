import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FaultRuleError } from '../../../src/index.js';
import { call, makeFake, useFake } from '../../helpers/fake.js';

const fake = useFake();

const addDee = (accept?: string) =>
  call(fake, 'PUT', 'lists/1/contacts', {
    body: { emailAddress: 'dee@example.com' },
    ...(accept ? { accept } : {}),
  });

describe('faults through inject', () => {
  it('unavailable: 503, Retry-After and the maintenance message, in JSON or XML; nothing changes', async () => {
    fake.faults.add({ kind: 'unavailable' });
    const before = fake.exportState();
    const json = await addDee();
    expect(json.status).toBe(503);
    expect(json.headers['retry-after']).toBe('1');
    expect(json.json()).toEqual({
      message: 'The service is temporarily unavailable for maintenance. Please try again later.',
    });
    const xml = await addDee('text/xml');
    expect(xml.status).toBe(503);
    expect(xml.xml()).toEqual({
      Error: {
        Message: 'The service is temporarily unavailable for maintenance. Please try again later.',
      },
    });
    expect(fake.exportState()).toEqual(before);
  });

  it('is decided before authentication: an outage does not check credentials', async () => {
    fake.maintenance();
    expect((await call(fake, 'GET', 'lists', { auth: null })).status).toBe(503);
  });

  it('status: any status with the error body, and nothing changes', async () => {
    fake.faults.add({ kind: 'status', status: 429 });
    const before = fake.exportState();
    const response = await addDee();
    expect(response.status).toBe(429);
    expect(response.json()).toEqual({ message: 'Injected fault: 429 Too Many Requests.' });
    expect(fake.exportState()).toEqual(before);
  });

  it('status 500 on a route whose success is a list still sends the error body', async () => {
    fake.faults.add({ kind: 'status', status: 500, match: { path: '/lists' } });
    const response = await call(fake, 'GET', 'lists', { accept: 'text/xml' });
    expect(response.status).toBe(500);
    expect(response.xml()).toEqual({
      Error: { Message: 'Injected fault: 500 Internal Server Error.' },
    });
  });

  it('delay: the normal answer, after delayMs, and the change happens', async () => {
    fake.faults.add({ kind: 'delay', delayMs: 60 });
    const started = Date.now();
    const response = await addDee();
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    expect(response.status).toBe(200);
    expect(fake.server(1234).contact('dee@example.com')).toBeDefined();
  });

  it('reset: inject rejects like a dropped connection; nothing changes', async () => {
    fake.faults.add({ kind: 'reset' });
    const before = fake.exportState();
    await expect(addDee()).rejects.toThrow(/socket hang up/);
    expect(fake.exportState()).toEqual(before);
  });

  it('malformed: a 200 whose body stops half-way', async () => {
    fake.faults.add({ kind: 'malformed' });
    const before = fake.exportState();
    const response = await addDee();
    expect(response.status).toBe(200);
    expect(Number(response.headers['content-length'])).toBeGreaterThan(response.body.length);
    expect(() => JSON.parse(response.body)).toThrow(SyntaxError);
    expect(fake.exportState()).toEqual(before);
  });

  it('no-response: held until the rule is removed; nothing changes', async () => {
    const rule = fake.faults.add({ kind: 'no-response' });
    const before = fake.exportState();
    let settled = false;
    const pending = addDee().finally(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    rule.remove();
    await expect(pending).rejects.toThrow(/no response/);
    expect(fake.exportState()).toEqual(before);
  });

  it('match by method, path glob and server id', async () => {
    fake.faults.add({
      kind: 'status',
      status: 502,
      match: { method: 'PUT', path: '/lists/*/contacts', serverId: 1234 },
    });
    expect((await call(fake, 'GET', 'lists')).status).toBe(200);
    expect((await call(fake, 'PUT', 'lists/1/contacts/2')).status).toBe(200);
    expect((await addDee()).status).toBe(502);
    const other = await call(fake, 'PUT', 'lists/1/contacts', {
      auth: `Basic ${Buffer.from('56789:key-56789').toString('base64')}`,
      body: { emailAddress: 'dee@example.com' },
    });
    expect(other.status).toBe(200);
  });

  it('times: then the rule is gone and the service answers again', async () => {
    fake.maintenance({ times: 2 });
    expect((await call(fake, 'GET', 'lists')).status).toBe(503);
    expect((await call(fake, 'GET', 'lists')).status).toBe(503);
    expect((await call(fake, 'GET', 'lists')).status).toBe(200);
    expect(fake.faults.list()).toEqual([]);
  });

  it('durationMs follows the fake clock, and Retry-After says how long is left', async () => {
    let now = new Date('2026-11-22T12:00:00Z');
    await using timed = await makeFake({ clock: () => now });
    timed.maintenance({ durationMs: 90_000 });
    const first = await call(timed, 'GET', 'lists');
    expect(first.status).toBe(503);
    expect(first.headers['retry-after']).toBe('90');
    now = new Date('2026-11-22T12:01:30Z');
    expect((await call(timed, 'GET', 'lists')).status).toBe(200);
  });

  it('maintenance modes: reset and no-response', async () => {
    const outage = fake.maintenance({ mode: 'reset' });
    await expect(call(fake, 'GET', 'lists')).rejects.toThrow(/socket hang up/);
    outage.remove();
    expect((await call(fake, 'GET', 'lists')).status).toBe(200);
    expect(() => fake.maintenance({ mode: 'explode' as never })).toThrow(FaultRuleError);
  });

  it('never touches the control API, thumbnails, or requests outside /marketing/', async () => {
    fake.maintenance();
    expect((await fake.inject({ url: '/__admin/health' })).statusCode).toBe(200);
    expect((await fake.inject({ url: '/thumbnails/x.png' })).statusCode).toBe(404);
  });

  it('reset() clears faults and releases held requests', async () => {
    fake.faults.add({ kind: 'no-response' });
    const pending = call(fake, 'GET', 'lists');
    await new Promise((resolve) => setTimeout(resolve, 20));
    fake.reset();
    await expect(pending).rejects.toThrow();
    expect(fake.faults.list()).toEqual([]);
    expect((await call(fake, 'GET', 'lists')).status).toBe(200);
  });

  it('close() releases held requests and answers delayed ones, so it never hangs', async () => {
    fake.faults.add({ kind: 'no-response', match: { method: 'GET' } });
    fake.faults.add({ kind: 'delay', delayMs: 60_000, match: { method: 'PUT' } });
    const held = call(fake, 'GET', 'lists');
    const delayed = addDee();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await fake.close();
    await expect(held).rejects.toThrow();
    expect((await delayed).status).toBe(200);
  });

  it('faults.list shows the rules with their hits; faults.remove ends one', async () => {
    const rule = fake.faults.add({ kind: 'status', status: 500, times: 5 });
    await call(fake, 'GET', 'lists');
    expect(fake.faults.list()).toEqual([
      { id: rule.id, kind: 'status', status: 500, times: 5, hits: 1 },
    ]);
    expect(fake.faults.remove(rule.id)).toBe(true);
    expect(fake.faults.remove(rule.id)).toBe(false);
  });
});

describe('request journal', () => {
  it('records every /marketing/ request with status, the claimed serverId, whether it authenticated, and the fault', async () => {
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'lists', { auth: 'Basic bm9wZTpub3Bl' });
    await call(fake, 'GET', 'nothing');
    await call(fake, 'PUT', 'lists/1/contacts?x=1', { body: { emailAddress: 'dee@example.com' } });
    fake.faults.add({ kind: 'reset', times: 1 });
    await call(fake, 'GET', 'customfields').catch(() => undefined);
    await fake.inject({ url: '/__admin/health' });
    await fake.inject({ url: '/thumbnails/x.png' });
    const entries = fake.requests();
    // The fields this test has always checked; test/api/journal/journal.test.ts checks the rest.
    const summary = entries.map(({ id, method, path, serverId, authenticated, status, fault }) => ({
      id,
      method,
      path,
      ...(serverId === undefined ? {} : { serverId }),
      authenticated,
      status,
      ...(fault === undefined ? {} : { fault }),
    }));
    // A username that is not a number claims no server; 1234 is claimed by every other request,
    // and authenticated only where its key was checked and right.
    expect(summary).toEqual([
      {
        id: 1,
        method: 'GET',
        path: '/marketing/v1/lists',
        serverId: 1234,
        authenticated: true,
        status: 200,
      },
      { id: 2, method: 'GET', path: '/marketing/v1/lists', authenticated: false, status: 401 },
      {
        id: 3,
        method: 'GET',
        path: '/marketing/v1/nothing',
        serverId: 1234,
        authenticated: false,
        status: 404,
      },
      {
        id: 4,
        method: 'PUT',
        path: '/marketing/v1/lists/1/contacts',
        serverId: 1234,
        authenticated: true,
        status: 200,
      },
      {
        id: 5,
        method: 'GET',
        path: '/marketing/v1/customfields',
        serverId: 1234,
        authenticated: false,
        status: 0,
        fault: 'reset',
      },
    ]);
    expect(entries[0]?.time).toBe('2026-11-22T12:00:00.000Z');
    expect(entries.map((entry) => entry.operation)).toEqual([
      'getLists',
      'getLists',
      undefined,
      'addToListByEmail',
      'getCustomFields',
    ]);
  });

  it("lets a test count its client's retries", async () => {
    fake.maintenance({ times: 2 });
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await call(fake, 'GET', 'lists');
      if (response.status === 200) break;
    }
    const calls = fake.requests({ method: 'GET', path: '/lists' });
    expect(calls.map((entry) => entry.status)).toEqual([503, 503, 200]);
    expect(calls.filter((entry) => entry.fault === 'unavailable')).toHaveLength(2);
  });

  it('is a ring buffer of journalSize entries', async () => {
    await using small = await makeFake({ journalSize: 2 });
    for (let i = 0; i < 5; i++) await call(small, 'GET', 'lists');
    expect(small.requests().map((entry) => entry.id)).toEqual([4, 5]);
    small.clearRequests();
    expect(small.requests()).toEqual([]);
  });

  it('reset() clears the journal', async () => {
    await call(fake, 'GET', 'lists');
    fake.reset();
    expect(fake.requests()).toEqual([]);
  });
});

describe('the finer points of fault rules', () => {
  // Removing a fault rule other than the
  // first, and what removing answers, through the handle and the control API.

  const fake = useFake();

  describe('removing a fault rule other than the first', () => {
    it('through its handle: the others stay, in their order, and keep answering', async () => {
      const lists = fake.faults.add({ kind: 'status', status: 502, match: { path: '/lists' } });
      const content = fake.faults.add({ kind: 'status', status: 503, match: { path: '/content' } });
      const fields = fake.faults.add({
        kind: 'status',
        status: 504,
        match: { path: '/customfields' },
      });
      content.remove();
      expect(fake.faults.list().map((rule) => rule.id)).toEqual([lists.id, fields.id]);
      expect((await call(fake, 'GET', 'content')).status).toBe(200);
      expect((await call(fake, 'GET', 'lists')).status).toBe(502);
      expect((await call(fake, 'GET', 'customfields')).status).toBe(504);
      fields.remove();
      expect(fake.faults.list().map((rule) => rule.id)).toEqual([lists.id]);
      expect((await call(fake, 'GET', 'customfields')).status).toBe(200);
    });

    it('through DELETE /__admin/faults/:id: 204, then 404 for the same id, the others untouched', async () => {
      const first = fake.faults.add({ kind: 'delay', delayMs: 1 });
      const second = fake.faults.add({ kind: 'delay', delayMs: 2 });
      const third = fake.faults.add({ kind: 'delay', delayMs: 3 });
      const remove = (id: string) =>
        fake.inject({ method: 'DELETE', url: `/__admin/faults/${id}` });
      expect((await remove(second.id)).statusCode).toBe(204);
      expect(fake.faults.list().map((rule) => [rule.id, rule.delayMs])).toEqual([
        [first.id, 1],
        [third.id, 3],
      ]);
      const again = await remove(second.id);
      expect(again.statusCode).toBe(404);
      expect(fake.faults.list()).toHaveLength(2);
      expect((await remove(third.id)).statusCode).toBe(204);
      expect(fake.faults.list().map((rule) => rule.id)).toEqual([first.id]);
    });
  });

  describe('faults in the request pipeline', () => {
    const basicAs = (username: string) => `Basic ${btoa(`${username}:wrong-key`)}`;

    it('match the server id of the Basic username before the key is checked, up to 9 digits', async () => {
      fake.faults.add({ kind: 'status', status: 502, match: { serverId: 1234 } });
      fake.faults.add({ kind: 'status', status: 504, match: { serverId: 123456789 } });
      // A 10-digit id could never match: such a rule is refused.
      expect(() =>
        fake.faults.add({ kind: 'status', status: 503, match: { serverId: 1234567890 } }),
      ).toThrow('match.serverId must be a whole number from 0 to 999999999.');
      expect((await call(fake, 'GET', 'lists', { auth: basicAs('1234') })).status).toBe(502);
      expect((await call(fake, 'GET', 'lists', { auth: basicAs('123456789') })).status).toBe(504);
      expect((await call(fake, 'GET', 'lists', { auth: basicAs('1234567890') })).status).toBe(401);
      expect((await call(fake, 'GET', 'lists', { auth: basicAs('x1234') })).status).toBe(401);
      expect((await call(fake, 'GET', 'lists', { auth: basicAs('1234x') })).status).toBe(401);
    });

    it.each([
      [418, "Injected fault: 418 I'm a Teapot."],
      [599, 'Injected fault: 599 Unknown.'],
    ])('status %i names the reason phrase, or "Unknown"', async (status, message) => {
      fake.faults.add({ kind: 'status', status });
      const response = await call(fake, 'GET', 'lists');
      expect(response.status).toBe(status);
      expect(response.json()).toEqual({ message });
    });

    it.each([
      [{ kind: 'unavailable' as const }, 503],
      [{ kind: 'status' as const, status: 500 }, 500],
    ])('%j keeps the body the client sent to it in the journal', async (rule, status) => {
      fake.faults.add(rule);
      const body = { emailAddress: 'dee@example.com' };
      expect((await call(fake, 'PUT', 'lists/1/contacts', { body })).status).toBe(status);
      expect((await call(fake, 'GET', 'lists')).status).toBe(status);
      const [put, get] = fake.requests();
      expect(put!.request.body).toEqual(body);
      expect(put!.request.bodySize).toBe(JSON.stringify(body).length);
      expect(get!.request.body).toBeUndefined();
    });

    it('malformed: promises the whole error body and sends its first half', async () => {
      fake.faults.add({ kind: 'malformed' });
      const response = await fake.inject({ url: '/marketing/v1/lists' });
      const full = JSON.stringify({
        message: 'This response was cut off by an injected fault (malformed).',
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-length']).toBe(String(full.length));
      expect(response.body).toBe(full.slice(0, Math.floor(full.length / 2)));
      expect(fake.requests()[0]!.response.body).toBe(response.body);
    });
  });

  describe('fault rules: ids, hits and held requests', () => {
    it('numbers rules fault-1, fault-2, ... and keeps a rule without times for every match', async () => {
      const first = fake.faults.add({ kind: 'status', status: 502, match: { path: '/lists' } });
      const second = fake.faults.add({ kind: 'status', status: 503, match: { path: '/content' } });
      expect([first.id, second.id]).toEqual(['fault-1', 'fault-2']);
      for (let round = 0; round < 3; round++) {
        expect((await call(fake, 'GET', 'lists')).status).toBe(502);
      }
      expect(fake.faults.list().map(({ id, hits }) => [id, hits])).toEqual([
        ['fault-1', 3],
        ['fault-2', 0],
      ]);
      expect(
        (await fake.inject({ method: 'DELETE', url: '/__admin/faults/fault-2' })).statusCode,
      ).toBe(204);
    });

    it('reset cuts the connection as a reset would (ECONNRESET)', async () => {
      fake.faults.add({ kind: 'reset' });
      await expect(fake.inject({ url: '/marketing/v1/lists' })).rejects.toMatchObject({
        code: 'ECONNRESET',
        message: 'socket hang up (injected fault: reset)',
      });
    });

    it('removing a spent no-response rule still releases the request it holds', async () => {
      const rule = fake.faults.add({ kind: 'no-response', times: 1 });
      const held = fake.inject({ url: '/marketing/v1/lists' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(fake.faults.list()).toEqual([]);
      const removed = await fake.inject({ method: 'DELETE', url: `/__admin/faults/${rule.id}` });
      expect(removed.statusCode).toBe(204);
      await expect(held).rejects.toMatchObject({ code: 'ECONNRESET' });
      const again = await fake.inject({ method: 'DELETE', url: `/__admin/faults/${rule.id}` });
      expect(again.statusCode).toBe(404);
    });

    it('an outage reads at most 1 MiB of the body it answers', async () => {
      fake.faults.add({ kind: 'unavailable' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const response = await fake.inject({
        method: 'PUT',
        url: '/marketing/v1/lists/1/contacts',
        headers: {
          'content-type': 'application/json',
          'content-length': String(32 * chunk.length),
        },
        payload: Readable.from(Array.from({ length: 32 }, () => chunk)),
      });
      expect(response.statusCode).toBe(503);
      expect(fake.requests()[0]!.request.bodySize).toBe(1024 * 1024);
    });
  });
});
