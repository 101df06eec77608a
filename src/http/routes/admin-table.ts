import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ControlTarget } from '../../control/control-target.js';
import { parseRequestMatch } from '../../control/fault-rule.js';
import { ApiError } from '../../domain/errors.js';
import { INSPECTOR_PAGE } from '../inspector-page.js';

/** What a control route handler gets besides the request. */
export interface AdminContext {
  readonly control: ControlTarget;
  readonly openApi: () => Record<string, unknown>;
  readonly params: Readonly<Record<string, string>>;
}

export interface AdminRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** After /__admin, with `:name` parameters. */
  readonly path: string;
  readonly summary: string;
  /** The success status. */
  readonly status: number;
  readonly handle: (context: AdminContext, request: FastifyRequest, reply: FastifyReply) => unknown;
}

/** The page's own inline script and style, and images (thumbnails) from the fake itself. */
const INSPECTOR_POLICY =
  "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'";

/**
 * The control API, as one table (WireMock's AdminRoutes in spirit). It is dispatched by a single
 * fastify route: registering 18 routes cost every createFakeMarketingServer() some 2 ms.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/health',
    summary: 'Is the fake up?',
    status: 200,
    handle: () => ({ status: 'ok' }),
  },
  {
    method: 'GET',
    path: '/ui',
    summary: 'The inspector page (HTML); with an admin token, open it as /__admin/ui?token=...',
    status: 200,
    handle: (_, __, reply) =>
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', INSPECTOR_POLICY)
        .send(INSPECTOR_PAGE),
  },
  {
    method: 'GET',
    path: '/openapi.json',
    summary: 'This document.',
    status: 200,
    handle: ({ openApi }) => openApi(),
  },
  {
    method: 'GET',
    path: '/state',
    summary: 'The whole state, as a seed.',
    status: 200,
    handle: ({ control }) => control.exportState(),
  },
  {
    method: 'POST',
    path: '/save',
    summary: 'Writes the state file (409 without one).',
    status: 200,
    handle: ({ control }) => ({ stateFile: control.saveState() }),
  },
  {
    method: 'POST',
    path: '/reset',
    summary: 'Back to the state after creation; journal and faults cleared.',
    status: 204,
    handle: ({ control }) => control.reset(),
  },
  {
    method: 'POST',
    path: '/seed',
    summary: 'Adds servers and data (a seed), atomically.',
    status: 200,
    handle: ({ control }, request) => control.seed(request.body as never),
  },
  {
    method: 'POST',
    path: '/servers',
    summary: 'Adds a tenant.',
    status: 201,
    handle: ({ control }, request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const unknown = Object.keys(body).find(
        (key) => !['serverId', 'key', 'maxContacts'].includes(key),
      );
      if (unknown !== undefined) {
        throw new ApiError('ADMIN_BAD_REQUEST', {
          detail: `Unknown property '${unknown}'; use serverId, key, maxContacts.`,
        });
      }
      return control.addServer(body);
    },
  },
  {
    method: 'POST',
    path: '/servers/:serverId/reset',
    summary: 'Resets one tenant.',
    status: 204,
    handle: ({ control, params }) => control.resetServer(serverIdOf(params)),
  },
  {
    method: 'POST',
    path: '/servers/:serverId/regenerate-key',
    summary: 'A new key; the old one gets 401.',
    status: 200,
    handle: ({ control, params }) => {
      const serverId = serverIdOf(params);
      return { serverId, key: control.regenerateKey(serverId) };
    },
  },
  {
    method: 'PUT',
    path: '/servers/:serverId/max-contacts',
    summary: 'Sets the contact cap.',
    status: 200,
    handle: ({ control, params }, request) => {
      const serverId = serverIdOf(params);
      const body = request.body as { maxContacts?: unknown } | undefined;
      control.setMaxContacts(serverId, body?.maxContacts as number);
      return { serverId, maxContacts: body?.maxContacts };
    },
  },
  {
    method: 'GET',
    path: '/requests',
    summary: 'The request journal, oldest first; filters method, path, serverId.',
    status: 200,
    handle: ({ control }, request) => control.requests(journalFilter(request.query)),
  },
  {
    method: 'DELETE',
    path: '/requests',
    summary: 'Clears the journal.',
    status: 204,
    handle: ({ control }) => control.clearRequests(),
  },
  {
    method: 'GET',
    path: '/faults',
    summary: 'The fault rules.',
    status: 200,
    handle: ({ control }) => control.faults.list(),
  },
  {
    method: 'POST',
    path: '/faults',
    summary: 'Adds a fault rule.',
    status: 201,
    handle: ({ control }, request) => {
      const { id } = control.faults.add(request.body as never);
      return control.faults.list().find((fault) => fault.id === id);
    },
  },
  {
    method: 'POST',
    path: '/maintenance',
    summary: 'An outage of the whole public API.',
    status: 201,
    handle: ({ control }, request) => {
      const { id } = control.maintenance((request.body ?? {}) as never);
      return control.faults.list().find((fault) => fault.id === id);
    },
  },
  {
    method: 'DELETE',
    path: '/faults',
    summary: 'Ends every fault rule.',
    status: 204,
    handle: ({ control }) => control.faults.clear(),
  },
  {
    method: 'DELETE',
    path: '/faults/:id',
    summary: 'Ends one fault rule.',
    status: 204,
    handle: ({ control, params }) => {
      if (!control.faults.remove(params.id!)) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail: `No fault rule has the id '${params.id}'.`,
        });
      }
    },
  },
];

function serverIdOf(params: Readonly<Record<string, string>>): number {
  const serverId = params.serverId!;
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

interface CompiledRoute {
  readonly route: AdminRoute;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const COMPILED: readonly CompiledRoute[] = ADMIN_ROUTES.map((route) => ({
  route,
  names: [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!),
  pattern: new RegExp(`^${route.path.replace(/:\w+/g, '([^/]+)')}/?$`),
}));

export type Lookup =
  | { readonly route: AdminRoute; readonly params: Record<string, string> }
  | { readonly allow: string }
  | undefined;

/** The route for a method and a path after /__admin; or the methods the path takes; or nothing. */
export function findAdminRoute(method: string, path: string): Lookup {
  const allowed: string[] = [];
  for (const { route, pattern, names } of COMPILED) {
    const match = pattern.exec(path);
    if (!match) continue;
    if (route.method === method) {
      return {
        route,
        params: Object.fromEntries(names.map((name, index) => [name, match[index + 1]!])),
      };
    }
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { allow: allowed.sort().join(', ') } : undefined;
}
