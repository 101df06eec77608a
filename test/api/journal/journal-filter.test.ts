import { describe, expect, it } from 'vitest';
import { FAULT_KINDS } from '../../../src/faults/fault-rule.js';
import { InvalidOptionError, type RequestFilter } from '../../../src/index.js';
import { receivedRequest } from '../../../src/testing/matchers.js';
import { call, makeFake, OTHER_KEY, OTHER_SERVER_ID, useFake } from '../../helpers/fake.js';
import { thrownBy } from '../../helpers/thrown.js';

// What each journal filter accepts and
// refuses (exact messages), and how a failed expectation explains the nearest misses and orders
// them. Everything goes through the handle (requests(), the matcher), not through internals.

const fake = useFake();

const add = (body: unknown) => call(fake, 'PUT', 'lists/1/contacts', { body });

/** The failure message of `expect(fake).toHaveReceivedRequest(filter)`. */
const missMessage = (filter: RequestFilter, times?: number) => {
  const result = receivedRequest(fake, filter, times);
  expect(result.pass).toBe(false);
  return result.message();
};

/** The lines under "Closest of the N recorded:". */
const closestLines = (filter: RequestFilter) => missMessage(filter).split('\n').slice(2);

describe('journal filters: what is refused, and how', () => {
  const refused = (filter: unknown) =>
    thrownBy(() => fake.requests(filter as RequestFilter), InvalidOptionError).message;

  it.each([['all'], [null], [[{ method: 'GET' }]], [7]])('%j is not a filter', (filter) => {
    expect(refused(filter)).toBe(
      'Bad filter: a filter is an object such as { "operation": "addToListByEmail" }.',
    );
  });

  it('names an unknown filter and lists the known ones', () => {
    expect(refused({ colour: 'red' })).toBe(
      "Bad filter: unknown filter 'colour'; use method, path, serverId, status, operation, fault, sinceId, body.",
    );
  });

  // 1 to 99 are no HTTP status, and "0xx" no class (0 alone is the entry of a request that got no
  // response).
  it.each([
    [-1],
    [1],
    [99],
    [600],
    [1.5],
    ['teapot'],
    ['0xx'],
    ['6xx'],
    ['4xxx'],
    ['x4xx'],
    [true],
  ])('status %j', (status) => {
    expect(refused({ status })).toBe(
      `Bad filter: status must be a status from 100 to 599 such as 404, 0 (no response) or a class from "1xx" to "5xx", got ${JSON.stringify(status)}.`,
    );
  });

  it.each([['nope'], [5], ['getlists']])('operation %j', (operation) => {
    expect(refused({ operation })).toMatch(
      new RegExp(
        `^Bad filter: operation must be one of [a-zA-Z, ]*addToListByEmail[a-zA-Z, ]*; got ${JSON.stringify(operation)}\\.$`,
      ),
    );
  });

  it.each([['boom'], [3]])('fault %j', (fault) => {
    expect(refused({ fault })).toBe(
      `Bad filter: fault must be one of ${FAULT_KINDS.join(', ')}; got ${JSON.stringify(fault)}.`,
    );
  });

  it.each([[-1], [1.5], ['3'], [2 ** 53]])('sinceId %j', (sinceId) => {
    expect(refused({ sinceId })).toBe(
      'Bad filter: sinceId must be a whole number of 0 or more (an entry id).',
    );
  });

  it.each([
    [{ method: 5 }, 'method must be an HTTP method such as "GET".'],
    [{ path: 'lists' }, 'path must be a glob that starts with "/", such as "/lists/*/contacts".'],
    [{ serverId: '1234' }, 'serverId must be a whole number from 0 to 999999999.'],
  ])('%j names the field without a prefix', (filter, message) => {
    expect(refused(filter)).toBe(`Bad filter: ${message}`);
  });

  it.each([['x'], [null], [5]])('body %j', (body) => {
    expect(refused({ body })).toBe(
      'Bad filter: body must be an object (or array) to match the request body against.',
    );
  });

  it('takes the edges of each range: status 0, 100 and 599, 1xx and 5xx, sinceId 0, a class in capitals', () => {
    for (const filter of [
      { status: 0 },
      { status: 100 },
      { status: 599 },
      { status: '1xx' },
      { status: '5xx' },
      { sinceId: 0 },
      { status: '4XX' },
    ]) {
      expect(fake.requests(filter), JSON.stringify(filter)).toEqual([]);
    }
  });
});

