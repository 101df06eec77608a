import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { afterBodyRead, keepBody } from '../../../../src/http/pipeline/journal.js';
import { API_BODY_LIMIT } from '../../../../src/http/route.js';

// When the journal reads a body nothing else read, and how, on stand-in requests over a readable stream the test feeds.
// inject hands a whole body over at once and ends it, so only a stream the test holds open shows
// whether the answer waits for a body, what it keeps, and what it leaves on the request.

const EVENTS = ['data', 'end', 'error'] as const;

/** A request body the test feeds chunk by chunk, with the headers that declare it. */
function stream(headers: Record<string, string>) {
  const raw = Object.assign(new Readable({ read() {} }), { headers });
  return raw;
}

function pending(raw: Readable, rawBody: Buffer | null = null) {
  return { raw, journalPending: true, rawBody } as unknown as FastifyRequest;
}

const reply = (statusCode: number) => ({ statusCode }) as unknown as FastifyReply;

/** Resolves once `then` was called; the spy says how often. */
function waiter() {
  let resolve = () => {};
  const ended = new Promise<void>((done) => {
    resolve = done;
  });
  const then = vi.fn(() => resolve());
  return { then, ended };
}

const listeners = (raw: Readable) => EVENTS.map((event) => raw.listenerCount(event));

describe('afterBodyRead', () => {
  it('waits for a body nothing read and keeps it (the case the guards below skip)', async () => {
    const raw = stream({ 'content-length': '5' });
    const request = pending(raw);
    const { then, ended } = waiter();
    afterBodyRead(request, reply(401), then);
    expect(then).not.toHaveBeenCalled();
    raw.push('hello');
    raw.push(null);
    await ended;
    expect(request.rawBody?.toString()).toBe('hello');
  });

  it('does not read a body already kept again: the answer goes at once', () => {
    const raw = stream({ 'content-length': '5' });
    const kept = Buffer.from('kept!');
    const request = pending(raw, kept);
    const then = vi.fn();
    afterBodyRead(request, reply(401), then);
    expect(then).toHaveBeenCalledOnce();
    expect(request.rawBody).toBe(kept);
    expect(raw.readableDidRead).toBe(false);
    expect(listeners(raw)).toEqual([0, 0, 0]);
  });

  it('does not wait for the body of a 413, even one whose length was not declared', () => {
    const raw = stream({ 'transfer-encoding': 'chunked' });
    const request = pending(raw);
    const then = vi.fn();
    afterBodyRead(request, reply(413), then);
    expect(then).toHaveBeenCalledOnce();
    expect(request.rawBody).toBeNull();
    expect(listeners(raw)).toEqual([0, 0, 0]);
  });
});

describe('afterBodyRead, a body it must not wait for', () => {
  it('answers at once a request that declares no body', () => {
    const raw = stream({});
    const then = vi.fn();
    afterBodyRead(pending(raw), reply(401), then);
    expect(then).toHaveBeenCalledOnce();
    expect(listeners(raw)).toEqual([0, 0, 0]);
  });

  it('answers at once when the body was read already, has ended, or was destroyed', async () => {
    const read = stream({ 'content-length': '5' });
    read.push('hello');
    read.read();
    const ended = stream({ 'content-length': '5' });
    ended.push(null);
    ended.resume();
    await new Promise((resolve) => ended.once('end', resolve));
    const destroyed = stream({ 'content-length': '5' });
    destroyed.destroy();
    for (const raw of [read, ended, destroyed]) {
      const then = vi.fn();
      afterBodyRead(pending(raw), reply(401), then);
      expect(then).toHaveBeenCalledOnce();
      expect(listeners(raw)).toEqual([0, 0, 0]);
    }
  });
});

describe('keepBody', () => {
  it('answers at once a request that declares no body (neither length nor chunks)', () => {
    const raw = stream({});
    const request = pending(raw);
    const then = vi.fn();
    keepBody(request, then);
    expect(then).toHaveBeenCalledOnce();
    expect(request.rawBody).toBeNull();
    expect(listeners(raw)).toEqual([0, 0, 0]);
  });

  it('keeps exactly the limit once it is reached, and reads the rest to the end', async () => {
    const raw = stream({ 'transfer-encoding': 'chunked' });
    const request = pending(raw);
    const { then, ended } = waiter();
    keepBody(request, then);
    const half = Buffer.alloc(API_BODY_LIMIT / 2, 'a');
    raw.push(half);
    raw.push(half);
    raw.push('past the limit');
    raw.push(null);
    await ended;
    expect(request.rawBody?.length).toBe(API_BODY_LIMIT);
    expect(raw.readableEnded).toBe(true);
  });

  it('leaves no listener on the request once the body ended', async () => {
    const raw = stream({ 'content-length': '3' });
    const { then, ended } = waiter();
    keepBody(pending(raw), then);
    expect(listeners(raw)).toEqual([1, 1, 1]);
    raw.push('abc');
    raw.push(null);
    await ended;
    expect(then).toHaveBeenCalledOnce();
    expect(listeners(raw)).toEqual([0, 0, 0]);
  });

  it('answers with what arrived when the request fails mid-body, and leaves no listener', async () => {
    const raw = stream({ 'content-length': '10' });
    const request = pending(raw);
    const { then, ended } = waiter();
    keepBody(request, then);
    raw.push('abc');
    await new Promise((resolve) => setImmediate(resolve));
    raw.destroy(new Error('the client went away'));
    await ended;
    expect(then).toHaveBeenCalledOnce();
    expect(request.rawBody?.toString()).toBe('abc');
    expect(listeners(raw)).toEqual([0, 0, 0]);
  });
});
