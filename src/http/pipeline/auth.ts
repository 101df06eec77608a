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

/** Spaces before and after a bearer token (Node drops the spaces and tabs a header value ends with). */
const SPACES = /^ +| +$/g;

declare module 'fastify' {
  interface FastifyRequest {
    /** The server the Basic credentials opened; set for `basic` routes. */
    tenant: Tenant | null;
  }
}

/** The Basic credentials a connection opened a server with last, under which keys. */
interface Opened {
  readonly header: string | undefined;
  readonly tenant: Tenant;
  readonly keysRevision: number;
}

/**
 * Authentication by the route's scope: Basic credentials of a server (through
 * @fastify/basic-auth, registered by the app), the admin token when the fake has one, or nothing.
 * A fake that holds no server says so, instead of a 401 that reads like a wrong key.
 *
 * A client sends the same Authorization header on every call of a connection: a connection that
 * sends again the header that opened a server, while no key or server has changed since
 * (`keysRevision`), opens it again without parsing and comparing (a fifth of what the fake spends
 * of its own on a GET /lists). Only a connection's own header is compared with what it sent, so
 * no client learns anything from another's.
 */
export function authenticate(
  app: FastifyInstance,
  store: Pick<Store, 'isEmpty' | 'keysRevision'>,
  adminToken: string | undefined,
) {
  const opened = new WeakMap<object, Opened>();
  return function authenticate(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    const route = request.operation;
    if (route?.auth === 'basic') {
      if (store.isEmpty) return done(new ApiError('NO_SERVERS'));
      const { socket } = request.raw;
      const header = request.headers.authorization;
      const last = opened.get(socket);
      if (
        last !== undefined &&
        last.header === header &&
        last.keysRevision === store.keysRevision
      ) {
        request.tenant = last.tenant;
        return done();
      }
      return app.basicAuth(request, reply, (error?: Error) => {
        // The server the credentials opened: set only when they are right (a refusal keeps none).
        if (request.tenant) {
          opened.set(socket, { header, tenant: request.tenant, keysRevision: store.keysRevision });
        }
        done(error);
      });
    }
    if (route?.auth === 'none') return done();
    // The control API, whether or not a route matched.
    if (adminToken !== undefined) {
      const header = request.headers.authorization;
      // Spaces only around the token (RFC 6750: `Bearer 1*SP token`): `trim()` would also take a
      // no-break space (byte 0xA0) off, so that a token sent with one would still open.
      const bearer =
        header?.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).replace(SPACES, '') : '';
      const given = bearer || (route?.page ? queryToken(request.query) : undefined);
      if (given === undefined || !constantTimeEqual(given, adminToken)) {
        return done(new ApiError('ADMIN_UNAUTHORIZED'));
      }
    }
    done(request.routeError ?? undefined);
  };
}

/** The inspector page's `?token=`, when it is given once (fastify's query is always an object). */
function queryToken(query: unknown): string | undefined {
  const token = (query as { token?: unknown }).token;
  return typeof token === 'string' ? token : undefined;
}
