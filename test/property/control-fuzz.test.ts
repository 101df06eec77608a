import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Seed } from '../../src/domain/seed-types.js';
import type { Route } from '../../src/http/route.js';
import { ROUTES } from '../../src/http/routes/table.js';
import { call, useFake } from '../helpers/fake.js';

/**
 * Every control route and every field it takes, read from the route table: a new route, query
 * parameter or body field is fuzzed without touching this file. Each call must be answered below
 * 500; a refusal must be a 4xx in the error envelope and change nothing (state and fault rules).
 */
const CONTROL_ROUTES = ROUTES.filter((route) => route.auth === 'admin');

type Schema = {
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly enum?: readonly unknown[];
  readonly minimum?: number;
};

interface Field {
  readonly route: Route;
  readonly where: 'param' | 'query' | 'body';
  /** The field's path: one name, or more inside a body (`match.path`). */
  readonly path: readonly string[];
}

function bodyFields(route: Route, schema: Schema, prefix: readonly string[]): Field[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
    const path = [...prefix, name];
    const own: Field = { route, where: 'body', path };
    return property.properties ? [own, ...bodyFields(route, property, path)] : [own];
  });
}

const FIELDS: Field[] = CONTROL_ROUTES.flatMap((route) => [
  ...Object.keys(route.params ?? {}).map(
    (name): Field => ({ route, where: 'param', path: [name] }),
  ),
  ...Object.keys(route.query ?? {}).map((name): Field => ({ route, where: 'query', path: [name] })),
  ...(route.body ? bodyFields(route, route.body as Schema, []) : []),
]);

const label = (field: Field) =>
  `${field.route.method} ${field.route.path} ${field.where} ${field.path.join('.')}`;

/** The smallest body the schema accepts: so a fuzzed field is checked, not a missing neighbour. */
function minimalValue(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'object') {
    return Object.fromEntries(
      (schema.required ?? []).map((name) => [name, minimalValue(schema.properties![name]!)]),
    );
  }
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return schema.minimum ?? 0;
  if (type === 'boolean') return false;
  return 'x';
}

