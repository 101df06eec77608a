import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Address, FakeMarketingServer } from '../../src/index.js';
import { AUTH, makeFake, parseXml } from '../helpers/fake.js';
import { send } from '../helpers/request.js';

let fake: FakeMarketingServer;
let address: Address;
beforeEach(async () => {
  fake = await makeFake();
  address = await fake.listen();
});
afterEach(() => fake.close());

const lists = (extra: { timeoutMs?: number; accept?: string } = {}) =>
  send(`${address.baseUrl}/lists`, {
    ca: address.ca,
    headers: { authorization: AUTH, ...(extra.accept ? { accept: extra.accept } : {}) },
    ...(extra.timeoutMs === undefined ? {} : { timeoutMs: extra.timeoutMs }),
  });

// Each fault kind, seen by a real client over a real HTTPS socket that trusts only the fake's CA.
describe('faults over a real socket', () => {
  it('unavailable: 503 with Retry-After and the maintenance message by Accept', async () => {
    fake.maintenance();
    const json = await lists();
    expect(json.status).toBe(503);
    expect(json.headers['retry-after']).toBe('1');
    expect(JSON.parse(json.body).message).toMatch(/maintenance/);
    const xml = await lists({ accept: 'text/xml' });
    expect((parseXml(xml.body) as { Error: { Message: string } }).Error.Message).toMatch(
      /maintenance/,
    );
  });

  it('no-response: the client times out; removing the rule releases the held request', async () => {
    const rule = fake.faults.add({ kind: 'no-response' });
    await expect(lists({ timeoutMs: 150 })).rejects.toThrow('client timeout');
    const held = lists();
    await new Promise((resolve) => setTimeout(resolve, 50));
    rule.remove();
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('no-response: close() releases held requests and does not hang', async () => {
    fake.faults.add({ kind: 'no-response' });
    const held = lists();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await fake.close();
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(held).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('reset: the client sees the connection drop', async () => {
    fake.faults.add({ kind: 'reset' });
    await expect(lists()).rejects.toThrow(/socket hang up|ECONNRESET/);
  });

  it('delay: the normal answer after delayMs', async () => {
    fake.faults.add({ kind: 'delay', delayMs: 120 });
    const started = Date.now();
    const response = await lists();
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toHaveLength(2);
  });

  it('status: any status with the error body', async () => {
    fake.faults.add({ kind: 'status', status: 502 });
    const response = await lists();
    expect(response.status).toBe(502);
    expect(JSON.parse(response.body)).toEqual({ message: 'Injected fault: 502 Bad Gateway.' });
  });

  it('malformed: the client sees a premature close or a parse error', async () => {
    fake.faults.add({ kind: 'malformed' });
    const outcome = await lists().then(
      (response) => {
        expect(response.status).toBe(200);
        return () => JSON.parse(response.body);
      },
      (error: Error) => () => {
        throw error;
      },
    );
    expect(outcome).toThrow(/aborted|ECONNRESET|socket hang up|JSON|Unexpected end/);
  });

  it('Node fetch sees malformed as a failed body read', async () => {
    fake.faults.add({ kind: 'malformed' });
    const { url } = await (async () => {
      await fake.close();
      fake = await makeFake();
      fake.faults.add({ kind: 'malformed' });
      return fake.listen({ https: false });
    })();
    const response = await fetch(`${url}/marketing/v1/lists`, { headers: { authorization: AUTH } });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
  });

  it('the journal shows what the client went through', async () => {
    fake.maintenance({ times: 1 });
    await lists();
    await lists();
    expect(fake.requests().map((entry) => [entry.status, entry.fault])).toEqual([
      [503, 'unavailable'],
      [200, undefined],
    ]);
  });
});
