import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../../src/index.js';
import { AUTH, makeFake } from '../../../helpers/fake.js';

// A refused body is read and dropped after the answer, up to 16 MiB more or 2 s, then its
// connection is closed. Over inject() there is no connection: closing the mock socket threw
// `raw.socket.destroy is not a function` out of a stream event, and the process died (a test
// runner's worker, or replay on a HAR entry with a body of 17 MiB or more).

const MiB = 1024 * 1024;
const put = { method: 'PUT', url: '/marketing/v1/lists/1/contacts' } as const;
const headers = { authorization: AUTH, 'content-type': 'application/json' };

describe('a body refused over inject()', () => {
  let fake: FakeMarketingServer;
  beforeAll(async () => {
    fake = await makeFake();
  });
  afterAll(() => fake.close());

  it.each([2, 17, 40])('of %i MiB is answered 413, and the fake goes on', async (size) => {
    const answer = await fake.inject({ ...put, headers, payload: 'x'.repeat(size * MiB) });
    expect(answer.statusCode).toBe(413);
    // Past the 16 MiB read and dropped: what would have closed a connection.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const lists = await fake.inject({ method: 'GET', url: '/marketing/v1/lists', headers });
    expect(lists.statusCode).toBe(200);
  });

  it('sent as a stream that never ends: answered 413, then no longer read after 2 s', async () => {
    let reads = 0;
    const endless = new Readable({
      read() {
        reads += 1;
        setTimeout(() => this.push(Buffer.alloc(64 * 1024, 0x20)), 5);
      },
    });
    const answer = await fake.inject({
      ...put,
      headers: { ...headers, 'transfer-encoding': 'chunked' },
      payload: endless,
    });
    expect(answer.statusCode).toBe(413);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const after = reads;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reads).toBe(after);
    endless.destroy();
  });
});
