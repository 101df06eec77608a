import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

/** One step of the pipeline, shaped as a fastify `onRequest` hook. */
export type Step = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

/**
 * The steps as one `onRequest` hook, run as fastify runs hooks: each starts when the one before
 * calls `done` without an error; the first error ends the run and goes to the error handler, as
 * does an exception a step throws; a step that took the reply over (a fault that cuts the
 * connection) or answered ends it too. One hook instead of several, for speed (see app.ts).
 */
export function inOrder(steps: readonly Step[]): Step {
  return function inOrder(request, reply, done) {
    let index = 0;
    const next = (error?: Error) => {
      if (reply.sent) return;
      if (error || index === steps.length) return done(error);
      const step = steps[index++]!;
      try {
        step(request, reply, next);
      } catch (thrown) {
        done(thrown as Error);
      }
    };
    next();
  };
}
