import { describe, expect, it } from 'vitest';
import { Router } from '../../../src/http/router.js';
import { ROUTES } from '../../../src/http/routes/table.js';

// The app builds its route table once,
// when its module loads; these build it inside each test, so that a broken table fails a test
// instead of failing to load a test file (which the mutation runner does not count as a kill).

/** A lookup, as the operation and its parameters, an Allow list or nothing. */
function look(method: string, path: string) {
  const found = new Router(ROUTES).lookup(method, path);
  if (found === undefined) return undefined;
  if ('allow' in found) return { allow: found.allow };
  if ('badParam' in found) return { operation: found.route.operationId, bad: found.badParam };
  return { operation: found.route.operationId, params: found.params };
}

describe('the route table', () => {
  it('finds paths without parameters, with or without one trailing slash', () => {
    expect(look('GET', '/marketing/v1/lists')).toEqual({ operation: 'getLists', params: {} });
    expect(look('GET', '/marketing/v1/lists/')).toEqual({ operation: 'getLists', params: {} });
    expect(look('GET', '/__admin/requests.har')).toEqual({ operation: 'requestsHar', params: {} });
    expect(look('GET', '/marketing/v1/lists//')).toBeUndefined();
    expect(look('GET', '/__admin/requestsXhar')).toBeUndefined();
    expect(look('GET', '/')).toBeUndefined();
  });

  it('parses parameters by their kind and names them as the route does', () => {
    expect(look('PUT', '/marketing/v1/lists/7/contacts/12')).toEqual({
      operation: 'addToListById',
      params: { listId: 7, contactId: 12 },
    });
    expect(look('PUT', '/marketing/v1/lists/7/contacts/')).toEqual({
      operation: 'addToListByEmail',
      params: { listId: 7 },
    });
    expect(look('POST', '/marketing/v1/customfields/First%20Name')).toEqual({
      operation: 'createCustomField',
      params: { name: 'First Name' },
    });
    expect(look('POST', '/marketing/v1/customfields/City')).toEqual({
      operation: 'createCustomField',
      params: { name: 'City' },
    });
  });

  it('names the parameter that is not of its kind, quoting the text as sent', () => {
    expect(look('DELETE', '/marketing/v1/customfields/First%20Name')).toEqual({
      operation: 'deleteCustomField',
      bad: { name: 'customFieldNameId', text: 'First%20Name' },
    });
    expect(look('POST', '/marketing/v1/customfields/%E0%A4%A')).toEqual({
      operation: 'createCustomField',
      bad: { name: 'name', text: '%E0%A4%A' },
    });
  });

  it('lists every method of a path shape, sorted, when the method has no route', () => {
    expect(look('DELETE', '/marketing/v1/lists')).toEqual({ allow: 'GET' });
    expect(look('GET', '/marketing/v1/lists/abc/contacts')).toEqual({ allow: 'DELETE, PUT' });
    expect(look('PATCH', '/marketing/v1/customfields/x')).toEqual({ allow: 'DELETE, POST' });
    expect(look('PUT', '/__admin/faults')).toEqual({ allow: 'DELETE, GET, POST' });
  });

  it('refuses two routes for one method and path shape, naming them', () => {
    const lists = ROUTES.find((route) => route.operationId === 'getLists')!;
    expect(() => new Router([lists, lists])).toThrow(
      new Error('Two routes for GET /marketing/v1/lists'),
    );
  });
});
