import type { FastifyInstance, RouteOptions } from 'fastify';
import { ADMIN_ROUTES, type AdminRoute } from './routes/admin-table.js';
import { ERROR_SCHEMA } from './schemas.js';

interface RouteRecord {
  readonly method: string;
  readonly url: string;
  readonly schema: Record<string, unknown>;
}

const ERROR_MEANINGS: Record<number, string> = {
  400: 'Bad input: a missing or malformed email address, an unknown custom field, a body that is not a JSON object, or a forbidden character in a field name.',
  401: 'Invalid credentials (with `WWW-Authenticate: Basic realm="marketing"`).',
  403: "A new contact would pass the server's contact cap.",
  404: 'An unknown list, contact or custom field, or a route that does not exist.',
  405: 'A known path with a method it does not take (with `Allow`).',
  409: 'Custom field creation refused: reserved name, exists already, 20 fields, or name length.',
  413: 'The body is larger than 1 MiB.',
  415: 'The body is not JSON.',
  503: 'Maintenance (an injected fault of the test double), with `Retry-After`.',
};
const ALWAYS = [401, 404, 405, 503];
const MEDIA = ['application/json', 'text/xml', 'application/xml'];

/** Records every route as it registers, for {@link buildOpenApi}. */
export function recordRoutesForOpenApi(app: FastifyInstance): readonly RouteRecord[] {
  const routes: RouteRecord[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/marketing/')) return;
    for (const method of [route.method].flat()) {
      routes.push({
        method,
        url: route.url,
        schema: (route.schema ?? {}) as Record<string, unknown>,
      });
    }
  });
  return routes;
}

/** An OpenAPI 3.1 document of the emulated API and the control API, from the routes' schemas. */
export function buildOpenApi(
  routes: readonly RouteRecord[],
  version: string,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { method, url, schema } of routes) {
    const path = url.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = apiOperation(url, schema);
  }
  for (const route of ADMIN_ROUTES) {
    const url = `/__admin${route.path}`;
    const path = url.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = adminOperation(url, route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'fake-marketing-server',
      version,
      description:
        "The emulated Marketing API (under /marketing/v1; unsubscribe also under /marketing/beta) and the test double's control API (under /__admin). Every emulated route answers JSON or XML by Accept, and also with a trailing slash.",
    },
    tags: [
      { name: 'lists' },
      { name: 'contacts' },
      { name: 'custom fields' },
      { name: 'content' },
      { name: 'control', description: 'The test double: state, faults, journal. JSON only.' },
    ],
    components: {
      securitySchemes: {
        basic: {
          type: 'http',
          scheme: 'basic',
          description: 'Username: the server id; password: its key.',
        },
        adminToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'Only when the fake has an admin token.',
        },
      },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}

function parameters(url: string, schema: Record<string, unknown>) {
  const inPath = [...url.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: name === 'name' ? { type: 'string', minLength: 1 } : { type: 'integer', minimum: 1 },
  }));
  const query = Object.entries((schema['x-query'] ?? {}) as Record<string, unknown>).map(
    ([name, querySchema]) => ({ name, in: 'query', required: true, schema: querySchema }),
  );
  return [...inPath, ...query];
}

function apiOperation(url: string, schema: Record<string, unknown>) {
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const responses: Record<string, unknown> = {};
  for (const [status, body] of Object.entries(response)) {
    if (status === '4xx' || status === '5xx') continue;
    const empty = (body as { type?: string }).type === 'null';
    responses[status] = {
      description: empty ? 'Success, with no body.' : 'Success.',
      ...(empty
        ? {}
        : { content: Object.fromEntries(MEDIA.map((type) => [type, { schema: body }])) }),
    };
  }
  const errors = new Set([...ALWAYS, ...((schema['x-errors'] ?? []) as number[])]);
  const errorContent = Object.fromEntries(
    MEDIA.map((type) => [type, { schema: { $ref: '#/components/schemas/Error' } }]),
  );
  for (const status of [...errors].sort()) {
    responses[status] = { description: ERROR_MEANINGS[status], content: errorContent };
  }
  responses.default = {
    description:
      'An injected fault of the test double (kind `status`): any status, with the error body.',
    content: errorContent,
  };
  return {
    summary: schema.summary,
    tags: schema.tags,
    security: [{ basic: [] }],
    parameters: parameters(url, schema),
    ...(schema['x-body']
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schema['x-body'] } },
          },
        }
      : {}),
    responses,
  };
}

function adminOperation(url: string, route: AdminRoute) {
  const success = String(route.status);
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const html = route.path === '/ui';
  return {
    summary: route.summary,
    tags: ['control'],
    security: [{}, { adminToken: [] }],
    parameters: parameters(url, {}),
    responses: {
      [success]: {
        description: 'Success.',
        ...(success === '204'
          ? {}
          : {
              content: {
                [html ? 'text/html' : 'application/json']: {
                  schema: html ? { type: 'string' } : {},
                },
              },
            }),
      },
      '4XX': {
        description: 'Bad input, a wrong admin token, or an unknown server or rule.',
        content: json,
      },
    },
  };
}
