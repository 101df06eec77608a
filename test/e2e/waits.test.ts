import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { MAX_WAITS } from '../../src/journal/journal.js';
import { makeFake } from '../helpers/fake.js';

let fake: FakeMarketingServer;
let url: string;

beforeAll(async () => {
  fake = await makeFake();
  ({ url } = await fake.listen({ https: false }));
});
afterAll(() => fake.close());

/** A long poll over its own connection; resolves with the status, or never. */
function poll(timeoutMs: number) {
  const { hostname, port } = new URL(url);
  let req: ReturnType<typeof request> | undefined;
  const status = new Promise<number>((resolve) => {
    req = request(
      {
        host: hostname,
        port,
        path: `/__admin/requests/wait?path=/content&timeoutMs=${timeoutMs}`,
        agent: false,
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', () => resolve(0));
    req.end();
  });
  return { status, close: () => req?.destroy() };
}

describe('long polls over a socket', () => {
  it('a client that goes away frees its place under the cap', async () => {
    const polls = Array.from({ length: MAX_WAITS }, () => poll(60_000));
    // Once the cap is full, one more is refused.
    let refused = 0;
    for (let attempt = 0; attempt < 100 && refused !== 429; attempt += 1) {
      refused = await poll(0).status;
    }
    expect(refused).toBe(429);
    for (const one of polls) one.close();
    // Their waits end as the connections close: a new wait is taken (404 after 0 ms), not refused.
    let status = 429;
    for (let attempt = 0; attempt < 100 && status === 429; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status = await poll(0).status;
    }
    expect(status).toBe(404);
  });
});
