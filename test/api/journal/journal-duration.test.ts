import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { AUTH, call, makeFake, useFake } from '../../helpers/fake.js';

// docs/journal.md: "`durationMs` runs from arrival to the answer (or the cut connection), on the
// real clock." fastify no longer times replies: without the fake's own clock every entry says 0.

describe('durationMs', () => {
  const fake = useFake();

  it('counts a delay fault, from arrival to the answer', async () => {
    fake.faults.add({ kind: 'delay', delayMs: 60, times: 1 });
    const started = performance.now();
    await call(fake, 'GET', 'lists');
    const took = performance.now() - started;
    const [entry] = fake.requests();
    expect(entry!.durationMs).toBeGreaterThanOrEqual(59);
    expect(entry!.durationMs).toBeLessThanOrEqual(took + 1);
  });

  it('is more than nothing for an answer given at once, and counts on the real clock', async () => {
    await call(fake, 'GET', 'lists');
    const put = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'ann@example.com' },
    });
    expect(put.status).toBe(200);
    for (const entry of fake.requests()) {
      expect(entry.durationMs).toBeGreaterThan(0);
      expect(entry.durationMs).toBeLessThan(10_000);
    }
  });
});

/** A GET /lists written on a raw connection to the fake at `url`, which the test then holds or drops. */
function sendLists(url: string) {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `GET /marketing/v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n\r\n`,
  );
  return socket;
}

describe('durationMs of a request held without an answer (no-response)', () => {
  // Recorded when held, it must not keep the ~0 ms it had then.
  it('is recorded at once, and runs to when the client gave up', async () => {
    await using fake = await makeFake();
    const { url } = await fake.listen({ https: false });
    fake.faults.add({ kind: 'no-response', times: 1 });
    const socket = sendLists(url);
    // A test can wait for the held request while it is held.
    const held = await fake.waitForRequest({ path: '/lists' }, { timeoutMs: 2_000 });
    expect(held.status).toBe(0);
    expect(held.fault).toBe('no-response');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.destroy();
    await closed;
    await vi.waitFor(() => expect(fake.requests()[0]!.durationMs).toBeGreaterThanOrEqual(290));
    expect(fake.requests()[0]!.durationMs).toBeLessThan(10_000);
    expect(fake.requests()).toHaveLength(1);
  });

  it('runs to the release when the rule is removed', async () => {
    await using fake = await makeFake();
    const { url } = await fake.listen({ https: false });
    const rule = fake.faults.add({ kind: 'no-response' });
    const socket = sendLists(url);
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await fake.waitForRequest({ path: '/lists' }, { timeoutMs: 2_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    fake.faults.remove(rule.id);
    await closed;
    await vi.waitFor(() => expect(fake.requests()[0]!.durationMs).toBeGreaterThanOrEqual(190));
  });

  it('a client that leaves before a delay ends is recorded with the answer sent after it left', async () => {
    await using fake = await makeFake();
    const { url } = await fake.listen({ https: false });
    fake.faults.add({ kind: 'delay', delayMs: 300, times: 1 });
    const socket = sendLists(url);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    const entry = await fake.waitForRequest({ path: '/lists' }, { timeoutMs: 2_000 });
    expect(entry.status).toBe(200);
    expect(entry.durationMs).toBeGreaterThanOrEqual(299);
  });
});
