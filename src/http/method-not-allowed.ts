import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { ApiError } from '../domain/errors.js';

const METHODS: readonly HTTPMethods[] = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
];

/**
 * Records the routes registered under `prefix`, so that `addMethodNotAllowedRoutes` can answer
 * 405 (with `Allow`) for a known path with a wrong method, where fastify would say 404.
 */
export function recordRoutes(app: FastifyInstance, prefix: string): RouteTable {
  const table: RouteTable = new Map();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(prefix)) return;
    // `/customfields/:name` and `/customfields/:customFieldNameId` are one path to the router.
    const shape = route.url.replace(/:\w+/g, ':');
    const entry = table.get(shape) ?? { url: route.url, methods: new Set<string>() };
    for (const method of [route.method].flat()) entry.methods.add(method);
    table.set(shape, entry);
  });
  return table;
}

type RouteTable = Map<string, { url: string; methods: Set<string> }>;

export function addMethodNotAllowedRoutes(app: FastifyInstance, table: RouteTable): void {
  for (const { url, methods } of [...table.values()]) {
    const allow = [...methods].sort().join(', ');
    const missing = METHODS.filter((method) => !methods.has(method));
    if (missing.length === 0) continue;
    app.route({
      method: missing,
      url,
      handler: (request, reply) => {
        reply.header('allow', allow);
        throw new ApiError('METHOD_NOT_ALLOWED', {
          method: request.method,
          path: request.url.split('?')[0]!,
          allow,
        });
      },
    });
  }
}
