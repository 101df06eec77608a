import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../../../src/index.js';
import { AUTH, makeFake } from '../../../helpers/fake.js';

// A body refused while the client is still sending it (a chunked body past the 1 MiB limit) gets
// its 413, and the connection stays usable. fastify closed it with bytes left unread, so the kernel
// reset it, and over TLS the client lost the 413 about one time in three. A body read whole and
// refused (not JSON) no longer closes the connection either.

const MiB = 1024 * 1024;

/** Writes `text` at once and reads what comes back until `count` answers or the socket closes. */
function exchange(socket: Socket, text: string, count: number): Promise<number[]> {
  return new Promise((resolve) => {
    let received = '';
    const statuses = () =>
      [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
    const done = () => {
      socket.destroy();
      resolve(statuses());
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (statuses().length >= count) done();
    });
    socket.on('error', done);
    socket.on('close', done);
    setTimeout(done, 10_000).unref();
    socket.write(text);
  });
}

const lists = `GET /marketing/v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n\r\n`;

function chunkedPut(path: string, size: number, type = 'application/json'): string {
  const body = ' '.repeat(size);
  return (
    `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n` +
    `Content-Type: ${type}\r\nTransfer-Encoding: chunked\r\n\r\n` +
    `${size.toString(16)}\r\n${body}\r\n0\r\n\r\n`
  );
}

describe.each([
  ['HTTPS', true],
  ['HTTP', false],
] as const)('a body refused while it is sent, over %s', (_name, https) => {
  let fake: FakeMarketingServer;
  let port: number;
  beforeAll(async () => {
    fake = await makeFake();
    port = Number(new URL((await fake.listen({ https })).url).port);
  });
  afterAll(() => fake.close());

  const open = (): Promise<Socket> =>
    new Promise((resolve) => {
      const socket = https
        ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false }, () => resolve(socket))
        : connectTcp(port, '127.0.0.1', () => resolve(socket));
    });

  it('gets its 413 every time, and the next request on the connection its answer', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const text = chunkedPut('/marketing/v1/lists/1/contacts', 4 * MiB) + lists;
      expect(await exchange(await open(), text, 2)).toEqual([413, 200]);
    }
  });

  it('keeps the connection after a body that is not JSON', async () => {
    const body = '{"emailAddress": ';
    const put =
      `PUT /marketing/v1/lists/1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    expect(await exchange(await open(), put + lists, 2)).toEqual([400, 200]);
  });

  /**
   * Sends `head`, then `part` up to 64 times while the server reads, until it closes the
   * connection; what came back and how many parts went.
   */
  async function sendUntilClosed(head: string, part: string) {
    const socket = await open();
    let received = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => undefined);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write(head);
    let sent = 0;
    while (sent < 64 && !socket.destroyed) {
      sent += 1;
      if (!socket.write(part)) {
        await new Promise((resolve) => {
          socket.once('drain', resolve).once('close', resolve);
        });
      }
    }
    await closed;
    return { received, sent };
  }

  const putHead = (framing: string) =>
    `PUT /marketing/v1/lists/1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n` +
    `Content-Type: application/json\r\n${framing}\r\n\r\n`;

  it('closes the connection of a body that goes on past 16 MiB more, after its 413', async () => {
    const { received, sent } = await sendUntilClosed(
      putHead('Transfer-Encoding: chunked'),
      `${MiB.toString(16)}\r\n${' '.repeat(MiB)}\r\n`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    // The limit (1 MiB), then at most 16 MiB more, and what was on its way when it was cut.
    expect(sent).toBeLessThan(64);
  });

  it('closes the connection of a declared length past the limit once 16 MiB more came', async () => {
    const { received, sent } = await sendUntilClosed(
      putHead(`Content-Length: ${1024 * MiB}`),
      ' '.repeat(MiB),
    );
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(64);
  });
});
