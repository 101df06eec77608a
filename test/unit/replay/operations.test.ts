import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from '../../../src/replay/har-input.js';
import { IdMaps } from '../../../src/replay/ids.js';
import {
  itemsOf,
  operationOf,
  pathForFake,
  recordOf,
  serverIdOf,
} from '../../../src/replay/operations.js';

// Which endpoint a recorded exchange called, the path replay sends for it, and whose it was.

function exchange(method: string, path: string, authorization?: string): RecordedExchange {
  return {
    index: 0,
    method,
    version: 'v1',
    path,
    search: '',
    headers: authorization === undefined ? {} : { authorization },
    body: undefined,
    bodyTruncated: false,
    response: { status: 200, contentType: '', body: undefined, truncated: false },
    noAnswerReason: undefined,
  };
}
const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('operationOf: the endpoint and the ids in its path', () => {
  it.each([
    ['GET', '/lists', { name: 'lists' }],
    ['GET', '/lists/', { name: 'lists' }],
    ['GET', '/customfields', { name: 'fields' }],
    ['GET', '/customfields/', { name: 'fields' }],
    ['GET', '/content', { name: 'content' }],
    ['GET', '/content/', { name: 'content' }],
    ['PUT', '/lists/12/contacts', { name: 'addByEmail', listId: 12 }],
    ['PUT', '/lists/12/contacts/', { name: 'addByEmail', listId: 12 }],
    ['DELETE', '/lists/12/contacts', { name: 'removeByEmail', listId: 12 }],
    ['PUT', '/lists/1/contacts/34', { name: 'addById', listId: 1, contactId: 34 }],
    ['PUT', '/lists/1/contacts/34/', { name: 'addById', listId: 1, contactId: 34 }],
    ['DELETE', '/lists/1/contacts/34', { name: 'removeById', listId: 1, contactId: 34 }],
    ['POST', '/contacts/unsubscribe', { name: 'unsubscribeByEmail' }],
    ['POST', '/contacts/unsubscribe/', { name: 'unsubscribeByEmail' }],
    ['POST', '/contacts/unsubscribe/9', { name: 'unsubscribeById', contactId: 9 }],
    ['POST', '/contacts/unsubscribe/9/', { name: 'unsubscribeById', contactId: 9 }],
    ['DELETE', '/customfields/5', { name: 'deleteField', fieldId: 5 }],
    ['DELETE', '/customfields/5/', { name: 'deleteField', fieldId: 5 }],
    ['POST', '/customfields/City', { name: 'createField', fieldName: 'City' }],
    ['POST', '/customfields/My%20City/', { name: 'createField', fieldName: 'My City' }],
    ['POST', '/customfields/100%', { name: 'createField', fieldName: '100%' }],
    ['GET', '/lists/0/contacts', { name: 'other' }],
    ['PUT', '/lists/01/contacts', { name: 'other' }],
    ['PUT', '/lists/12345678901234567/contacts', { name: 'other' }],
    ['PUT', '/lists/1234567890123456/contacts', { name: 'addByEmail', listId: 1234567890123456 }],
    ['PUT', 'x/lists/1/contacts', { name: 'other' }],
    ['PUT', '/lists/1/contactsx', { name: 'other' }],
    ['GET', 'x/lists', { name: 'other' }],
    ['GET', '/listsx', { name: 'other' }],
    ['GET', 'x/customfields', { name: 'other' }],
    ['GET', '/customfieldsx', { name: 'other' }],
    ['GET', 'x/content', { name: 'other' }],
    ['GET', '/contentx', { name: 'other' }],
    ['POST', 'x/contacts/unsubscribe', { name: 'other' }],
    ['POST', '/contacts/unsubscribex', { name: 'other' }],
    ['POST', 'x/contacts/unsubscribe/9', { name: 'other' }],
    ['DELETE', 'x/customfields/5', { name: 'other' }],
    ['DELETE', '/customfields/5x', { name: 'other' }],
    ['POST', 'x/customfields/City', { name: 'other' }],
    ['POST', '/customfields/a/b', { name: 'other' }],
    ['POST', '/lists', { name: 'other' }],
    ['PATCH', '/lists/1/contacts/2', { name: 'other' }],
  ])('%s %s', (method, path, operation) => {
    expect(operationOf(exchange(method, path))).toEqual(operation);
  });
});

