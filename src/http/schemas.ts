/**
 * JSON schemas of the service's JSON bodies. Fastify compiles them (fast-json-stringify) to
 * serialize responses, which is both faster than JSON.stringify and a guard: a field that is
 * not in the schema never leaks onto the wire.
 */

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;

function object<P extends Record<string, unknown>>(properties: P) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

export const LIST_SCHEMA = object({ id: integer, serverId: integer, name: string });

export const CUSTOM_FIELD_SCHEMA = object({
  customFieldNameId: integer,
  name: string,
  serverId: integer,
  customFieldType: string,
});

export const CONTENT_SCHEMA = object({
  id: integer,
  name: string,
  thumbnailUrl: { type: 'string', format: 'uri' },
  thumbnailExpiration: { type: 'string', format: 'date-time' },
  created: { type: 'string', format: 'date-time' },
  updated: { type: 'string', format: 'date-time' },
});

export const MEMBERSHIP_SCHEMA = object({ serverId: integer, contactId: integer, listId: integer });

export const ERROR_SCHEMA = object({ message: string });

const arrayOf = (items: unknown) => ({ type: 'array', items }) as const;

/** The `response` part of a route schema: the success body, and the error body for the rest. */
export function responses(success: unknown, status = 200) {
  return {
    [status]: success,
    '4xx': ERROR_SCHEMA,
    '5xx': ERROR_SCHEMA,
  };
}

export const LISTS_RESPONSE = responses(arrayOf(LIST_SCHEMA));
export const CUSTOM_FIELDS_RESPONSE = responses(arrayOf(CUSTOM_FIELD_SCHEMA));
export const CUSTOM_FIELD_RESPONSE = responses(CUSTOM_FIELD_SCHEMA);
export const CONTENTS_RESPONSE = responses(arrayOf(CONTENT_SCHEMA));
export const MEMBERSHIP_RESPONSE = responses(MEMBERSHIP_SCHEMA);
export const EMPTY_RESPONSE = responses({ type: 'null' }, 204);
