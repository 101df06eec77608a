// Imported, not the global: Node 20's global `performance` is a getter, read twice a request.
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Core } from '../../core.js';
import type { FaultKind } from '../../faults/fault-rule.js';
import type { Headers, JournalRecord } from '../../journal/journal-entry.js';
import { type Recent, recentTexts } from '../../journal/recent.js';
import { claimedServerId } from '../../match/request-match.js';
import { isPublicApi, pathOf } from '../../paths.js';
import { responseTypeOf } from '../negotiate.js';
import { API_BODY_LIMIT } from '../route.js';
import { ROUTER } from '../routes/table.js';
import { countingStream, declaresBody } from './body.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's journal hooks: {@link answer} records each answer it sends through them. */
    readonly journal: JournalHooks;
  }
  interface FastifyRequest {
    /** Epoch ms (fake's clock) when a `/marketing/` request arrived. */
    arrived: number;
    /**
     * When it arrived on the real, monotonic clock (`performance.now()`), for `durationMs`.
     * fastify's own `elapsedTime` is 0 without a logger or an `onResponse` hook.
     */
    started: number;
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
 * so a delay counts) and records the exchange once answered (http/answer.ts, which sends every
 * answer). Answers that bypass fastify (faults that cut the connection) are recorded by
 * {@link JournalHooks.recordNow}, with what the client saw.
 */