describe('pathForFake: the recorded ids as the fake knows them', () => {
  it('pairs the ids the service assigned, keeps the rest and the trailing slash', () => {
    const ids = new IdMaps();
    ids.keep('contact', [3]);
    ids.agree('contact', 7, 70);
    ids.agree('field', 5, 50);
    const path = (method: string, recorded: string) => {
      const sent = exchange(method, recorded);
      return pathForFake(sent, operationOf(sent), ids);
    };
    expect(path('PUT', '/lists/1/contacts/7')).toBe('/lists/1/contacts/70');
    expect(path('DELETE', '/lists/1/contacts/7/')).toBe('/lists/1/contacts/70/');
    expect(path('PUT', '/lists/1/contacts/3')).toBe('/lists/1/contacts/3');
    expect(path('POST', '/contacts/unsubscribe/7')).toBe('/contacts/unsubscribe/70');
    expect(path('POST', '/contacts/unsubscribe/7/')).toBe('/contacts/unsubscribe/70/');
    expect(path('DELETE', '/customfields/5')).toBe('/customfields/50');
    expect(path('DELETE', '/customfields/5/')).toBe('/customfields/50/');
    expect(path('PUT', '/lists/1/contacts/')).toBe('/lists/1/contacts/');
    expect(path('GET', '/lists')).toBe('/lists');
    expect(ids.takeSubstitutions()).toEqual([]);
  });
});

describe('serverIdOf: the Basic username, redacted or clear', () => {
  it.each([
    ['Basic 1234:<redacted>', 1234],
    ['  basic   56789:<redacted> ', 56789],
    ['Basic 123:<redacted>', undefined],
    ['Basic 123456:<redacted>', undefined],
    [basic('1234:key'), 1234],
    [basic('12345:key'), 12345],
    [basic('123:key'), undefined],
    [basic('123456:key'), undefined],
    [basic('12a4:key'), undefined],
    [basic('x1234:key'), undefined],
    ['Bearer 1234', undefined],
  ])('%j: %s', (authorization, serverId) => {
    expect(serverIdOf(exchange('GET', '/lists', authorization))).toBe(serverId);
  });

  it('none without an Authorization header', () => {
    expect(serverIdOf(exchange('GET', '/lists'))).toBeUndefined();
  });
});

describe('itemsOf and recordOf: answers as records with lower-cased names', () => {
  it('JSON and XML collections and records', () => {
    expect(itemsOf({ kind: 'json', value: [{ Id: 1 }, 'x', null, [1]] })).toEqual([
      { id: 1 },
      {},
      {},
      {},
    ]);
    expect(itemsOf({ kind: 'json', value: { Id: 1 } })).toEqual([]);
    expect(
      itemsOf({
        kind: 'xml',
        value: {
          name: 'Lists',
          text: '',
          children: [
            { name: 'List', text: '', children: [{ name: 'Id', text: '1', children: [] }] },
          ],
        },
      }),
    ).toEqual([{ id: '1' }]);
    expect(itemsOf({ kind: 'text', value: '[]' })).toEqual([]);
    expect(recordOf({ kind: 'json', value: { ContactID: 3 } })).toEqual({ contactid: 3 });
    expect(
      recordOf({
        kind: 'xml',
        value: { name: 'R', text: '', children: [{ name: 'ContactId', text: '3', children: [] }] },
      }),
    ).toEqual({ contactid: '3' });
    expect(recordOf({ kind: 'text', value: '{}' })).toEqual({});
    expect(recordOf({ kind: 'empty' })).toEqual({});
  });
});