describe('journal filters: what each criterion keeps', () => {
  it('status: exact, or a class in any case; sinceId keeps later entries only', async () => {
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'lists/99');
    await call(fake, 'GET', 'lists', { auth: null });
    const ids = (filter: RequestFilter) => fake.requests(filter).map((entry) => entry.id);
    expect(ids({ status: 200 })).toEqual([1]);
    expect(ids({ status: 404 })).toEqual([2]);
    expect(ids({ status: '4xx' })).toEqual([2, 3]);
    expect(ids({ status: '4XX' })).toEqual([2, 3]);
    expect(ids({ status: '2xx' })).toEqual([1]);
    expect(ids({ status: '5xx' })).toEqual([]);
    expect(ids({ sinceId: 1 })).toEqual([2, 3]);
    expect(ids({ sinceId: 0 })).toEqual([1, 2, 3]);
    expect(ids({ sinceId: 3 })).toEqual([]);
  });

  it('method in any case, serverId, operation and fault', async () => {
    await add({ emailAddress: 'dee@example.com' });
    await call(fake, 'GET', 'lists', { auth: `Basic ${btoa(`${OTHER_SERVER_ID}:${OTHER_KEY}`)}` });
    fake.faults.add({ kind: 'status', status: 502, match: { path: '/content' } });
    await call(fake, 'GET', 'content');
    const ids = (filter: RequestFilter) => fake.requests(filter).map((entry) => entry.id);
    expect(ids({ method: 'put' })).toEqual([1]);
    expect(ids({ serverId: OTHER_SERVER_ID })).toEqual([2]);
    expect(ids({ operation: 'getLists' })).toEqual([2]);
    expect(ids({ fault: 'status' })).toEqual([3]);
    expect(ids({ fault: 'unavailable' })).toEqual([]);
    expect(ids({ method: 'GET', serverId: OTHER_SERVER_ID })).toEqual([2]);
    expect(ids({ method: 'PUT', serverId: OTHER_SERVER_ID })).toEqual([]);
  });

  it('body: names in any case, nested objects, array items in any order', async () => {
    await add({
      EmailAddress: 'dee@example.com',
      CustomFields: [
        { Name: 'City', Value: 'Porto' },
        { Name: 'FirstName', Value: 'Dee' },
      ],
    });
    const matches = (body: RequestFilter['body']) => fake.requests({ body }).length === 1;
    expect(matches({ emailaddress: 'dee@example.com' })).toBe(true);
    expect(matches({ customFields: [{ value: 'Dee' }, { name: 'City' }] })).toBe(true);
    expect(matches({ customFields: [{ value: 'Lisbon' }] })).toBe(false);
    expect(matches({ emailAddress: 'DEE@example.com' })).toBe(false);
    expect(matches({ emailAddress: 'dee@example.com', status: 'Active' })).toBe(false);
    expect(matches({ emailAddress: { value: 'dee@example.com' } })).toBe(false);
    expect(matches({ customFields: { name: 'City' } })).toBe(false);
    expect(matches([{ emailAddress: 'dee@example.com' }])).toBe(false);
  });
});

