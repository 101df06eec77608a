import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../src/index.js';
import { AUTH, makeFake } from '../../helpers/fake.js';

// docs/security.md: over HTTP, pipelined requests are all answered; over HTTPS, Node answers a
// burst of pipelined requests whole up to about 16 KiB (past it, the first only, as a plain
// `node:https` server does). A burst is sent once the one before is answered whole, on one
// connection, and every answer is counted by its Content-Length.

const lists = `GET /marketing/v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n\r\n`;

/** Sends `bursts` bursts of `size` pipelined GET /lists; the 200s received before the end. */
function pipeline(socket: Socket, size: number, bursts: number): Promise<number> {
  return new Promise((resolve) => {
    let received = '';
    let answered = 0;
    let sent = 0;
    const done = () => {
      socket.destroy();
      resolve(answered);
    };
    const sendBurst = () => {
      if (sent === bursts) return done();
      sent += 1;
      socket.write(lists.repeat(size));
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      for (;;) {
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd === -1) return;
        const head = received.slice(0, headEnd);
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < headEnd + 4 + length) return;
        received = received.slice(headEnd + 4 + length);
        if (head.startsWith('HTTP/1.1 200 ')) answered += 1;
        if (answered % size === 0) sendBurst();
      }
    });
    socket.on('error', done);
    socket.on('close', done);
    setTimeout(done, 20_000).unref();
    sendBurst();
  });
}

describe('pipelined requests on one connection', () => {
  let overHttp: FakeMarketingServer;
  let overHttps: FakeMarketingServer;
  let httpPort: number;
  let httpsPort: number;
  beforeAll(async () => {
    overHttp = await makeFake();
    overHttps = await makeFake();
    httpPort = Number(new URL((await overHttp.listen({ https: false })).url).port);
    httpsPort = Number(new URL((await overHttps.listen({ https: true })).url).port);
  });
  afterAll(() => Promise.all([overHttp.close(), overHttps.close()]));

  it('over HTTP, ten bursts of 300 (over 16 KiB each) are all answered', async () => {
    const socket = connectTcp({ port: httpPort, host: '127.0.0.1' });
    expect(Buffer.byteLength(lists) * 300).toBeGreaterThan(16 * 1024);
    expect(await pipeline(socket, 300, 10)).toBe(3000);
  });

  it('over HTTPS, ten bursts of 100 (under 16 KiB each) are all answered', async () => {
    const socket = connectTls({ port: httpsPort, host: '127.0.0.1', rejectUnauthorized: false });
    expect(Buffer.byteLength(lists) * 100).toBeLessThan(16 * 1024);
    expect(await pipeline(socket, 100, 10)).toBe(1000);
  });
});
