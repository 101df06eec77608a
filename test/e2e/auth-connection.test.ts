import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { basic, KEY, makeFake, OTHER_KEY, OTHER_SERVER_ID, SERVER_ID } from '../helpers/fake.js';

// A connection that sends again the Authorization header that opened a server opens it again
// without the header being parsed (src/http/pipeline/auth.ts). These calls share one keep-alive
// connection (checked), so every answer here comes after the same connection authenticated.

let fake: FakeMarketingServer;
let base: string;
let agent: Agent;

beforeAll(async () => {
  fake = await makeFake();
  base = (await fake.listen({ https: false })).url;
});
afterAll(() => fake.close());

/** GET /lists on the one connection; the status, and whether the connection was used before. */
function lists(
  headers: Record<string, string | string[]>,
): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const sent = request(`${base}/marketing/v1/lists`, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () =>
        resolve({ status: response.statusCode!, reused: sent.reusedSocket }),
      );
    });
    sent.on('error', reject).end();
  });
}

describe('credentials sent again on one connection', () => {
  beforeAll(() => {
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  });
  afterAll(() => agent.destroy());

  it('open the server each time, and other credentials are checked anew', async () => {
    const good = { authorization: basic(SERVER_ID, KEY) };
    expect(await lists(good)).toEqual({ status: 200, reused: false });
    expect(await lists(good)).toEqual({ status: 200, reused: true });
    // Another header on the same connection: checked, refused, and the good one still works.
    expect(await lists({ authorization: basic(SERVER_ID, 'wrong-key') })).toEqual({
      status: 401,
      reused: true,
    });
    expect(await lists({})).toEqual({ status: 401, reused: true });
    expect(await lists({ authorization: basic(OTHER_SERVER_ID, KEY) })).toEqual({
      status: 401,
      reused: true,
    });
    expect(await lists(good)).toEqual({ status: 200, reused: true });
    // The other server's credentials open the other server, on the same connection.
    const other = { authorization: basic(OTHER_SERVER_ID, OTHER_KEY) };
    expect(await lists(other)).toEqual({ status: 200, reused: true });
    expect(fake.requests().at(-1)?.serverId).toBe(OTHER_SERVER_ID);
  });

  it('read the first of two Authorization headers, on a used connection as on a new one', async () => {
    const good = basic(SERVER_ID, KEY);
    const bad = basic(SERVER_ID, 'wrong-key');
    expect(await lists({ authorization: [good, bad] })).toEqual({ status: 200, reused: true });
    expect(await lists({ authorization: [bad, good] })).toEqual({ status: 401, reused: true });
    const fresh = new Agent({ keepAlive: true, maxSockets: 1 });
    const used = agent;
    agent = fresh;
    try {
      expect(await lists({ authorization: [bad, good] })).toEqual({ status: 401, reused: false });
      expect(await lists({ authorization: [good, bad] })).toEqual({ status: 200, reused: true });
    } finally {
      agent = used;
      fresh.destroy();
    }
  });

  it('no longer open it once its key changed, even sent exactly as before', async () => {
    const before = { authorization: basic(SERVER_ID, KEY) };
    expect(await lists(before)).toEqual({ status: 200, reused: true });
    const key = fake.regenerateKey(SERVER_ID);
    expect(await lists(before)).toEqual({ status: 401, reused: true });
    expect(await lists({ authorization: basic(SERVER_ID, key) })).toEqual({
      status: 200,
      reused: true,
    });
  });

  it('no longer open a server that a reset took away', async () => {
    const added = fake.addServer({ serverId: 4242, key: 'key-4242-added' });
    const credentials = { authorization: basic(added.serverId, added.key) };
    expect(await lists(credentials)).toEqual({ status: 200, reused: true });
    await fake.reset();
    expect(await lists(credentials)).toEqual({ status: 401, reused: true });
  });
});
