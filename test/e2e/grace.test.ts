import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { spawnCliPerTest, started } from '../helpers/cli.js';
import { basic } from '../helpers/fake.js';
import { openSocket } from '../helpers/raw-socket.js';

/**
 * SIGTERM (or Ctrl+C) gives requests in flight 2 s to finish (README: "Stopping"): one whose body
 * is still arriving is answered if it completes in time, and cut off if it never does, so a
 * stalled client cannot keep the process alive.
 */
const run = spawnCliPerTest();

const BODY = JSON.stringify({ emailAddress: 'late@example.com' });

/** A PUT whose headers and first half of the body are sent; the rest is up to the test. */
async function halfSent(
  url: string,
): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = await openSocket({ url, ca: undefined });
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    'PUT /marketing/v1/lists/1/contacts HTTP/1.1\r\nHost: localhost\r\n' +
      `Authorization: ${basic(12345, 'sandbox-key-12345')}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n` +
      BODY.slice(0, 10),
  );
  return { socket, received: () => text, closed };
}

describe('stopping with requests in flight', () => {
  it('a request that completes within the grace period is answered, then the process exits 0', async () => {
    const cli = run(['--port', '0', '--http']);
    const { url } = await started(cli);
    const { socket, received, closed } = await halfSent(url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cli.child.kill('SIGTERM');
    // Well within the 2 s.
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(BODY.slice(10));
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 200 /);
    expect((await cli.exited).code).toBe(0);
  });

  it('a request that never completes is cut off after the grace period, and the process exits 0', async () => {
    const cli = run(['--port', '0', '--http']);
    const { url } = await started(cli);
    const { received, closed } = await halfSent(url);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cli.child.kill('SIGTERM');
    await closed;
    expect(received()).toBe('');
    expect((await cli.exited).code).toBe(0);
  });
});