export interface JournalHooks {
  arrive(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** Records a pending exchange whose answer `reply` has sent, with the body it sent. */
  answered(
    request: FastifyRequest,
    reply: FastifyReply,
    sentBody: string | Buffer | undefined,
  ): void;
  recordNow(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    sent?: CutOffAnswer,
  ): void;
  /**
   * Records a request held without an answer (status 0) at once, so that a test can wait for it,
   * and sets its `durationMs` when the connection ends (the client gives up, the rule goes, the
   * fake closes).
   */
  recordHeld(request: FastifyRequest, reply: FastifyReply): void;
}

const NO_HEADERS: Headers = {};
type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** The note of an entry whose recording failed: only what holds no secret was kept. */
export const RECORD_FAILED =
  'The journal could not record this exchange whole (a bug in the fake): only the method, path and status are kept.';

export function journalHooks(core: Core): JournalHooks {
  const { journal, now, redactor } = core;
  // A few: answers of two or three kinds alternate (a read, a write, an error).
  const blocks = recentTexts(4);
  const record = (
    request: FastifyRequest,
    status: number,
    responseHeaders: Headers | string,
    responseBody: string | Buffer | undefined,
  ): number | undefined => {
    request.journalPending = false;
    try {
      // Redacted before it is kept: no key or token is ever held by the journal. One object per
      // exchange, built once: this runs on every request, and copies of it showed in profiles.
      const { url } = request;
      const facts: Mutable<JournalRecord> = {
        arrived: request.arrived,
        durationMs: performance.now() - request.started,
        protocol: request.protocol,
        method: request.method,
        url: redactor.url(url),
        // The server its credentials opened; else the one its Basic username claims (a fault or
        // a refusal answered it), so that a tenant's journal holds every exchange it was sent.
        serverId: request.tenant?.serverId ?? claimedServerId(request.headers.authorization),
        authenticated: request.tenant != null,
        operation: request.operation?.operationId ?? operationOf(request),
        format: responseTypeOf(request).format,
        status,
        fault: request.fault ?? undefined,
        requestHeaders: redactor.requestHeaders(request.headers, request.raw.rawHeaders),
        responseHeaders,
      };
      // The query is parsed again from the redacted URL on read; parameters are kept only when
      // redacting them found what the URL's did not (an entry holds no object per parameter).
      if (url.includes('?')) {
        const query = request.query as Record<string, string | string[]>;
        const redacted = redactor.query(query);
        if (redacted !== query) facts.query = redacted;
      }
      return journal.record(
        facts,
        redactor.body(request.rawBody ?? undefined),
        redactor.body(responseBody),
      );
    } catch (error) {
      // A bug here must not lose the exchange silently, nor stop the journal: the entry keeps
      // what holds no secret, says why, and the log says so too (without the message's data).
      request.log.warn(
        { err: { type: (error as Error)?.name } },
        'the journal could not record this exchange whole',
      );
      return journal.record(
        {
          arrived: request.arrived,
          durationMs: performance.now() - request.started,
          protocol: request.protocol,
          method: request.method,
          // The route's template (`/marketing/v1/lists/:listId`): the path as sent could hold a key.
          url: routeOf(request)?.path ?? '/marketing/',
          serverId: request.tenant?.serverId ?? claimedServerId(request.headers.authorization),
          authenticated: request.tenant != null,
          operation: routeOf(request)?.operationId,
          format: 'json',
          status,
          fault: request.fault ?? undefined,
          requestHeaders: NO_HEADERS,
          responseHeaders: NO_HEADERS,
          note: RECORD_FAILED,
        },
        undefined,
        undefined,
      );
    }
  };
  return {
    arrive(request, _reply, done) {
      if (journal.enabled && isPublicApi(request.url)) {
        request.started = performance.now();
        request.arrived = now();
        request.journalPending = true;
      }
      done();
    },
    answered(request, reply, sentBody) {
      if (request.journalPending) {
        record(request, reply.statusCode, sentHeaders(reply, blocks), sentBody);
      }
    },
    recordNow(request, _reply, status, sent) {
      if (request.journalPending) {
        record(request, status, sent?.headers ?? NO_HEADERS, sent?.body);
      }
    },
    recordHeld(request, reply) {
      if (!request.journalPending) return;
      // Pending means the journal keeps entries, so record() gives an id.
      const id = record(request, 0, NO_HEADERS, undefined)!;
      reply.raw.once('close', () => journal.setDuration(id, performance.now() - request.started));
    },
  };
}

/**
 * The response headers as sent. Node keeps the header block it wrote as a string on the response
 * (`_header`, long-standing though undocumented): a reference to it costs nothing, where
 * `getHeaders()` would build an object on every request. Parsed only when the journal is read.
 * A block equal to one of the last few is recorded as that one (`blocks`).
 */
function sentHeaders(reply: FastifyReply, blocks: Recent<string>): Headers | string {
  const block = (reply.raw as unknown as { _header?: unknown })._header;
  return typeof block === 'string' ? blocks.intern(block) : reply.getHeaders();
}

/** The operation a request was headed for when a fault answered it before routing. */
function operationOf(request: FastifyRequest): string | undefined {
  return routeOf(request)?.operationId;
}

function routeOf(request: FastifyRequest): { path: string; operationId: string } | undefined {
  if (request.operation) return request.operation;
  const found = ROUTER.lookup(request.method, pathOf(request.url));
  return found && 'route' in found ? found.route : undefined;
}

/**
 * Calls `then` once the body is read for the journal. An answer given ahead of the body step (401,
 * 415, a refused route) would leave the body unread, yet the exchange is recorded whole: such a
 * body is read first. A body declared too large (413, or over the limit) is not waited for. Every
 * answer goes through here (http/answer.ts) rather than an onSend hook: fastify's onSend hook
 * runner alone cost about a microsecond a request, on answers that almost never need it.
 */
export function afterBodyRead(request: FastifyRequest, reply: FastifyReply, then: () => void) {
  const { raw } = request;
  if (
    !request.journalPending ||
    request.rawBody !== null ||
    reply.statusCode === 413 ||
    // A request without a body (every GET) stops here, on the path every answer takes.
    !declaresBody(raw) ||
    Number(raw.headers['content-length']) > API_BODY_LIMIT
  ) {
    return then();
  }
  keepBody(request, then);
}

/**
 * Reads the request's body (up to the emulated API's limit) into `rawBody` for the journal, then
 * answers. Nothing parses it: the request did not happen (a fault, a 401, a 415). Bytes past the
 * limit are left to `dropRestOfBody` (pipeline/body.ts), which drops them after the answer, within
 * bounds, so the connection stays usable.
 */
export function keepBody(request: FastifyRequest, then: () => void) {
  const { raw } = request;
  if (!declaresBody(raw)) return then();
  // A chunked body that reached the body step flows through its counting stream (pipeline/body.ts),
  // which holds the request paused while nobody reads it: read there. It ends with the body, or
  // fails past the route's limit (a failed stream emits nothing more). A body read already (parsed,
  // or being read), or a request gone, has nothing left to wait for.
  const source = countingStream(request) ?? raw;
  if (source.readableDidRead || source.readableEnded || source.destroyed) return then();
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    // Past the limit nothing more is kept, and the answer goes: what is left of the body is read
    // and dropped after it, within bounds (dropRestOfBody, pipeline/body.ts).
    if (size >= API_BODY_LIMIT) finish();
  };
  const finish = () => {
    // The counting stream may still fail once nobody listens (the rest of the body is unpiped from
    // it after the answer): its error must not go unheard, which would throw.
    source.off('data', onData).off('end', finish).off('error', finish);
    if (source !== raw) source.on('error', ignore);
    request.rawBody = Buffer.concat(chunks);
    then();
  };
  source.on('data', onData).once('end', finish).once('error', finish);
}

function ignore() {}
