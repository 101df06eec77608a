import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Core } from '../../core.js';
import { ApiError } from '../../domain/errors.js';
import { isLoopbackPeer } from '../../listen.js';
import { isControlApi } from '../../paths.js';

/** `name` of `name:port`, `::1` of `[::1]:port`. */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);
const FOREIGN_FETCH = new Set(['cross-site', 'same-site']);

/**
 * The control API and the inspector answer only requests whose Host is allowed, and take calls that
 * change state only from their own origin or from clients that are not browsers: a page on any site
 * can send a body-less POST to 127.0.0.1 without a preflight, and must not wipe the sandbox. The
 * emulated API is left alone: real clients send any Host, and it sends no CORS headers.
 */
export function guardControlApi(core: Core) {
  const { hosts } = core;
  return function guardControlApi(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    if (!isControlApi(request.url)) return done();
    const host = request.headers.host ?? '';
    if (!hosts.allows(hostnameOf(host))) return done(new ApiError('HOST_NOT_ALLOWED', { host }));
    if (core.localControlOnly && !isLoopbackPeer(request.socket.remoteAddress)) {
      return done(new ApiError('LOCAL_CONTROL_ONLY'));
    }
    if (SAFE_METHODS.has(request.method)) return done();
    const { origin } = request.headers;
    const site = request.headers['sec-fetch-site'];
    const own = `${request.protocol}://${host}`;
    if ((origin !== undefined && origin !== own) || FOREIGN_FETCH.has(String(site))) {
      return done(
        new ApiError('ORIGIN_NOT_ALLOWED', { origin: origin ?? `Sec-Fetch-Site: ${site}` }),
      );
    }
    done();
  };
}
