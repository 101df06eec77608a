import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../../src/index.js';
import { makeFake } from '../../../helpers/fake.js';

// docs/control-api.md, as a client on the wire spells it: the spaces and tabs a header value
// starts and ends with are dropped by Node before the fake reads it; with two Authorization
// headers, the first is read. A tab between the scheme and the token is not a space, nor is a
// no-break space (byte 0xA0: the header block is written as latin1).

const TOKEN = 'wire-token-123';

/** Sends `lines` as the header block of GET /__admin/state; the status that comes back. */
function stateWith(port: number, lines: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0)));
    const head = ['GET /__admin/state HTTP/1.1', 'Host: 127.0.0.1', ...lines, 'Connection: close'];
    socket.write(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
  });
}

describe('the admin token on the wire', () => {
  let fake: FakeMarketingServer;
  let port: number;
  beforeAll(async () => {
    fake = await makeFake({ adminToken: TOKEN });
    port = Number(new URL((await fake.listen({ https: false })).url).port);
  });
  afterAll(() => fake.close());

  it.each([
    [`Authorization: Bearer ${TOKEN}`],
    [`Authorization:\tBearer ${TOKEN}\t`],
    [`Authorization:Bearer ${TOKEN} \t `],
    [`Authorization: Bearer ${TOKEN}`, 'Authorization: Basic Zm9vOmJhcg=='],
  ])('opens with %j', async (...lines) => {
    expect(await stateWith(port, lines)).toBe(200);
  });

  it.each([
    [`Authorization: Bearer \t${TOKEN}`],
    [`Authorization: Bearer\t${TOKEN}`],
    [`Authorization: Bearer ${TOKEN}\u00a0`],
    ['Authorization: Basic Zm9vOmJhcg==', `Authorization: Bearer ${TOKEN}`],
  ])('refuses %j', async (...lines) => {
    expect(await stateWith(port, lines)).toBe(401);
  });
});
