import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { parseJsonBody } from '../../domain/json-body.js';

type Payload = RequestPayload;

declare module 'fastify' {
  interface FastifyRequest {
    /** The bytes of a JSON body as received, kept by reference for the journal. */
    rawBody: Buffer | null;
  }
}

/**
 * JSON bodies are parsed by {@link parseJsonBody}; this also keeps the bytes it read, so the
 * journal can show a body that did not parse, and bytes that were not text.
 */
export function keepJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body as Buffer;
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/**
 * The counting stream a chunked body flows through (see {@link limitBody}), by the request it
 * belongs to. The request is piped into it, so once its buffer is full the request is paused until
 * someone reads the counting stream: a reader that comes after the body step (the journal reading
 * a body nothing parsed, for a 415) reads it there, or it would wait forever.
 */
const countedBodies = new WeakMap<IncomingMessage, Transform>();

/** The counting stream the request's body flows through, if it has one (a chunked body). */
export function countingStream(request: FastifyRequest): Transform | undefined {
  return countedBodies.get(request.raw);
}

/**
 * Each route's own body limit, checked before fastify reads the body (which it then parses as
 * JSON): a declared length over the limit is refused at once; a chunked body is counted as it
 * arrives and cut off at the limit.
 */
export function limitBody(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Payload,
  done: (error: Error | null, payload?: Payload) => void,
) {
  const limit = request.operation!.bodyLimit;
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    // fastify checks that the body is as long as declared.
    return Number(declared) > limit
      ? done(new ApiError('BODY_TOO_LARGE', { limit }))
      : done(null, payload);
  }
  if (request.headers['transfer-encoding'] === undefined) return done(null, payload);
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      received += chunk.length;
      if (received > limit) return next(new ApiError('BODY_TOO_LARGE', { limit }));
      next(null, chunk);
    },
  });
  payload.pipe(counted);
  countedBodies.set(request.raw, counted);
  done(null, counted);
}

/** How much of a refused body is read and dropped, at most, before the connection is closed. */
const LINGER_BYTES = 16 * 1024 * 1024;
const LINGER_MS = 2_000;

/**
 * fastify asks for the connection to be closed after it refused a body (past its limit, not JSON),
 * as the client may still be sending. But closing a connection with bytes left unread makes the
 * kernel reset it, and a client still sending (curl, and over TLS most clients) then loses the
 * answer: the 413 never arrives. The connection is kept instead, as the service's own server
 * keeps it, and {@link dropRestOfBody} reads what is left of the body once answered.
 */
export function keepConnectionAfterRefusal(reply: FastifyReply): void {
  if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
}

/** True when the request says it has a body: a length, or chunks (a GET usually has neither). */
export function declaresBody(raw: FastifyRequest['raw']): boolean {
  return (
    raw.headers['content-length'] !== undefined || raw.headers['transfer-encoding'] !== undefined
  );
}

/**
 * Once a request is answered, reads the rest of a body that nothing read (a refused one: 413,
 * 401, 415, or past what the journal keeps) and drops it, so that the connection stays usable and
 * the client, still sending, gets its answer. A body that goes on past {@link LINGER_BYTES} more,
 * or {@link LINGER_MS}, has its connection closed: a client sending without end (or a declared
 * length of gigabytes) gets no more of the fake's time.
 */
export function dropRestOfBody(request: FastifyRequest): void {
  const { raw } = request;
  if (raw.complete || raw.readableEnded || raw.destroyed || !declaresBody(raw)) return;
  // Its one destination, if any: a counting stream that failed, or that nobody reads.
  raw.unpipe();
  let dropped = 0;
  const stop = () => {
    clearTimeout(timer);
    raw.off('data', onData).off('end', stop).off('close', stop);
  };
  const cut = () => {
    stop();
    // A real connection (TCP, or TLS over it) is closed. inject() has no connection: its mock
    // socket has no destroy(), and calling it threw out of a stream event, killing the process.
    // There the request stream alone ends (a body given whole is already in memory and flows on
    // to nowhere; a stream given as the body is no longer read).
    const { socket } = raw;
    if (socket instanceof Socket) socket.destroy();
    else raw.destroy();
  };
  const onData = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) cut();
  };
  const timer = setTimeout(cut, LINGER_MS).unref();
  // Stryker disable next-line StringLiteral: a stream that ends also closes here (autoDestroy), so either listener alone stops it; both are kept for a request that ends without closing
  raw.on('data', onData).once('end', stop).once('close', stop).resume();
}
