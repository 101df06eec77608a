import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FaultKind } from '../../control/fault-rule.js';
import type { Journal } from '../../control/journal.js';
import type { Core } from '../../core.js';
import { isPublicApi, pathOf } from '../../paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Epoch ms (fake's clock) when a `/marketing/` request arrived. */
    arrived: number;
    /** True for a `/marketing/` request that is still to be journaled. */
    journalPending: boolean;
    /** The fault kind answering this request, if any. */
    fault: FaultKind | null;
  }
}

/**
 * The journal's part of the pipeline: it notes when a `/marketing/` request arrives (first of all,
 * so a delay counts) and records it once answered. Answers that bypass fastify (faults that cut the
 * connection) are recorded by {@link JournalHooks.recordNow}, with what the client saw.
 */
export interface JournalHooks {
  arrive(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  answered(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  recordNow(request: FastifyRequest, status: number): void;
}

export function journalHooks(core: Core): JournalHooks {
  const { journal, now } = core;
  return {
    arrive(request, _reply, done) {
      if (isPublicApi(request.url)) {
        request.arrived = now();
        request.journalPending = true;
      }
      done();
    },
    answered(request, reply, done) {
      if (request.journalPending) record(journal, request, reply.statusCode);
      done();
    },
    recordNow(request, status) {
      record(journal, request, status);
    },
  };
}

function record(journal: Journal, request: FastifyRequest, status: number): void {
  request.journalPending = false;
  journal.record({
    arrived: request.arrived,
    method: request.method,
    path: pathOf(request.url),
    serverId: request.tenant?.serverId,
    status,
    fault: request.fault ?? undefined,
  });
}
