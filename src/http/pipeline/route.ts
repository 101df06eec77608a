import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { isControlApi, pathOf } from '../../paths.js';
import type { PathParam, Route } from '../route.js';
import type { Lookup } from '../router.js';
import { ROUTER } from '../routes/table.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The route table's entry for this request, once resolved. */
    operation: Route | null;
    /** Its path parameters, parsed to their kinds. */
    pathParams: Readonly<Record<string, unknown>> | null;
    /**
     * Why the request matches no route: set before this step for a URL that cannot be decoded
     * (malformed-url.ts), here for the control API, which answers it once the caller is
     * authenticated.
     */
    routeError: ApiError | null;
  }
}

/**
 * Finds the request's entry in the route table, before authentication: an unknown path is 404, a
 * known path with another method 405 with `Allow`, a parameter of the wrong kind 404, a URL that
 * cannot be decoded 400. On the control API these wait for authentication: with an admin token,
 * a caller without it learns nothing, not even which routes exist.
 */
export function resolveRoute(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
) {
  // A URL that cannot be decoded (pipeline/malformed-url.ts), on the control API after the token.
  if (request.routeError) return isControlApi(request.url) ? done() : done(request.routeError);
  const path = pathOf(request.url);
  const found = ROUTER.lookup(request.method, path);
  if (found !== undefined && !('badParam' in found) && !('allow' in found)) {
    request.operation = found.route;
    request.pathParams = found.params;
    return done();
  }
  const error =
    found && 'allow' in found
      ? new ApiError(
          'METHOD_NOT_ALLOWED',
          { method: request.method, path, allow: found.allow },
          { headers: { allow: found.allow } },
        )
      : notFound(request, path, found);
  if (!isControlApi(request.url)) return done(error);
  request.routeError = error;
  done();
}

function notFound(request: FastifyRequest, path: string, found: Lookup): ApiError {
  const { method } = request;
  if (!isControlApi(request.url)) return new ApiError('ROUTE_NOT_FOUND', { method, path });
  if (found && 'badParam' in found) {
    const { name, text } = found.badParam;
    const kind = (found.route.params as Record<string, PathParam<unknown>>)[name]!;
    return new ApiError('ADMIN_NOT_FOUND', { detail: `'${text}' is not ${kind.what}.` });
  }
  return new ApiError('ADMIN_NOT_FOUND', {
    detail: `No control route matches ${method} ${request.url}.`,
  });
}
