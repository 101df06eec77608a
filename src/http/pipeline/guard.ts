import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Core } from '../../core.js';
import { ApiError } from '../../domain/errors.js';
import { isLoopbackPeer } from '../../listen.js';
import { isControlApi } from '../../paths.js';
import { hostFieldCount } from '../host-allow-list.js';

/** What a browser says of a request it sends on its own page's behalf (or a typed address). */
const OWN_FETCH = new Set(['same-origin', 'none']);

/**
 * The foreign origin or `Sec-Fetch-Site` of a request a browser sent from another page, or
 * undefined. Browsers send `Sec-Fetch-Site` on every request, `Origin` on most: either tells.
 * `Sec-Fetch-Site` is compared in any case, as header values are not always sent as specified.
 */
function foreignSource(request: FastifyRequest, host: string): string | undefined {
  const { origin } = request.headers;
  if (
    origin !== undefined &&
    origin.toLowerCase() !== `${request.protocol}://${host}`.toLowerCase()
  )
    return origin;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH.has(String(site).toLowerCase()))
    return `Sec-Fetch-Site: ${site}`;
  return undefined;
}

/**
 * The control API and the inspector answer only requests whose Host is allowed, and take calls
 * (reads included) only from their own origin or from clients that are not browsers: a page on
 * any site can send a GET or a body-less POST to 127.0.0.1 without a preflight (an `<img>` is
 * enough), and must neither wipe the sandbox nor make it work for it. The refusal comes before
 * the route reads anything. Every control answer says `Cross-Origin-Resource-Policy:
 * same-origin`, so no other page can embed one. The emulated API is left alone: real clients send
 * any Host, and it sends no CORS headers.
 */
export function guardControlApi(core: Core) {
  const { hosts } = core;
  return function guardControlApi(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    if (!isControlApi(request.url)) return done();
    reply.header('cross-origin-resource-policy', 'same-origin');
    const host = request.headers.host ?? '';
    const foreign = foreignSource(request, host);
    if (foreign !== undefined) return done(new ApiError('ORIGIN_NOT_ALLOWED', { origin: foreign }));
    if (!hosts.allowsHost(host)) return done(new ApiError('HOST_NOT_ALLOWED', { host }));
    if (core.localControlOnly && !isLoopbackPeer(request.socket.remoteAddress)) {
      return done(new ApiError('LOCAL_CONTROL_ONLY'));
    }
    done();
  };
}

/**
 * Most header fields a request may carry (431 past it), as ASP.NET Core's Kestrel allows by
 * default (`MaxRequestHeaderCount`); the 16 KiB header size limit bounds them too. Node keeps
 * the first 2,000 fields and silently drops the rest (a second Host or an Origin among them):
 * below that, every field of an accepted request is seen.
 */
export const MAX_HEADER_FIELDS = 100;

/**
 * The header fields, on every route: more than {@link MAX_HEADER_FIELDS} are answered 431, and
 * (RFC 9112, 3.2) more than one Host header 400. Node keeps the first Host and drops the others
 * from `headers`, so a proxy and the fake could each read another host; the raw header list
 * still has them all.
 */
export function checkHeaderFields(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  const raw = request.raw.rawHeaders;
  if (raw.length > MAX_HEADER_FIELDS * 2) {
    return done(new ApiError('TOO_MANY_HEADERS', { max: MAX_HEADER_FIELDS }));
  }
  done(hostFieldCount(raw) > 1 ? new ApiError('DUPLICATE_HOST') : undefined);
}
