import { Transform } from 'node:stream';
import type { FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { ApiError } from '../../domain/errors.js';

type Payload = RequestPayload;

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
  done(null, counted);
}
