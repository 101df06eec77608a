import type { Content, CustomField, List, Membership } from '../domain/model.js';
import { arrayDocument, document, elements } from './xml.js';

/** How one kind of value looks on the wire, in each format. */
export interface Representation<T> {
  json(value: T): object;
  xml(value: T): string;
}

export interface ServerScoped<T> {
  readonly serverId: number;
  readonly items: Iterable<T>;
}

export const LISTS: Representation<ServerScoped<List>> = {
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
  json: ({ serverId, items }) => Array.from(items, (field) => fieldJson(serverId, field)),
  xml: ({ serverId, items }) =>
    arrayDocument('ArrayOfCustomField', 'CustomField', items, (field) => fieldXml(serverId, field)),
};

export const CUSTOM_FIELD: Representation<{ serverId: number; field: CustomField }> = {
  json: ({ serverId, field }) => fieldJson(serverId, field),
  xml: ({ serverId, field }) => document('CustomField', fieldXml(serverId, field)),
};

/** A content item as GET /content shows it, with a freshly minted thumbnail. */
export interface ContentView extends Content {
  readonly thumbnailUrl: string;
  readonly thumbnailExpiration: number;
}

const iso = (time: number) => new Date(time).toISOString();

export const CONTENTS: Representation<Iterable<ContentView>> = {
  json: (items) =>
    Array.from(items, (item) => ({
      id: item.id,
      name: item.name,
      thumbnailUrl: item.thumbnailUrl,
      thumbnailExpiration: iso(item.thumbnailExpiration),
      created: iso(item.created),
      updated: iso(item.updated),
    })),
  xml: (items) =>
    arrayDocument('ArrayOfContent', 'Content', items, (item) =>
      elements([
        ['Created', iso(item.created)],
        ['Name', item.name],
        ['Id', item.id],
        ['ThumbnailExpiration', iso(item.thumbnailExpiration)],
        ['ThumbnailUrl', item.thumbnailUrl],
        ['Updated', iso(item.updated)],
      ]),
    ),
};

export const MEMBERSHIP: Representation<Membership> = {
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

export const ERROR: Representation<string> = {
  json: (message) => ({ message }),
  xml: (message) => document('Error', elements([['Message', message]])),
};
