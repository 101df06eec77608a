import { isServerId, parseServerId } from '../domain/rules.js';
import { basicUsername } from '../match/request-match.js';
import type { ParsedBody } from './body.js';
import type { RecordedExchange } from './har-input.js';
import type { IdMaps } from './ids.js';

/** The endpoint an exchange called, with the ids in its path. */
export type Operation =
  | { readonly name: 'lists' | 'fields' | 'content' | 'unsubscribeByEmail' | 'other' }
  | { readonly name: 'addByEmail' | 'removeByEmail'; readonly listId: number }
  | { readonly name: 'addById' | 'removeById'; readonly listId: number; readonly contactId: number }
  | { readonly name: 'unsubscribeById'; readonly contactId: number }
  | { readonly name: 'createField'; readonly fieldName: string }
  | { readonly name: 'deleteField'; readonly fieldId: number };

const ID = '([1-9]\\d{0,15})';
const ROUTES: readonly [string, RegExp, (m: RegExpExecArray) => Operation][] = [
  ['GET', /^\/lists\/?$/, () => ({ name: 'lists' })],
  ['GET', /^\/customfields\/?$/, () => ({ name: 'fields' })],
  ['GET', /^\/content\/?$/, () => ({ name: 'content' })],
  [
    'PUT',
    new RegExp(`^/lists/${ID}/contacts/?$`),
    (m) => ({ name: 'addByEmail', listId: Number(m[1]) }),
  ],
  [
    'DELETE',
    new RegExp(`^/lists/${ID}/contacts/?$`),
    (m) => ({ name: 'removeByEmail', listId: Number(m[1]) }),
  ],
  [
    'PUT',
    new RegExp(`^/lists/${ID}/contacts/${ID}/?$`),
    (m) => ({ name: 'addById', listId: Number(m[1]), contactId: Number(m[2]) }),
  ],
  [
    'DELETE',
    new RegExp(`^/lists/${ID}/contacts/${ID}/?$`),
    (m) => ({ name: 'removeById', listId: Number(m[1]), contactId: Number(m[2]) }),
  ],
  ['POST', /^\/contacts\/unsubscribe\/?$/, () => ({ name: 'unsubscribeByEmail' })],
  [
    'POST',
    new RegExp(`^/contacts/unsubscribe/${ID}/?$`),
    (m) => ({ name: 'unsubscribeById', contactId: Number(m[1]) }),
  ],
  [
    'DELETE',
    new RegExp(`^/customfields/${ID}/?$`),
    (m) => ({ name: 'deleteField', fieldId: Number(m[1]) }),
  ],
  [
    'POST',
    /^\/customfields\/([^/]+)\/?$/,
    (m) => ({ name: 'createField', fieldName: safeDecode(m[1] ?? '') }),
  ],
];

/** Which endpoint an exchange called; `other` for anything the service does not have. */
export function operationOf(exchange: RecordedExchange): Operation {
  for (const [method, pattern, make] of ROUTES) {
    if (method !== exchange.method) continue;
    const match = pattern.exec(exchange.path);
    if (match) return make(match);
  }
  return { name: 'other' };
}

/** The path to send to the fake: the recorded ids the service assigned, as the fake knows them. */
export function pathForFake(exchange: RecordedExchange, operation: Operation, ids: IdMaps): string {
  const slash = exchange.path.endsWith('/') ? '/' : '';
  switch (operation.name) {
    case 'addById':
    case 'removeById':
      return `/lists/${operation.listId}/contacts/${ids.toFake('contact', operation.contactId)}${slash}`;
    case 'unsubscribeById':
      return `/contacts/unsubscribe/${ids.toFake('contact', operation.contactId)}${slash}`;
    case 'deleteField':
      return `/customfields/${ids.toFake('field', operation.fieldId)}${slash}`;
    default:
      return exchange.path;
  }
}

/**
 * The server id the request named: the Basic username, from a redacted header
 * (`Basic 1234:<redacted>`, as the journal and the recorder write it) or a clear one (a browser's
 * HAR). Undefined when there is none or it is not a server id.
 */
export function serverIdOf(exchange: RecordedExchange): number | undefined {
  const header = exchange.headers.authorization;
  if (header === undefined) return undefined;
  const redacted = /^basic\s+(\d{4,5}):<redacted>$/i.exec(header.trim());
  const username = redacted ? redacted[1] : basicUsername(header);
  // As the fake reads it: `01234` opens server 1234, and `0999` (999) opens none, as no server
  // can have that id; its request is sent as recorded, and the fake answers it as it would.
  const serverId = username === undefined ? undefined : parseServerId(username);
  return isServerId(serverId) ? serverId : undefined;
}

/** The items of a collection answer, JSON or XML, as records with lower-cased field names. */
export function itemsOf(body: ParsedBody): Record<string, unknown>[] {
  if (body.kind === 'json' && Array.isArray(body.value)) return body.value.map(lowerKeys);
  if (body.kind === 'xml') return body.value.children.map(xmlRecord);
  return [];
}

/** One object answer (a created field, a membership result), JSON or XML. */
export function recordOf(body: ParsedBody): Record<string, unknown> {
  if (body.kind === 'json') return lowerKeys(body.value);
  if (body.kind === 'xml') return xmlRecord(body.value);
  return {};
}

function xmlRecord(node: {
  children: readonly { name: string; text: string }[];
}): Record<string, unknown> {
  return Object.fromEntries(node.children.map((child) => [child.name.toLowerCase(), child.text]));
}

function lowerKeys(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key.toLowerCase(), item]));
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
