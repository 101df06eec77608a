import type { Content, CustomField, List, Membership } from '../domain/model.js';
import { isoTime } from '../domain/rules.js';
import { arrayDocument, document, elements } from './xml.js';

/**
 * How one kind of value looks on the wire, in each format. `schema` describes the JSON form: it
 * is compiled (fast-json-stringify) to serialize it, which is both faster than JSON.stringify and
 * a guard (a property not in the schema never leaks onto the wire), and it documents the route.
 */
export interface Representation<T> {
  readonly schema: Readonly<Record<string, unknown>>;
  json(value: T): object;
  xml(value: T): string;
}

const integer = { type: 'integer' } as const;
const string = { type: 'string' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

function object<P extends Record<string, unknown>>(properties: P) {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  } as const;
}

const arrayOf = (items: unknown) => ({ type: 'array', items }) as const;

export interface ServerScoped<T> {
  readonly serverId: number;
  readonly items: Iterable<T>;
}

const LIST_SCHEMA = object({ id: integer, serverId: integer, name: string });

export const LISTS: Representation<ServerScoped<List>> = {
  schema: arrayOf(LIST_SCHEMA),
  json: ({ serverId, items }) =>
    Array.from(items, (list) => ({ id: list.id, serverId, name: list.name })),
  xml: ({ serverId, items }) =>
    arrayDocument('ArrayOfList', 'List', items, (list) =>
      elements([
        ['Id', list.id],
        ['Name', list.name],
        ['ServerId', serverId],
      ]),
    ),
};

const CUSTOM_FIELD_SCHEMA = object({
  customFieldNameId: integer,
  name: string,
  serverId: integer,
  customFieldType: string,
});

const fieldJson = (serverId: number, field: CustomField) => ({
  customFieldNameId: field.id,
  name: field.name,
  serverId,
  customFieldType: 'String',
});

const fieldXml = (serverId: number, field: CustomField) =>
  elements([
    ['CustomFieldNameId', field.id],
    ['CustomFieldType', 'String'],
    ['Name', field.name],
    ['ServerId', serverId],
  ]);

export const CUSTOM_FIELDS: Representation<ServerScoped<CustomField>> = {
  schema: arrayOf(CUSTOM_FIELD_SCHEMA),
  json: ({ serverId, items }) => Array.from(items, (field) => fieldJson(serverId, field)),
  xml: ({ serverId, items }) =>
    arrayDocument('ArrayOfCustomField', 'CustomField', items, (field) => fieldXml(serverId, field)),
};

export const CUSTOM_FIELD: Representation<{ serverId: number; field: CustomField }> = {
  schema: CUSTOM_FIELD_SCHEMA,
  json: ({ serverId, field }) => fieldJson(serverId, field),
  xml: ({ serverId, field }) => document('CustomField', fieldXml(serverId, field)),
};

/** A content item as GET /content shows it, with a freshly minted thumbnail. */
export interface ContentView extends Content {
  readonly thumbnailUrl: string;
  readonly thumbnailExpiration: number;
}

export const CONTENTS: Representation<Iterable<ContentView>> = {
  schema: arrayOf(
    object({
      id: integer,
      name: string,
      thumbnailUrl: { type: 'string', format: 'uri' },
      thumbnailExpiration: dateTime,
      created: dateTime,
      updated: dateTime,
    }),
  ),
  json: (items) =>
    Array.from(items, (item) => ({
      id: item.id,
      name: item.name,
      thumbnailUrl: item.thumbnailUrl,
      thumbnailExpiration: isoTime(item.thumbnailExpiration),
      created: isoTime(item.created),
      updated: isoTime(item.updated),
    })),
  xml: (items) =>
    arrayDocument('ArrayOfContent', 'Content', items, (item) =>
      elements([
        ['Created', isoTime(item.created)],
        ['Name', item.name],
        ['Id', item.id],
        ['ThumbnailExpiration', isoTime(item.thumbnailExpiration)],
        ['ThumbnailUrl', item.thumbnailUrl],
        ['Updated', isoTime(item.updated)],
      ]),
    ),
};

export const MEMBERSHIP: Representation<Membership> = {
  schema: object({ serverId: integer, contactId: integer, listId: integer }),
  json: ({ serverId, contactId, listId }) => ({ serverId, contactId, listId }),
  xml: ({ serverId, contactId, listId }) =>
    document(
      'ListContact',
      elements([
        ['ContactId', contactId],
        ['ListId', listId],
        ['ServerId', serverId],
      ]),
    ),
};

/** The error envelope of every answer that is not a success. */
export const ERROR: Representation<string> = {
  schema: object({ message: string }),
  json: (message) => ({ message }),
  xml: (message) => document('Error', elements([['Message', message]])),
};