describe('nearest misses: what differs, and in which order', () => {
  it('says how each criterion differs, one phrase each, always in the same order', async () => {
    await call(fake, 'GET', 'lists?page=2');
    const [line] = closestLines({
      method: 'PUT',
      path: '/content',
      serverId: 56789,
      status: '4xx',
      operation: 'getContent',
      fault: 'reset',
      sinceId: 1,
    });
    expect(line).toBe(
      '  #1 GET /marketing/v1/lists?page=2 -> 200 (getLists): method GET (wanted PUT); path /marketing/v1/lists (wanted /content); serverId 1234 (wanted 56789); status 200 (wanted 4xx); operation getLists (wanted getContent); fault none (wanted reset); id 1 (wanted after 1)',
    );
  });

  it('shows an entry without a server or an operation as "none", and leaves out the operation', async () => {
    await call(fake, 'GET', 'nowhere', { auth: null });
    const [line] = closestLines({ serverId: 1234, operation: 'getLists', status: 404 });
    expect(line).toMatch(
      /^ {2}#1 GET \/marketing\/v1\/nowhere -> (\d{3}): serverId none \(wanted 1234\); operation none \(wanted getLists\)/,
    );
    expect(line).not.toContain('(getLists) ');
  });

  it('lists every criterion that fails and none that holds', async () => {
    await call(fake, 'GET', 'lists');
    const [line] = closestLines({ method: 'GET', status: 404, operation: 'getLists' });
    expect(line).toBe('  #1 GET /marketing/v1/lists -> 200 (getLists): status 200 (wanted 404)');
  });

  it('explains body differences: missing, different, not an object, not an array, no such item', async () => {
    await add({
      EmailAddress: 'dee@example.com',
      CustomFields: [{ Name: 'City', Value: 'Porto' }],
    });
    const explain = (body: RequestFilter['body']) => {
      const [line] = closestLines({ body });
      return line!.slice(line!.indexOf(': ') + 2);
    };
    expect(explain({ status: 'Active' })).toBe('body.status is missing');
    expect(explain({ emailAddress: 'ann@example.com' })).toBe(
      'body.emailAddress is "dee@example.com" (wanted "ann@example.com")',
    );
    expect(explain({ emailAddress: { local: 'dee' } })).toBe(
      'body.emailAddress is "dee@example.com" (wanted an object)',
    );
    expect(explain({ emailAddress: ['dee@example.com'] })).toBe(
      'body.emailAddress is "dee@example.com" (wanted an array)',
    );
    expect(explain({ customFields: [{ name: 'City' }, { name: 'Zip' }] })).toBe(
      'body.customFields has no item like {"name":"Zip"} (item 1 of the filter)',
    );
    expect(explain({ customFields: { name: 'City' } })).toBe(
      'body.customFields is [{"Name":"City","Value":"Porto"}] (wanted an object)',
    );
    expect(explain({ emailAddress: 'dee@example.com', a: 1, b: 2 })).toBe(
      'body.a is missing; body.b is missing',
    );
    expect(explain({ emailAddress: null })).toBe(
      'body.emailAddress is "dee@example.com" (wanted null)',
    );
    // JSON of 60 characters is shown whole; longer is cut to 57 and an ellipsis.
    expect(explain({ emailAddress: 'x'.repeat(58) })).toBe(
      `body.emailAddress is "dee@example.com" (wanted "${'x'.repeat(58)}")`,
    );
    expect(explain({ emailAddress: 'x'.repeat(70) })).toBe(
      `body.emailAddress is "dee@example.com" (wanted "${'x'.repeat(56)}...)`,
    );
  });

  it('says when the body has null where the filter wants an object', async () => {
    await add({ emailAddress: 'dee@example.com', customFields: null });
    expect(closestLines({ body: { customFields: { name: 'City' } } })[0]).toMatch(
      /: body\.customFields is null \(wanted an object\)$/,
    );
  });

  it('a wait shows the checked filter: a status class in lower case', async () => {
    const error = await fake
      .waitForRequest({ status: '4XX' }, { timeoutMs: 10 })
      .catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(/^No request matching \{"status":"4xx"\} arrived/);
  });

  it('says when a request had no body, or one that is not whole JSON', async () => {
    await call(fake, 'GET', 'lists');
    expect(closestLines({ body: { a: 1 } })).toEqual([
      '  #1 GET /marketing/v1/lists -> 200 (getLists): no request body',
    ]);
    await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: {
        authorization: `Basic ${btoa('1234:key-1234')}`,
        'content-type': 'application/json',
      },
      payload: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]),
    });
    expect(fake.requests()[1]!.request.bodyEncoding).toBe('base64');
    expect(closestLines({ method: 'PUT', body: { a: 1 } })[0]).toMatch(
      /^ {2}#2 PUT \/marketing\/v1\/lists\/1\/contacts -> 400 \(addToListByEmail\): a request body that is not whole JSON$/,
    );
    await using small = await makeFake({ journalBodyLimit: 8 });
    await call(small, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'dee@example.com' } });
    const result = receivedRequest(small, { body: { emailAddress: 'dee@example.com' } });
    expect(result.message()).toContain(
      '#1 PUT /marketing/v1/lists/1/contacts -> 200 (addToListByEmail): a request body that is not whole JSON',
    );
  });

  it('orders by fewest differences, then latest first, and shows three', async () => {
    // Against the filter below, #3 differs in its status only; every other in three criteria.
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'content');
    await add({ emailAddress: 'dee@example.com' });
    await call(fake, 'DELETE', 'lists/1/contacts/1');
    await call(fake, 'GET', 'lists');
    const filter: RequestFilter = { method: 'PUT', operation: 'addToListByEmail', status: 404 };
    const lines = closestLines(filter);
    expect(lines.map((line) => line.slice(0, line.indexOf(' ', 3)))).toEqual([
      '  #3',
      '  #5',
      '  #4',
    ]);
    expect(missMessage(filter).split('\n')[1]).toBe('Closest of the 5 recorded:');
  });

  it('says the journal is empty when nothing was recorded', () => {
    expect(missMessage({ method: 'GET' })).toBe(
      'expected the fake to have received a request matching {"method":"GET"}, but it received 0 matching.\nThe journal is empty: the fake received no request under /marketing/.',
    );
  });

  it('a wait that times out names the nearest misses the same way', async () => {
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'content');
    const error = await fake
      .waitForRequest({ operation: 'getContent', status: 404 }, { timeoutMs: 10 })
      .catch((caught: Error) => caught);
    expect((error as Error).message).toBe(
      'No request matching {"status":404,"operation":"getContent"} arrived within 10 ms. Closest of the 2 recorded:\n  #2 GET /marketing/v1/content -> 200 (getContent): status 200 (wanted 404)\n  #1 GET /marketing/v1/lists -> 200 (getLists): status 200 (wanted 404); operation getLists (wanted getContent)',
    );
  });
});
