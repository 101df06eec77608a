import { PACKAGE_VERSION } from '../version.js';
import { ERROR } from './representations.js';
import type { PathParam, Route } from './route.js';
import { ROUTES } from './routes/table.js';

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
/** The control API's errors past 4XX, for the routes that declare them. */
const CONTROL_ERROR_MEANINGS: Record<number, string> = {
  507: 'The state file could not be written (its folder is gone, the disk is full, no permission); the state is kept in memory.',
};
const ALWAYS = [401, 404, 405, 503];
const MEDIA = ['application/json', 'text/xml', 'application/xml'];

/** An OpenAPI 3.1 document of the emulated API and the control API, from the routes' schemas. */
export function buildOpenApi(routes: readonly Route[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] =
      route.auth === 'admin' ? adminOperation(route) : apiOperation(route);
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
      {
        name: 'tenants',
        description:
          'One server owned by one test of a shared fake: created with its seed, then its own journal, faults, outage, reset and removal. JSON only.',
      },
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
      schemas: {
        Error: ERROR.schema,
        ControlError: {
          type: 'object',
          properties: {
            message: { type: 'string' },
            path: { type: 'string', description: 'For a seed error: the path of the bad value.' },
          },
          required: ['message'],
          additionalProperties: false,
        },
      },
    },
    paths,
  };
}

function parameters(route: Route) {
  const kinds = (route.params ?? {}) as Record<string, PathParam<unknown>>;
  const inPath = Object.entries(kinds).map(([name, kind]) => ({
    name,
    in: 'path',
    required: true,
    schema: kind.schema,
  }));
  const query = Object.entries(route.query ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: true,
    schema,
  }));
  return [...inPath, ...query];
}

const errorContent = Object.fromEntries(
  MEDIA.map((type) => [type, { schema: { $ref: '#/components/schemas/Error' } }]),
);

function apiOperation(route: Route) {
  const responses: Record<string, unknown> = {};
  const { representation, renders } = route;
  const success = representation
    ? {
        content: Object.fromEntries(MEDIA.map((type) => [type, { schema: representation.schema }])),
      }
    : renders
      ? { content: { [renders]: { schema: { type: 'string', format: 'binary' } } } }
      : {};
  responses[route.status] = {
    description: representation || renders ? 'Success.' : 'Success, with no body.',
    ...success,
  };
  const always = route.auth === 'basic' ? ALWAYS : [];
  const errors = new Set([...always, ...(route.errors ?? [])]);
  for (const status of [...errors].sort()) {
    responses[status] = { description: ERROR_MEANINGS[status], content: errorContent };
  }
  if (route.auth === 'basic') {
    responses.default = {
      description:
        'An injected fault of the test double (kind `status`): any status, with the error body.',
      content: errorContent,
    };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: route.tags,
    security: route.auth === 'basic' ? [{ basic: [] }] : [],
    parameters: parameters(route),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } }
      : {}),
    responses,
  };
}

function adminOperation(route: Route) {
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/ControlError' } } };
  const type = route.renders ?? 'application/json';
  return {
    operationId: route.operationId,
    summary: route.summary,
    tags: route.tags,
    security: [{}, { adminToken: [] }],
    parameters: parameters(route),
    ...(route.body
      ? { requestBody: { content: { 'application/json': { schema: route.body } } } }
      : {}),
    responses: {
      [route.status]: {
        description: 'Success.',
        ...(route.status === 204
          ? {}
          : { content: { [type]: { schema: route.renders ? { type: 'string' } : {} } } }),
      },
      '4XX': {
        description: 'Bad input, a wrong admin token, or an unknown server or rule.',
        content: json,
      },
      ...Object.fromEntries(
        (route.errors ?? []).map((status) => [
          status,
          { description: CONTROL_ERROR_MEANINGS[status], content: json },
        ]),
      ),
    },
  };
}

let document: Record<string, unknown> | undefined;

/** The OpenAPI document of the whole app: a pure function of the route table, built once. */
export function openApiDocument(): Record<string, unknown> {
  document ??= buildOpenApi(ROUTES, PACKAGE_VERSION);
  return document;
}
