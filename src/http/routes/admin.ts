import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ControlTarget } from '../../control/control-target.js';
import { FaultRuleError } from '../../control/fault-rule.js';
import { constantTimeEqual } from '../../domain/constant-time.js';
import {
  ApiError,
  InvalidOptionError,
  SeedError,
  StateError,
  UnknownServerError,
} from '../../domain/errors.js';
import { toApiError } from '../error-handler.js';
import { findAdminRoute } from './admin-table.js';

export const ADMIN_PREFIX = '/__admin';
/** Seeds can be large (a hundred thousand contacts is about 10 MB of JSON). */
const ADMIN_BODY_LIMIT = 256 * 1024 * 1024;

export interface AdminOptions {
  readonly control: ControlTarget;
  readonly adminToken: string | undefined;
  /** The OpenAPI document of the whole app. */
  readonly openApi: () => Record<string, unknown>;
}

/**
 * The control API under /__admin: JSON only, never journaled and never faulted. One fastify route
 * dispatches the table in admin-table.ts. With an admin token set, every call needs
 * `Authorization: Bearer <token>`.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminOptions): Promise<void> {
  const { control, adminToken, openApi } = options;
  app.setErrorHandler(sendAdminError);
  if (adminToken !== undefined) {
    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers.authorization ?? '';
      const bearer = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
      // A browser cannot send a header when it opens a page: the inspector page alone also takes
      // the token as ?token= (and its script then sends the header).
      const isPage = request.method === 'GET' && pathOf(request) === '/ui';
      const given = bearer || (isPage ? queryToken(request.query) : '');
      if (constantTimeEqual(given, adminToken)) return done();
      reply.header('www-authenticate', 'Bearer realm="fake-marketing-server"');
      done(new ApiError('ADMIN_UNAUTHORIZED'));
    });
  }

  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'],
    url: '/*',
    bodyLimit: ADMIN_BODY_LIMIT,
    handler: async (request, reply) => {
      const found = findAdminRoute(request.method, pathOf(request));
      if (!found) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail: `No control route matches ${request.method} ${request.url}.`,
        });
      }
      if ('allow' in found) {
        reply.header('allow', found.allow);
        throw new ApiError('METHOD_NOT_ALLOWED', {
          method: request.method,
          path: request.url.split('?')[0]!,
          allow: found.allow,
        });
      }
      const result = found.route.handle({ control, openApi, params: found.params }, request, reply);
      if (reply.sent) return reply;
      reply.code(found.route.status);
      return found.route.status === 204 ? reply.send() : result;
    },
  });
}

/** The path after /__admin, without the query string. */
function pathOf(request: FastifyRequest): string {
  const path = request.url.slice(ADMIN_PREFIX.length).split('?')[0]!;
  return path === '' ? '/' : path;
}

function queryToken(query: unknown): string {
  const token = (query as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : '';
}

/** Control API errors are always JSON: `{ message }`, and `path` for seed errors. */
function sendAdminError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof SeedError)
    return reply.code(400).send({ message: error.message, path: error.path });
  if (error instanceof FaultRuleError || error instanceof InvalidOptionError) {
    return reply.code(400).send({ message: error.message });
  }
  if (error instanceof UnknownServerError) return reply.code(404).send({ message: error.message });
  if (error instanceof StateError) return reply.code(409).send({ message: error.message });
  const apiError = toApiError(error, request);
  if (apiError.status >= 500)
    request.log.error({ err: error }, 'unexpected error in the control API');
  for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
  return reply
    .code(apiError.status)
    .type('application/json; charset=utf-8')
    .send({ message: apiError.message });
}
