import { ApiError } from '../../domain/errors.js';
import { MAX_KEY_LENGTH } from '../../domain/rules.js';

/**
 * The bodies of the control routes that take small objects, as the route table documents them
 * (and OpenAPI shows them); the core checks the values, which the handle shares.
 */

/**
 * Each control route takes the body it needs, no more: a huge body is a way to exhaust memory.
 * Seeds can be large (a hundred thousand contacts is about 10 MB of JSON); a larger fixture
 * belongs in a seed file (`--seed`, the `seed` option), read from disk.
 */
export const SEED_BODY_LIMIT = 64 * 1024 * 1024;

/** Every other control body is a small object: a fault rule, a cap, a new server. */
export const CONTROL_BODY_LIMIT = 64 * 1024;

const MAX_CONTACTS_SCHEMA = {
  type: 'integer',
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'The contact cap.',
} as const;

/** `POST /__admin/servers`. */
export const SERVER_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    serverId: { type: 'integer', minimum: 1000, maximum: 99999, description: 'Free when missing.' },
    key: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_KEY_LENGTH,
      // Lone surrogates, which a pattern cannot name, are refused by the core's check.
      pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$',
      description:
        'Fresh when missing. No control characters (C0, DEL, C1), U+2028, U+2029 or lone surrogates.',
    },
    maxContacts: MAX_CONTACTS_SCHEMA,
  },
} as const;
/** `PUT /__admin/servers/{serverId}/max-contacts`. */
export const MAX_CONTACTS_BODY = {
  type: 'object',
  required: ['maxContacts'],
  additionalProperties: false,
  properties: { maxContacts: MAX_CONTACTS_SCHEMA },
} as const;
/**
 * The body of a control route that takes none: nothing, or an empty object. Declared in the route
 * table like any other body, so a typo such as `{"sinceId": 5}` on DELETE /requests is refused
 * instead of silently ignored, and the fuzz test sends such routes bodies too.
 */
export const NO_BODY = {
  type: 'object',
  additionalProperties: false,
  properties: {},
  description: 'None, or an empty object.',
} as const;
/** `POST /__admin/tenants`: one server's seed, its serverId optional; the seed checks do the rest. */
export const TENANT_BODY = {
  type: 'object',
  description:
    'One server as in a seed (lists, customFields, contacts, content, maxContacts, nextIds); serverId and key are chosen when missing.',
  properties: {
    serverId: { type: 'integer', minimum: 1000, maximum: 99999 },
    key: { type: 'string' },
    maxContacts: MAX_CONTACTS_SCHEMA,
    customFields: { type: 'array', items: { type: 'object' } },
    lists: { type: 'array', items: { type: 'object' } },
    contacts: { type: 'array', items: { type: 'object' } },
    content: { type: 'array', items: { type: 'object' } },
    nextIds: { type: 'object' },
  },
} as const;
/** `POST /__admin/seed`: the outline; the seed checks do the rest. */
export const SEED_BODY = {
  type: 'object',
  required: ['servers'],
  description: 'A seed, as seed.schema.json describes it (GET /__admin/state gives one).',
  properties: {
    $schema: { type: 'string' },
    servers: { type: 'array', items: { type: 'object' } },
  },
} as const;

/**
 * Every control body is a JSON object, or absent: JSON `null`, an array, a number, a string or a
 * boolean is refused on every control route before its handler runs, so that no route reads
 * `null` as "nothing" (a reset, an outage) and changes state on a body its docs refuse.
 */
export function requireObjectBody(
  body: unknown,
  schema: { readonly properties?: Readonly<Record<string, unknown>> } | undefined,
): void {
  if (body === undefined) return;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) return;
  const names = Object.keys(schema?.properties ?? {});
  throw new ApiError('ADMIN_BAD_REQUEST', {
    detail:
      names.length === 0
        ? `This route takes no body (or an empty JSON object), not ${jsonKind(body)}.`
        : `The body must be a JSON object with ${names.join(', ')}, not ${jsonKind(body)}.`,
  });
}

function jsonKind(value: unknown): string {
  if (value === null) return 'JSON null';
  if (Array.isArray(value)) return 'a JSON array';
  if (typeof value === 'string') return 'a JSON string';
  return `a JSON ${typeof value}`;
}

/**
 * A small control body: a JSON object (or none) with only the names its schema lists. The values
 * are checked by the core, which the handle shares.
 */
export function controlBody(
  body: unknown,
  schema: {
    readonly properties: Readonly<Record<string, unknown>>;
    readonly required?: readonly string[];
  },
): Record<string, unknown> {
  const names = Object.keys(schema.properties);
  if (body === undefined) body = {};
  requireObjectBody(body, schema);
  const given = body as Record<string, unknown>;
  const unknown = Object.keys(given).find((name) => !names.includes(name));
  if (unknown !== undefined) {
    throw new ApiError('ADMIN_BAD_REQUEST', {
      detail:
        names.length === 0
          ? `Unknown property '${unknown}'; this route takes no body (or an empty JSON object).`
          : `Unknown property '${unknown}'; use ${names.join(', ')}.`,
    });
  }
  const missing = schema.required?.find((name) => given[name] === undefined);
  if (missing !== undefined) {
    throw new ApiError('ADMIN_BAD_REQUEST', { detail: `${missing} is required.` });
  }
  return given;
}
