import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { call, useFake } from '../helpers/fake.js';

// Tests that the mutation run (npm run mutation) asked for: removing a fault rule other than the
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
    const remove = (id: string) => fake.inject({ method: 'DELETE', url: `/__admin/faults/${id}` });
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
      headers: { 'content-type': 'application/json', 'content-length': String(32 * chunk.length) },
      payload: Readable.from(Array.from({ length: 32 }, () => chunk)),
    });
    expect(response.statusCode).toBe(503);
    expect(fake.requests()[0]!.request.bodySize).toBe(1024 * 1024);
  });
});
