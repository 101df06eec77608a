import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { constantTimeEqual } from '../../domain/constant-time.js';
import { ApiError } from '../../domain/errors.js';
import type { Store } from '../../domain/store.js';
import type { Tenant } from '../../domain/tenant.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The server the Basic credentials opened; set for `basic` routes. */
    tenant: Tenant | null;
  }
}

/**
 * Authentication by the route's scope: Basic credentials of a server (through
 * @fastify/basic-auth, registered by the app), the admin token when the fake has one, or nothing.
 * A fake that holds no server says so, instead of a 401 that reads like a wrong key.
 */
export function authenticate(
  app: FastifyInstance,
  store: Pick<Store, 'isEmpty'>,
  adminToken: string | undefined,
) {
  return function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    const route = request.operation;
    if (route?.auth === 'basic') {
      return store.isEmpty ? done(new ApiError('NO_SERVERS')) : app.basicAuth(request, reply, done);
    }
    if (route?.auth === 'none') return done();
    // The control API, whether or not a route matched.
    if (adminToken !== undefined) {
      const header = request.headers.authorization ?? '';
      const bearer = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
      const given = bearer || (route?.page ? queryToken(request.query) : '');
      if (!constantTimeEqual(given, adminToken)) return done(new ApiError('ADMIN_UNAUTHORIZED'));
    }
    done(request.routeError ?? undefined);
  };
}

function queryToken(query: unknown): string {
  const token = (query as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : '';
}
