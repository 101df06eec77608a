import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FaultKind } from '../../control/fault-rule.js';
import type { Headers } from '../../control/journal.js';
import type { Core } from '../../core.js';
import { isPublicApi, pathOf } from '../../paths.js';
import { responseTypeOf } from '../negotiate.js';
import { ROUTER } from '../routes/table.js';

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

/** What a fault that bypasses fastify sent, if anything. */
export interface CutOffAnswer {
  readonly headers: Headers;
  readonly body: string;
}

/**
 * The journal's part of the pipeline: it notes when a `/marketing/` request arrives (first of all,
 * so a delay counts) and records the exchange once answered. Answers that bypass fastify (faults
 * that cut the connection) are recorded by {@link JournalHooks.recordNow}, with what the client saw.
 */
export interface JournalHooks {
  arrive(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  answered(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  recordNow(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    sent?: CutOffAnswer,
  ): void;
}

const NO_HEADERS: Headers = {};

export function journalHooks(core: Core): JournalHooks {
  const { journal, now, redactor } = core;
  const record = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    responseHeaders: Headers | string,
    responseBody: string | Buffer | undefined,
  ) => {
    request.journalPending = false;
    // Redacted before it is kept: no key or token is ever held by the journal.
    journal.record(
      redactor.record({
        arrived: request.arrived,
        durationMs: reply.elapsedTime,
        protocol: request.protocol,
        method: request.method,
        url: request.url,
        query: request.query as Record<string, string | string[]>,
        serverId: request.tenant?.serverId,
        operation: request.operation?.operationId ?? operationOf(request),
        format: responseTypeOf(request).format,
        status,
        fault: request.fault ?? undefined,
        requestHeaders: request.headers,
        responseHeaders,
      }),
      redactor.body(request.rawBody ?? undefined),
      redactor.body(responseBody),
    );
  };
  return {
    arrive(request, _reply, done) {
      if (journal.enabled && isPublicApi(request.url)) {
        request.arrived = now();
        request.journalPending = true;
      }
      done();
    },
    answered(request, reply, done) {
      if (request.journalPending) {
        record(request, reply, reply.statusCode, sentHeaders(reply), request.sentBody);
      }
      done();
    },
    recordNow(request, reply, status, sent) {
      if (request.journalPending) {
        record(request, reply, status, sent?.headers ?? NO_HEADERS, sent?.body);
      }
    },
  };
}

/**
 * The response headers as sent. Node keeps the header block it wrote as a string on the response
 * (`_header`, long-standing though undocumented): a reference to it costs nothing, where
 * `getHeaders()` would build an object on every request. Parsed only when the journal is read.
 */
function sentHeaders(reply: FastifyReply): Headers | string {
  const block = (reply.raw as unknown as { _header?: unknown })._header;
  return typeof block === 'string' ? block : reply.getHeaders();
}

/** The operation a request was headed for when a fault answered it before routing. */
function operationOf(request: FastifyRequest): string | undefined {
  const found = ROUTER.lookup(request.method, pathOf(request.url));
  return found && 'route' in found ? found.route.operationId : undefined;
}
