import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../src/index.js';
import { AUTH, makeFake } from '../../helpers/fake.js';

// The branches of the fault pipeline that only a real
// socket takes (inject has none). Plain HTTP on 127.0.0.1 and a raw keep-alive client, so nothing
// but the fake's own action closes the connection: a fault that forgot to cut it leaves the
// client waiting, which the bounded wait below reports as `closed: false`.

/** Longer than any answer on loopback takes; only a connection left open waits this long. */
const QUIET_MS = 2_000;

interface Outcome {
  /** Every byte the client received, as latin1 text. */
  received: string;
  /** Whether the server closed the connection (false: still open after QUIET_MS). */
  closed: boolean;
}

/** Sends one raw HTTP/1.1 keep-alive request and collects what comes back until the server closes. */
function exchange(port: number, request: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ received: Buffer.concat(chunks).toString('latin1'), closed: false });
    }, QUIET_MS);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset is a close as the client sees it.
      if (error.code !== 'ECONNRESET') reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ received: Buffer.concat(chunks).toString('latin1'), closed: true });
    });
    socket.write(request);
  });
}

const getLists = [
  'GET /marketing/v1/lists HTTP/1.1',
  'Host: 127.0.0.1',
  `Authorization: ${AUTH}`,
  'Connection: keep-alive',
  '',
  '',
].join('\r\n');

let fake: FakeMarketingServer;
let port: number;
beforeEach(async () => {
  fake = await makeFake();
  port = Number(new URL((await fake.listen({ https: false })).url).port);
});
afterEach(() => fake.close());

describe('faults that cut the connection, over a real socket', () => {
  it('without a fault the keep-alive connection stays open (what makes the tests below mean something)', async () => {
    const outcome = await exchange(port, getLists);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(outcome.closed).toBe(false);
  });

  it('reset: the server closes the connection without sending a byte', async () => {
    fake.faults.add({ kind: 'reset' });
    expect(await exchange(port, getLists)).toEqual({ received: '', closed: true });
    expect(fake.requests().map((entry) => [entry.status, entry.fault])).toEqual([[0, 'reset']]);
  });

  it('no-response: held with nothing sent; removing the rule closes the connection', async () => {
    const rule = fake.faults.add({ kind: 'no-response' });
    const held = exchange(port, getLists);
    await fake.waitForRequest({ fault: 'no-response' }, { timeoutMs: 5_000 });
    rule.remove();
    expect(await held).toEqual({ received: '', closed: true });
  });

  it('malformed: a 200 promising the whole error body, half of it, then the connection closes', async () => {
    fake.faults.add({ kind: 'malformed' });
    const { received, closed } = await exchange(port, getLists);
    expect(closed).toBe(true);
    const [head = '', body] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const whole = JSON.stringify({
      message: 'This response was cut off by an injected fault (malformed).',
    });
    expect(head).toContain(`\r\ncontent-length: ${Buffer.byteLength(whole)}`);
    expect(head).toMatch(/\r\ncontent-type: application\/json/);
    expect(body).toBe(whole.slice(0, Math.floor(whole.length / 2)));
  });
});
