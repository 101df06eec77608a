import type { IncomingMessage } from 'node:http';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { ApiError } from '../../domain/errors.js';

/** Where a request routed again keeps its URL as sent: on Node's request, which fastify reuses. */
const AS_SENT = Symbol('fake-marketing-server.url-as-sent');

type Marked = IncomingMessage & { [AS_SENT]?: string };

/**
 * fastify's router refuses a URL whose percent escapes do not decode (`%ZZ`, `%E9`, `%C0%AF`)
 * before any hook runs, so such a request would skip the journal and the faults. Instead it is
 * routed again with every `%` of its path escaped as `%25`, which decodes; {@link restoreUrl},
 * the pipeline's first step, puts the URL back as sent, and the route step answers it 400.
 * Returns false where escaping cannot help: a URL that is not a path (asterisk or absolute form),
 * or one already routed again.
 */
export function routeAgain(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const raw = request.raw as Marked;
  const url = raw.url ?? '';
  if (!url.startsWith('/') || raw[AS_SENT] !== undefined) return false;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  raw[AS_SENT] = url;
  raw.url = path.replaceAll('%', '%25') + (query === -1 ? '' : url.slice(query));
  app.routing(raw, reply.raw);
  return true;
}

/**
 * The pipeline's first step: a request {@link routeAgain} routed again gets its URL back as sent,
 * for every later step, the fault rules and the journal, and is marked as refused by routing:
 * 400, as an ASP.NET service answers a URL it cannot decode.
 */
export function restoreUrl(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  const raw = request.raw as Marked;
  const asSent = raw[AS_SENT];
  if (asSent !== undefined) {
    raw.url = asSent;
    request.routeError = malformedUrl(asSent);
  }
  done();
}

/** The answer to a URL that cannot be decoded. */
export function malformedUrl(url: string): ApiError {
  return new ApiError('MALFORMED_URL', { url });
}
