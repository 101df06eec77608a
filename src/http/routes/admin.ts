import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ControlTarget } from '../../control/control-target.js';
import { FaultRuleError, parseRequestMatch } from '../../control/fault-rule.js';
import { constantTimeEqual } from '../../domain/constant-time.js';
import {
  ApiError,
  InvalidOptionError,
  SeedError,
  StateError,
  UnknownServerError,
} from '../../domain/errors.js';
import { toApiError } from '../error-handler.js';
import { INSPECTOR_PAGE } from '../inspector-page.js';
import { adminDoc } from '../route-docs.js';

export const ADMIN_PREFIX = '/__admin';
/** The page's own inline script and style, and images (thumbnails) from the fake itself. */
const INSPECTOR_POLICY =
  "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'";
/** Seeds can be large (a hundred thousand contacts is about 10 MB of JSON). */
const ADMIN_BODY_LIMIT = 256 * 1024 * 1024;

export interface AdminOptions {
  readonly control: ControlTarget;
  readonly adminToken: string | undefined;
  /** The OpenAPI document of the whole app. */
  readonly openApi: () => Record<string, unknown>;
}

interface ServerParams {
  Params: { serverId: string };
}

/**
 * The control API: one route table under /__admin, JSON only, never journaled and never faulted.
 * With an admin token set, every call needs `Authorization: Bearer <token>`.
 */
export async function adminRoutes(app: FastifyInstance, options: AdminOptions): Promise<void> {
  const { control, adminToken, openApi } = options;
  app.setErrorHandler(sendAdminError);
  app.setNotFoundHandler((request) => {
    throw new ApiError('ADMIN_NOT_FOUND', {
      detail: `No control route matches ${request.method} ${request.url}.`,
    });
  });
  if (adminToken !== undefined) {
    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers.authorization ?? '';
      const bearer = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
      // A browser cannot send a header when it opens a page: the inspector page alone also takes
      // the token as ?token= (and its script then sends the header).
      const given =
        bearer ||
        (request.routeOptions.url === `${ADMIN_PREFIX}/ui` ? queryToken(request.query) : '');
      if (constantTimeEqual(given, adminToken)) return done();
      reply.header('www-authenticate', 'Bearer realm="fake-marketing-server"');
      done(new ApiError('ADMIN_UNAUTHORIZED'));
    });
  }

  app.get('/health', { schema: adminDoc('Is the fake up?') }, () => ({ status: 'ok' }));
  app.get(
    '/ui',
    {
      schema: adminDoc(
        'The inspector page (HTML); with an admin token, open it as /__admin/ui?token=...',
      ),
    },
    (_, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', INSPECTOR_POLICY)
        .send(INSPECTOR_PAGE),
  );
  app.get('/openapi.json', { schema: adminDoc('This document.') }, () => openApi());
  app.get('/state', { schema: adminDoc('The whole state, as a seed.') }, () =>
    control.exportState(),
  );
  app.post('/save', { schema: adminDoc('Writes the state file (409 without one).') }, () => ({
    stateFile: control.saveState(),
  }));
  app.post(
    '/reset',
    { schema: adminDoc('Back to the state after creation; journal and faults cleared.', 204) },
    (_, reply) => {
      control.reset();
      return reply.code(204).send();
    },
  );
  app.post(
    '/seed',
    {
      bodyLimit: ADMIN_BODY_LIMIT,
      schema: adminDoc('Adds servers and data (a seed), atomically.'),
    },
    (request) => control.seed(request.body as never),
  );

  app.post('/servers', { schema: adminDoc('Adds a tenant.', 201) }, (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const unknown = Object.keys(body).find(
      (key) => !['serverId', 'key', 'maxContacts'].includes(key),
    );
    if (unknown !== undefined) {
      throw new ApiError('ADMIN_BAD_REQUEST', {
        detail: `Unknown property '${unknown}'; use serverId, key, maxContacts.`,
      });
    }
    return reply.code(201).send(control.addServer(body));
  });
  app.post<ServerParams>(
    '/servers/:serverId/reset',
    { schema: adminDoc('Resets one tenant.', 204) },
    (request, reply) => {
      control.resetServer(serverIdOf(request));
      return reply.code(204).send();
    },
  );
  app.post<ServerParams>(
    '/servers/:serverId/regenerate-key',
    { schema: adminDoc('A new key; the old one gets 401.') },
    (request) => {
      const serverId = serverIdOf(request);
      return { serverId, key: control.regenerateKey(serverId) };
    },
  );
  app.put<ServerParams>(
    '/servers/:serverId/max-contacts',
    { schema: adminDoc('Sets the contact cap.') },
    (request) => {
      const serverId = serverIdOf(request);
      const body = request.body as { maxContacts?: unknown } | undefined;
      control.setMaxContacts(serverId, body?.maxContacts as number);
      return { serverId, maxContacts: body?.maxContacts };
    },
  );

  app.get(
    '/requests',
    { schema: adminDoc('The request journal, oldest first; filters method, path, serverId.') },
    (request) => control.requests(journalFilter(request.query)),
  );
  app.delete('/requests', { schema: adminDoc('Clears the journal.', 204) }, (_, reply) => {
    control.clearRequests();
    return reply.code(204).send();
  });

  app.get('/faults', { schema: adminDoc('The fault rules.') }, () => control.faults.list());
  app.post('/faults', { schema: adminDoc('Adds a fault rule.', 201) }, (request, reply) => {
    const { id } = control.faults.add(request.body as never);
    return reply.code(201).send(control.faults.list().find((fault) => fault.id === id));
  });
  app.post(
    '/maintenance',
    { schema: adminDoc('An outage of the whole public API.', 201) },
    (request, reply) => {
      const { id } = control.maintenance((request.body ?? {}) as never);
      return reply.code(201).send(control.faults.list().find((fault) => fault.id === id));
    },
  );
  app.delete('/faults', { schema: adminDoc('Ends every fault rule.', 204) }, (_, reply) => {
    control.faults.clear();
    return reply.code(204).send();
  });
  app.delete<{ Params: { id: string } }>(
    '/faults/:id',
    { schema: adminDoc('Ends one fault rule.', 204) },
    (request, reply) => {
      if (!control.faults.remove(request.params.id)) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail: `No fault rule has the id '${request.params.id}'.`,
        });
      }
      return reply.code(204).send();
    },
  );
}

function queryToken(query: unknown): string {
  const token = (query as { token?: unknown } | undefined)?.token;
  return typeof token === 'string' ? token : '';
}

function serverIdOf(request: FastifyRequest<ServerParams>): number {
  const { serverId } = request.params;
  if (!/^\d{4,5}$/.test(serverId)) {
    throw new ApiError('ADMIN_NOT_FOUND', {
      detail: `'${serverId}' is not a server id (4 or 5 digits).`,
    });
  }
  return Number(serverId);
}

function journalFilter(query: unknown) {
  const { serverId, ...rest } = (query ?? {}) as Record<string, unknown>;
  const unknown = Object.keys(rest).filter((key) => key !== 'method' && key !== 'path');
  if (unknown.length > 0) {
    throw new ApiError('ADMIN_BAD_REQUEST', {
      detail: `Unknown filter '${unknown[0]}'; use method, path, serverId.`,
    });
  }
  const input =
    serverId === undefined
      ? rest
      : { ...rest, serverId: /^\d+$/.test(String(serverId)) ? Number(serverId) : serverId };
  return parseRequestMatch(input, '', (detail) => {
    throw new ApiError('ADMIN_BAD_REQUEST', { detail: `Bad filter: ${detail}` });
  });
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
