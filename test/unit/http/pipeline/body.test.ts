import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dropRestOfBody, keepConnectionAfterRefusal } from '../../../../src/http/pipeline/body.js';

// What happens to the connection after fastify refused a body (pipeline/body.ts), on stand-ins:
// the connection is kept, the rest of the body read and dropped, and cut only past 16 MiB more or
// 2 s. test/api/http/pipeline/refused-body-connection.test.ts does the same over real sockets.

const LINGER_BYTES = 16 * 1024 * 1024;

function setup({ complete = false, connection = 'close', injected = false } = {}) {
  // A connection's socket; inject()'s is a stand-in with no destroy() (light-my-request's).
  const socket = injected ? { remoteAddress: '127.0.0.1' } : new Socket();
  const destroy = injected ? vi.fn() : vi.spyOn(socket as Socket, 'destroy');
  const raw = Object.assign(new Readable({ read() {} }), {
    complete,
    socket,
    headers: { 'transfer-encoding': 'chunked' } as Record<string, string>,
  });
  const headers: Record<string, string> = { connection };
  const reply = {
    getHeader: (name: string) => headers[name],
    removeHeader: (name: string) => {
      delete headers[name];
    },
  } as unknown as FastifyReply;
  keepConnectionAfterRefusal(reply);
  dropRestOfBody({ raw } as unknown as FastifyRequest);
  const listeners = () => ['data', 'end', 'close'].map((event) => raw.listenerCount(event));
  return { raw, destroy, headers, listeners };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('keepConnectionAfterRefusal, then dropRestOfBody', () => {
  it('keeps a header fastify did not set to close', () => {
    const { headers } = setup({ connection: 'keep-alive' });
    expect(headers).toEqual({ connection: 'keep-alive' });
  });

  it('reads nothing of a request that declares no body', () => {
    const destroy = vi.fn();
    const raw = Object.assign(new Readable({ read() {} }), {
      complete: false,
      socket: { destroy },
      headers: {},
    });
    dropRestOfBody({ raw } as unknown as FastifyRequest);
    expect(raw.listenerCount('data')).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(destroy).not.toHaveBeenCalled();
  });

  it('keeps the connection of a body read whole, and reads nothing more', () => {
    const { headers, listeners, destroy } = setup({ complete: true });
    expect(headers).toEqual({});
    expect(listeners()).toEqual([0, 0, 0]);
    vi.advanceTimersByTime(10_000);
    expect(destroy).not.toHaveBeenCalled();
  });

  it('reads the rest of a body and drops it, then leaves the connection alone', async () => {
    const { raw, headers, listeners, destroy } = setup();
    expect(headers).toEqual({});
    raw.push(Buffer.alloc(1024));
    raw.push(null);
    await vi.waitFor(() => expect(raw.readableEnded).toBe(true));
    expect(listeners()).toEqual([0, 0, 0]);
    vi.advanceTimersByTime(10_000);
    expect(destroy).not.toHaveBeenCalled();
  });

  it('stops when the request closes before its end', () => {
    const { raw, listeners, destroy } = setup();
    raw.emit('close');
    expect(listeners()).toEqual([0, 0, 0]);
    vi.advanceTimersByTime(10_000);
    expect(destroy).not.toHaveBeenCalled();
  });

  it('drops up to 16 MiB more, and closes the connection past that', async () => {
    const { raw, destroy, listeners } = setup();
    raw.push(Buffer.alloc(LINGER_BYTES));
    await vi.waitFor(() => expect(raw.readableLength).toBe(0));
    expect(destroy).not.toHaveBeenCalled();
    raw.push(Buffer.alloc(1));
    await vi.waitFor(() => expect(destroy).toHaveBeenCalledOnce());
    expect(listeners()).toEqual([0, 0, 0]);
  });

  it('over inject(), which has no connection, ends the request instead, past 16 MiB or 2 s', async () => {
    // Calling the stand-in socket's destroy() threw out of a stream event: the process died.
    const past = setup({ injected: true });
    past.raw.push(Buffer.alloc(LINGER_BYTES + 1));
    await vi.waitFor(() => expect(past.raw.destroyed).toBe(true));
    expect(past.listeners()).toEqual([0, 0, 0]);
    const late = setup({ injected: true });
    vi.advanceTimersByTime(2_000);
    expect(late.raw.destroyed).toBe(true);
    expect(late.listeners()).toEqual([0, 0, 0]);
  });

  it('closes the connection of a body still coming after 2 s', () => {
    const { destroy, listeners } = setup();
    vi.advanceTimersByTime(1_999);
    expect(destroy).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(destroy).toHaveBeenCalledOnce();
    expect(listeners()).toEqual([0, 0, 0]);
  });
});