/** JSON texts JSON.stringify cannot write, or that parse to values at the edges. */
const RAW_NUMBERS = [
  '1e20',
  '-1e20',
  '1e400',
  '-1e400',
  '1e-400',
  '-0',
  '0.5',
  '-1',
  '0',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '1e308',
];
const HOSTILE_TEXT = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e20',
  '1e400',
  '-1',
  '0x10',
  '1_000',
  '00012',
  '12abc',
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  '\ud800',
  '\u{1F600}',
  '<a&b>"\'',
  '/',
  '/**',
  '//',
  '%',
  'fault-1',
  'x'.repeat(5000),
];
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`;

/** A value as raw JSON text: any JSON, numbers at the edges, hostile strings, huge and deep ones. */
const RAW_VALUE = fc.oneof(
  fc.constantFrom(...RAW_NUMBERS),
  fc.constantFrom(...HOSTILE_TEXT).map((text) => JSON.stringify(text)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.double().map((value) => (Number.isFinite(value) ? String(value) : 'null')),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.constantFrom(DEEP, JSON.stringify('y'.repeat(70_000)), '{"__proto__":{"polluted":1}}'),
);
/** A value as query or path text. */
const TEXT_VALUE = fc.oneof(
  fc.constantFrom(...HOSTILE_TEXT, ...RAW_NUMBERS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** `value` as raw JSON text at `path` inside `base`. */
function withRaw(base: unknown, path: readonly string[], raw: string): string {
  const marker = '\u0001raw\u0001';
  const copy = structuredClone(base) as Record<string, unknown>;
  let target = copy;
  for (const name of path.slice(0, -1)) {
    if (typeof target[name] !== 'object' || target[name] === null) target[name] = {};
    target = target[name] as Record<string, unknown>;
  }
  target[path.at(-1)!] = marker;
  return JSON.stringify(copy).replace(JSON.stringify(marker), () => raw);
}

/** The path with each `:name` filled: the fuzzed one from `values`, the others with valid text. */
function fillPath(route: Route, values: Readonly<Record<string, string>>): string {
  return route.path.replace(/:(\w+)/g, (_whole, name: string) =>
    encodePathText(values[name] ?? (name === 'serverId' ? '1234' : 'fault-1')),
  );
}

/** Percent-encoded; a lone surrogate, which has no UTF-8, becomes the bytes of one (invalid). */
function encodePathText(text: string): string {
  const lone = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
  return text
    .split(lone)
    .map((part) => (lone.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}

const fake = useFake({ perFile: true });

interface Snapshot {
  readonly state: Seed;
  readonly faults: unknown;
}
const snapshot = (): Snapshot => ({ state: fake.exportState(), faults: fake.faults.list() });

/** Sends one call and checks what every call must satisfy. */
async function check(
  route: Route,
  url: string,
  payload: string | undefined,
  contentType = 'application/json',
): Promise<number> {
  const before = snapshot();
  const response = await fake.inject({
    method: route.method,
    url,
    ...(payload === undefined ? {} : { payload, headers: { 'content-type': contentType } }),
  });
  const status = response.statusCode;
  if (status >= 500) {
    throw new Error(`${route.method} ${url} answered ${status}: ${response.body.slice(0, 300)}`);
  }
  if (status >= 400) {
    // 405 only where a path parameter of nothing, '.' or '..' names a shorter path that other
    // methods serve (DELETE /__admin/tenants/ is POST /__admin/tenants's path; inject resolves dot
    // segments as a URL parser does): the router's answer, with Allow.
    const shorter = status === 405 && /\/\/|\/\.{0,2}(?:\/|\?|$)/.test(url);
    expect([400, 404, 409, 413, 415, ...(shorter ? [405] : [])]).toContain(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(response.body) as { message?: unknown };
    expect(typeof body.message).toBe('string');
    expect((body.message as string).length).toBeGreaterThan(0);
    expect(snapshot()).toEqual(before);
  }
  // A tenant removed by a fuzzed call comes back, so the routes fuzzed after it still reach it.
  if (status < 300 && route.operationId === 'removeTenant') {
    fake.seed({ servers: before.state.servers.filter((server) => server.serverId === 1234) });
  }
  // The fault list stays readable whatever was accepted (a 500 here was defect 6).
  expect((await fake.inject({ url: '/__admin/faults' })).statusCode).toBe(200);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return status;
}

beforeAll(async () => {
  // One recorded request: waits with no other filter answer at once instead of waiting.
  await call(fake, 'GET', 'lists');
});

describe('every control route and field, fuzzed', () => {
  it('the table gives the fields the issue names, so the derivation cannot go blind', () => {
    const names = FIELDS.map(label);
    for (const expected of [
      'POST /__admin/faults body durationMs',
      'POST /__admin/faults body match.path',
      'POST /__admin/maintenance body durationMs',
      'POST /__admin/servers body key',
      'PUT /__admin/servers/:serverId/max-contacts body maxContacts',
      'PUT /__admin/servers/:serverId/max-contacts param serverId',
      'GET /__admin/requests/wait query timeoutMs',
      'DELETE /__admin/faults/:id param id',
      'POST /__admin/seed body servers',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(FIELDS.map((field) => [label(field), field] as const))('%s', async (_name, field) => {
    const { route, where, path } = field;
    const name = path[0]!;
    const arbitrary = where === 'body' ? RAW_VALUE : TEXT_VALUE;
    await fc.assert(
      fc.asyncProperty(arbitrary, async (value) => {
        if (where === 'body') {
          const base = minimalValue(route.body as Schema);
          await check(route, fillPath(route, {}), withRaw(base, path, value));
        } else if (where === 'param') {
          await check(route, fillPath(route, { [name]: value }), undefined);
        } else {
          const query = new URLSearchParams({ [name]: value });
          // A wait answers at once: the recorded request matches, or the time-out is 0.
          const waits = ['waitForRequest', 'tenantWaitForRequest'].includes(route.operationId);
          if (waits && name !== 'timeoutMs') {
            query.set('timeoutMs', '0');
          }
          await check(route, `${fillPath(route, {})}?${query}`, undefined);
        }
      }),
      { numRuns: 40 },
    );
  });

  it.each(
    CONTROL_ROUTES.filter((route) => route.method !== 'GET').map(
      (route) => [`${route.method} ${route.path}`, route] as const,
    ),
  )('%s with any whole body', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          RAW_VALUE,
          fc.constantFrom('{', '{"a":1,"a":2}', '\u00ff', '{"x":1}garbage', 'nul'),
        ),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
        async (payload, contentType) => {
          await check(route, fillPath(route, {}), payload, contentType);
        },
      ),
      { numRuns: 30 },
    );
  });

  /** Every JSON value that is not an object: JSON `null` must not read as "no body". */
  const NOT_OBJECTS = ['null', '[]', '[{}]', '0', '1', '-1.5', '""', '"x"', 'true', 'false'];

  // GET bodies are never read (fastify parses none): reads change nothing whatever they carry.
  it.each(
    CONTROL_ROUTES.filter((route) => route.method !== 'GET').map(
      (route) => [`${route.method} ${route.path}`, route] as const,
    ),
  )('%s refuses a body that is not a JSON object, and changes nothing', async (_name, route) => {
    for (const payload of NOT_OBJECTS) {
      const status = await check(route, fillPath(route, {}), payload);
      expect(status, `${payload} on ${route.method} ${route.path}`).toBe(400);
      const response = await fake.inject({
        method: route.method,
        url: fillPath(route, {}),
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(JSON.parse(response.body).message).toMatch(
        /^(The body must be a JSON object with .+|This route takes no body \(or an empty JSON object\)), not (JSON null|a JSON (array|number|string|boolean))\.$/,
      );
    }
  });

  it('every control route that changes something declares its body in the table', () => {
    const undeclared = CONTROL_ROUTES.filter((route) => route.method !== 'GET' && !route.body);
    expect(undeclared.map((route) => `${route.method} ${route.path}`)).toEqual([]);
    const bodiless = CONTROL_ROUTES.filter(
      (route) => route.body && Object.keys((route.body as Schema).properties ?? {}).length === 0,
    ).map((route) => route.operationId);
    for (const expected of [
      'regenerateKey',
      'reset',
      'resetServer',
      'clearFaults',
      'clearRequests',
    ]) {
      expect(bodiless).toContain(expected);
    }
  });

  it.each(
    CONTROL_ROUTES.filter(
      (route) =>
        route.body &&
        (route.body as Schema & { additionalProperties?: boolean }).additionalProperties === false,
    ).map((route) => [`${route.method} ${route.path}`, route] as const),
  )('%s refuses a name its body does not list', async (_name, route) => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter((name) => !Object.hasOwn((route.body as Schema).properties ?? {}, name)),
        fc.jsonValue({ maxDepth: 1 }),
        async (name, value) => {
          const status = await check(route, fillPath(route, {}), JSON.stringify({ [name]: value }));
          expect(status).toBe(400);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('query parameters given twice are refused like any bad filter', async () => {
    for (const route of CONTROL_ROUTES.filter((candidate) => candidate.query)) {
      for (const name of Object.keys(route.query!)) {
        const status = await check(route, `${fillPath(route, {})}?${name}=1&${name}=2`, undefined);
        expect(status).toBe(400);
      }
    }
  });
});
