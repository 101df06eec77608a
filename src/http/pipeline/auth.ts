import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import { constantTimeEqual } from '../../domain/constant-time.js';
import { ApiError } from '../../domain/errors.js';
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
 */
export function authenticate(app: FastifyInstance, adminToken: string | undefined) {
  return function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    const route = request.operation;
    if (route?.auth === 'basic') return app.basicAuth(request, reply, done);
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
