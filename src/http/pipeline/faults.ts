import { STATUS_CODES } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Core } from '../../core.js';
import { ApiError } from '../../domain/errors.js';
import type { Decision } from '../../faults/faults.js';
import { claimedServerId } from '../../match/request-match.js';
import { isPublicApi, pathOf } from '../../paths.js';
import { renderError } from '../send-error.js';
import { type JournalHooks, keepBody } from './journal.js';

const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Injected faults, decided first for every `/marketing/` request: before routing and before
 * authentication (an outage does not check credentials). Error answers go through the one error
 * sender; faults that cut the connection are journaled here, with what the client saw.
 */
export function decideFaults(core: Core, journal: JournalHooks) {
  const { faultSet, pending } = core;
  return function decideFault(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    if (faultSet.empty || !isPublicApi(request.url)) return done();
    const decision = faultSet.decide({
      method: request.method,
      path: pathOf(request.url),
      serverId: claimedServerId(request.headers.authorization),
    });
    if (!decision) return done();
    const { rule } = decision;
    request.fault = rule.kind;
    switch (rule.kind) {
      case 'delay':
        return pending.delay(rule.delayMs!, done);
      // The client's body is read first, for the journal: a test can then see what a client sent
      // to an outage, e.g. that its retry repeats the same body.
      case 'unavailable':
        return keepBody(request, () =>
          done(
            new ApiError(
              'SERVICE_UNAVAILABLE',
              {},
              { headers: { 'retry-after': String(retryAfter(decision)) } },
            ),
          ),
        );
      case 'status':
        return keepBody(request, () =>
          done(
            new ApiError(
              'INJECTED_STATUS',
              { status: rule.status!, reason: STATUS_CODES[rule.status!] ?? 'Unknown' },
              { status: rule.status! },
            ),
          ),
        );
      case 'reset':
        reply.hijack();
        journal.recordNow(request, reply, 0);
        return cutConnection(request, reply, 'socket hang up (injected fault: reset)');
      case 'no-response': {
        reply.hijack();
        journal.recordHeld(request, reply);
        const forget = pending.hold(decision.id, () =>
          cutConnection(request, reply, 'no response (injected fault: no-response)'),
        );
        // The client gave up: nothing is left to release.
        reply.raw.once('close', forget);
        return;
      }
      case 'malformed':
        reply.hijack();
        return keepBody(request, () => sendCutOff(request, reply, journal));
    }
  };
}

function retryAfter(decision: Decision): number {
  return decision.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
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

/** A 200 whose body stops half-way, promising more than it sends. */
function sendCutOff(request: FastifyRequest, reply: FastifyReply, journal: JournalHooks): void {
  const { contentType, body: full } = renderError(
    request,
    'This response was cut off by an injected fault (malformed).',
  );
  const half = full.slice(0, Math.floor(full.length / 2));
  const headers = { 'content-type': contentType, 'content-length': Buffer.byteLength(full) };
  journal.recordNow(request, reply, 200, { headers, body: half });
  const response = reply.raw;
  response.writeHead(200, headers);
  const socket = request.raw.socket;
  if (socket instanceof Socket) {
    response.write(half, () => socket.destroy());
  } else {
    response.end(half);
  }
}
