import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  FakeClosedError,
  type FakeMarketingServer,
  StateError,
  TooManyWaitsError,
} from '../../src/index.js';
import { MAX_WAITS } from '../../src/journal/journal.js';
import { makeFake } from '../helpers/fake.js';

/**
 * A wait pending when the fake stops was answered 409, which docs/control-api.md did not list and
 * which says the request conflicts with a resource. The server is going away, so 503, as for any
 * request a stopping server turns away.
 */
describe('a wait pending when the fake closes', () => {
  it('GET /__admin/requests/wait is answered 503 with the message, at once', async () => {
    const fake = await makeFake();
    const { url } = await fake.listen({ https: false });
    const { hostname, port } = new URL(url);
    const answer = new Promise<{ status: number; type: string; body: string }>(
      (resolve, reject) => {
        const req = request(
          {
            host: hostname,
            port,
            path: '/__admin/requests/wait?path=/content&timeoutMs=60000',
            agent: false,
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              body += chunk;
            });
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                type: String(res.headers['content-type']),
                body,
              }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    // The HTTP wait is pending once the fake counts it: with MAX_WAITS - 1 waits of our own,
    // one more is then refused.
    const ours = Array.from({ length: MAX_WAITS - 1 }, () => ownWait(fake));
    while (!(await capReached(fake))) await new Promise((resolve) => setTimeout(resolve, 10));
    await fake.close();
    const { status, type, body } = await answer;
    for (const wait of ours) expect(await wait).toBeInstanceOf(FakeClosedError);
    expect(status).toBe(503);
    expect(type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(body)).toEqual({
      message: 'The fake was closed while waiting for a request.',
    });
  });

  it('waitForRequest() rejects with FakeClosedError, a StateError coded FAKE_CLOSED', async () => {
    const fake = await makeFake();
    const waiting = fake.waitForRequest({ path: '/content' }, { timeoutMs: 60_000 });
    await fake.close();
    const error = await waiting.catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FakeClosedError);
    expect(error).toBeInstanceOf(StateError);
    expect(error).toMatchObject({
      code: 'FAKE_CLOSED',
      status: 503,
      message: 'The fake was closed while waiting for a request.',
    });
  });
});

/** A wait of our own that never matches; resolves with what ended it. */
function ownWait(fake: FakeMarketingServer): Promise<unknown> {
  return fake
    .waitForRequest({ path: '/nothing-ever' }, { timeoutMs: 60_000 })
    .catch((error: unknown) => error);
}

/** True when one more wait is refused for the cap; a wait that is accepted is ended again. */
async function capReached(fake: FakeMarketingServer): Promise<boolean> {
  const stop = new AbortController();
  const probe = fake
    .waitForRequest({ path: '/nothing-ever' }, { timeoutMs: 60_000, signal: stop.signal })
    .catch((error: unknown) => error);
  stop.abort(new Error('probe ended'));
  return (await probe) instanceof TooManyWaitsError;
}
