import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { inOrder, type Step } from '../../../../src/http/pipeline/in-order.js';

// The pipeline's onRequest steps run as one hook (app.ts): in order, stopping as fastify would.

const request = {} as FastifyRequest;
const replyOf = (state = { sent: false }) => state as unknown as FastifyReply & { sent: boolean };

function recorder() {
  const calls: string[] = [];
  const step =
    (name: string, then: (done: (error?: Error) => void) => void = (done) => done()): Step =>
    (_request, _reply, done) => {
      calls.push(name);
      then(done);
    };
  return { calls, step };
}

describe('inOrder', () => {
  it('runs every step in order, then calls done once without an error', () => {
    const { calls, step } = recorder();
    const done = vi.fn();
    inOrder([step('a'), step('b'), step('c')])(request, replyOf(), done);
    expect(calls).toEqual(['a', 'b', 'c']);
    expect(done).toHaveBeenCalledOnce();
    expect(done).toHaveBeenCalledWith(undefined);
  });

  it('stops at the first error and hands it to done', () => {
    const { calls, step } = recorder();
    const done = vi.fn();
    const error = new Error('refused');
    inOrder([step('a'), step('b', (next) => next(error)), step('c')])(request, replyOf(), done);
    expect(calls).toEqual(['a', 'b']);
    expect(done).toHaveBeenCalledExactlyOnceWith(error);
  });

  it('hands an exception a step throws to done, and runs no later step', () => {
    const { calls, step } = recorder();
    const done = vi.fn();
    const error = new Error('a bug');
    const throwing = step('b', () => {
      throw error;
    });
    inOrder([step('a'), throwing, step('c')])(request, replyOf(), done);
    expect(calls).toEqual(['a', 'b']);
    expect(done).toHaveBeenCalledExactlyOnceWith(error);
  });

  it('goes on when a step calls done later (a delay fault)', async () => {
    const { calls, step } = recorder();
    const finished = new Promise<unknown>((resolve) => {
      inOrder([step('a', (next) => setTimeout(next, 5)), step('b')])(request, replyOf(), resolve);
    });
    expect(calls).toEqual(['a']);
    expect(await finished).toBeUndefined();
    expect(calls).toEqual(['a', 'b']);
  });

  it('ends without done when a step took the reply over or answered', () => {
    const { calls, step } = recorder();
    const done = vi.fn();
    const state = { sent: false };
    const hijacking = step('b', (next) => {
      state.sent = true;
      next();
    });
    inOrder([step('a'), hijacking, step('c')])(request, replyOf(state), done);
    expect(calls).toEqual(['a', 'b']);
    expect(done).not.toHaveBeenCalled();
  });

  it('calls done at once when there is no step', () => {
    const done = vi.fn();
    inOrder([])(request, replyOf(), done);
    expect(done).toHaveBeenCalledExactlyOnceWith(undefined);
  });
});
