import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import type { FaultKind } from '../control/fault-rule.js';
import type { Decision, FaultSet } from '../control/faults.js';
import type { Journal } from '../control/journal.js';
import { ApiError } from '../domain/errors.js';
import { errorBody } from './context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Epoch ms (fake's clock) when a `/marketing/` request arrived. */
    arrived: number;
    /** True for a `/marketing/` request that onResponse still has to journal. */
    journalPending: boolean;
    /** The fault kind answering this request, if any. */
    fault: FaultKind | null;
  }
}

export interface TestDoubleOptions {
  readonly faults: FaultSet;
  readonly journal: Journal;
  readonly now: () => number;
}

/** Lets close() finish delayed requests at once instead of waiting out their timers. */
export interface PendingDelays {
  flush(): void;
}

const PUBLIC_API = '/marketing/';
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * The test-double side of every `/marketing/` request: fault rules are decided first (before
 * authentication: an outage does not check credentials), and every request is journaled.
 */
export function installTestDoubleHooks(
  app: FastifyInstance,
  options: TestDoubleOptions,
): PendingDelays {
  const { faults, journal, now } = options;
  const delays = new Map<NodeJS.Timeout, HookHandlerDoneFunction>();
  app.decorateRequest('arrived', 0);
  app.decorateRequest('journalPending', false);
  app.decorateRequest('fault', null);

  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith(PUBLIC_API)) return done();
    request.arrived = now();
    request.journalPending = true;
    if (faults.empty) return done();
    const decision = faults.decide({
      method: request.method,
      path: pathOf(request),
      serverId: basicUsername(request.headers.authorization),
    });
    if (!decision) return done();
    request.fault = decision.rule.kind;
    // Hijacked answers are journaled here, with what the client saw; onResponse must skip them.
    const record = (status: number) => {
      journal.record(entryOf(request, status));
      request.journalPending = false;
    };
    switch (decision.rule.kind) {
      case 'delay': {
        const timer = setTimeout(() => {
          delays.delete(timer);
          done();
        }, decision.rule.delayMs);
        delays.set(timer, done);
        return;
      }
      case 'unavailable':
        return sendError(request, reply, 503, new ApiError('SERVICE_UNAVAILABLE').message, {
          'retry-after': String(decision.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS),
        });
      case 'status': {
        const status = decision.rule.status!;
        const message = new ApiError('INJECTED_STATUS', {
          status,
          reason: STATUS_CODES[status] ?? 'Unknown',
        }).message;
        return sendError(request, reply, status, message, {});
      }
      case 'reset':
        reply.hijack();
        record(0);
        return cutConnection(request, reply, 'socket hang up (injected fault: reset)');
      case 'no-response':
        reply.hijack();
        record(0);
        return hold(decision, request, reply, faults);
      case 'malformed':
        reply.hijack();
        record(200);
        return sendCutOff(request, reply);
    }
  });

  app.addHook('onResponse', (request, reply, done) => {
    if (request.journalPending) journal.record(entryOf(request, reply.statusCode));
    done();
  });

  return {
    flush() {
      for (const [timer, done] of delays) {
        clearTimeout(timer);
        done();
      }
      delays.clear();
    },
  };
}

function pathOf(request: FastifyRequest): string {
  const query = request.url.indexOf('?');
  return query === -1 ? request.url : request.url.slice(0, query);
}

function entryOf(request: FastifyRequest, status: number) {
  return {
    arrived: request.arrived,
    method: request.method,
    path: pathOf(request),
    serverId: request.tenant?.serverId,
    status,
    fault: request.fault ?? undefined,
  };
}

/** The server id in a Basic Authorization header, without checking the key. */
function basicUsername(header: string | undefined): number | undefined {
  if (typeof header !== 'string' || header.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const username = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
  return /^\d{1,9}$/.test(username) ? Number(username) : undefined;
}

function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  headers: Record<string, string>,
): void {
  const { contentType, body } = errorBody(request, message);
  reply.code(status).headers(headers).header('content-type', contentType).send(body);
}

/** Ends the connection with no response: a real socket is destroyed; inject() rejects. */
function cutConnection(request: FastifyRequest, reply: FastifyReply, reason: string): void {
  const socket = request.raw.socket;
  if (socket instanceof Socket) {
    socket.destroy();
  } else {
    reply.raw.destroy(Object.assign(new Error(reason), { code: 'ECONNRESET' }));
  }
}

function hold(
  decision: Decision,
  request: FastifyRequest,
  reply: FastifyReply,
  faults: FaultSet,
): void {
  const forget = faults.hold(decision.id, () =>
    cutConnection(request, reply, 'no response (injected fault: no-response)'),
  );
  // The client gave up: nothing is left to release.
  reply.raw.once('close', forget);
}

/** A 200 whose body stops half-way, promising more than it sends. */
function sendCutOff(request: FastifyRequest, reply: FastifyReply): void {
  const { contentType, body: full } = errorBody(
    request,
    'This response was cut off by an injected fault (malformed).',
  );
  const half = full.slice(0, Math.floor(full.length / 2));
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(full),
  });
  const socket = request.raw.socket;
  if (socket instanceof Socket) {
    response.write(half, () => socket.destroy());
  } else {
    response.end(half);
  }
}
