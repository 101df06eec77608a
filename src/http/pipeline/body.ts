import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { parseJsonBody } from '../json-body.js';

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
