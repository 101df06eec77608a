import { HarValidator } from '@har-sdk/validator';
import { HTTPSnippet } from 'httpsnippet-lite';
import { describe, expect, it } from 'vitest';
import {
  InvalidOptionError,
  type JournalEntry,
  StateError,
  WaitTimeoutError,
} from '../../../src/index.js';
import { call, KEY, makeFake, useFake } from '../../helpers/fake.js';

const fake = useFake();

const addAnn = (body: unknown = { EmailAddress: 'ann@example.com' }, accept?: string) =>
  call(fake, 'PUT', 'lists/1/contacts', { body, ...(accept ? { accept } : {}) });

/** Everything a client of the control API can read about the journal, as one string. */
async function everythingShared(): Promise<string> {
  const requests = await fake.inject({ url: '/__admin/requests' });
  const har = await fake.inject({ url: '/__admin/requests.har' });
  return [
    JSON.stringify(fake.requests()),
    JSON.stringify(fake.requestsHar()),
    requests.body,
    har.body,
  ].join('\n');
}

describe('whole exchanges in the journal', () => {
  it('keeps the query, redacted headers, the parsed body, the answer, format, operation and duration', async () => {
    await addAnn(
      { EmailAddress: 'ann@example.com', CustomFields: [{ Name: 'City', Value: 'Porto' }] },
      'text/xml',
    );
    const [entry] = fake.requests() as [JournalEntry];
    expect(entry).toMatchObject({
      method: 'PUT',
      path: '/marketing/v1/lists/1/contacts',
      url: 'http://localhost:80/marketing/v1/lists/1/contacts',
      queryString: '',
      query: {},
      serverId: 1234,
      status: 200,
      operation: 'addToListByEmail',
      format: 'xml',
      request: {
        headers: { authorization: 'Basic 1234:<redacted>', accept: 'text/xml' },
        body: { EmailAddress: 'ann@example.com', CustomFields: [{ Name: 'City', Value: 'Porto' }] },
      },
      response: {
        status: 200,
        headers: { 'content-type': 'text/xml; charset=utf-8' },
        body: '<?xml version="1.0" encoding="utf-8"?><ListContact><ContactId>1</ContactId><ListId>1</ListId><ServerId>1234</ServerId></ListContact>',
      },
    });
    expect(entry.request.bodySize).toBe(
      Buffer.byteLength(
        JSON.stringify({
          EmailAddress: 'ann@example.com',
          CustomFields: [{ Name: 'City', Value: 'Porto' }],
        }),
      ),
    );
    expect(entry.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("keeps the query of the vendor's sample client's remove by email, raw and parsed", async () => {
    await call(fake, 'DELETE', 'lists/2/contacts/?emailAddress=ben%40example.com&x=1&x=2');
    const [entry] = fake.requests() as [JournalEntry];
    expect(entry).toMatchObject({
      path: '/marketing/v1/lists/2/contacts/',
      queryString: 'emailAddress=ben%40example.com&x=1&x=2',
      query: { emailAddress: 'ben@example.com', x: ['1', '2'] },
      operation: 'removeFromListByEmail',
      status: 204,
      response: { status: 204 },
    });
    expect(entry.response.body).toBeUndefined();
  });

  it('never shows a key: not in the journal, the control API or HAR, whatever the scheme', async () => {
    await addAnn();
    await call(fake, 'GET', 'lists', {
      auth: `Basic ${Buffer.from(`1234:${KEY}`).toString('base64')}`,
    });
    await call(fake, 'GET', 'lists', { auth: `Bearer ${KEY}` });
    await call(fake, 'GET', 'lists', { auth: `Basic ${Buffer.from(`${KEY}`).toString('base64')}` });
    await call(fake, 'GET', 'lists', { headers: { 'proxy-authorization': `Basic ${KEY}` } });
    const shared = await everythingShared();
    expect(shared).not.toContain(KEY);
    expect(shared).not.toContain(Buffer.from(`1234:${KEY}`).toString('base64'));
    expect(fake.requests().map((entry) => entry.request.headers.authorization)).toEqual([
      'Basic 1234:<redacted>',
      'Basic 1234:<redacted>',
      'Bearer <redacted>',
      'Basic <redacted>',
      'Basic 1234:<redacted>',
    ]);
  });

  it('keeps a body that is not JSON as text, and bytes that are not UTF-8 as base64', async () => {
    expect(
      (
        await call(fake, 'PUT', 'lists/1/contacts', {
          body: '{"emailAddress":',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const binary = Buffer.from([0x7b, 0xff, 0xfe, 0x00, 0x7d]);
    const response = await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/1/contacts',
      headers: {
        authorization: `Basic ${Buffer.from(`1234:${KEY}`).toString('base64')}`,
        'content-type': 'application/json',
      },
      payload: binary,
    });
    expect(response.statusCode).toBe(400);
    const [text, bytes] = fake.requests();
    expect(text?.request).toMatchObject({ body: '{"emailAddress":', bodySize: 16 });
    expect(text?.request.bodyEncoding).toBeUndefined();
    expect(bytes?.request).toMatchObject({
      body: binary.toString('base64'),
      bodyEncoding: 'base64',
      bodySize: 5,
    });
  });

  it('records what a fault sent: the cut-off body of malformed, nothing for reset', async () => {
    fake.faults.add({ kind: 'malformed', times: 1 });
    const cut = await call(fake, 'GET', 'lists');
    fake.faults.add({ kind: 'reset', times: 1 });
    await call(fake, 'GET', 'lists').catch(() => undefined);
    fake.faults.add({ kind: 'unavailable', times: 1 });
    await call(fake, 'GET', 'lists');
    const [malformed, reset, unavailable] = fake.requests();
    expect(malformed).toMatchObject({
      fault: 'malformed',
      status: 200,
      operation: 'getLists',
      response: { body: cut.body },
    });
    // The headers promised the whole body; half of it came.
    const promised = Number(malformed?.response.headers['content-length']);
    expect(promised - 2 * Buffer.byteLength(cut.body)).toBeGreaterThanOrEqual(0);
    expect(promised - 2 * Buffer.byteLength(cut.body)).toBeLessThanOrEqual(1);
    expect(reset).toMatchObject({
      fault: 'reset',
      status: 0,
      response: { status: 0, headers: {} },
    });
    expect(reset?.response.body).toBeUndefined();
    expect(unavailable).toMatchObject({
      fault: 'unavailable',
      status: 503,
      response: { headers: { 'retry-after': '1' } },
    });
    expect(JSON.parse(unavailable?.response.body as string)).toEqual({
      message: 'The service is temporarily unavailable for maintenance. Please try again later.',
    });
  });

  it('keeps the body a client sent into an outage, so a test can check that its retry repeats it', async () => {
    fake.maintenance({ times: 1 });
    const body = {
      emailAddress: 'ann@example.com',
      customFields: [{ Name: 'City', Value: 'Porto' }],
    };
    expect((await addAnn(body)).status).toBe(503);
    expect((await addAnn(body)).status).toBe(200);
    const [outage, retry] = fake.requests({ operation: 'addToListByEmail' });
    expect(outage).toMatchObject({ status: 503, fault: 'unavailable', request: { body } });
    expect(retry?.request.body).toEqual(outage?.request.body);
  });

  it('cuts bodies longer than journalBodyLimit, with a marker and the whole length', async () => {
    await using small = await makeFake({ journalBodyLimit: 40 });
    const name = 'x'.repeat(100);
    await call(small, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'ann@example.com', firstName: name },
    });
    await call(small, 'GET', 'customfields');
    const [put, get] = small.requests();
    const sent = JSON.stringify({ emailAddress: 'ann@example.com', firstName: name });
    expect(put?.request).toMatchObject({
      body: `${sent.slice(0, 40)}…[truncated: ${sent.length} bytes in all]`,
      bodySize: sent.length,
      bodyTruncated: true,
    });
    expect(get?.response.bodyTruncated).toBe(true);
    expect(get?.response.body).toMatch(/…\[truncated: \d+ bytes in all\]$/);
  });

  it.each([-1, 1.5, Number.NaN, '64' as unknown as number])(
    'journalBodyLimit %s is refused with what to fix',
    async (journalBodyLimit) => {
      await expect(makeFake({ journalBodyLimit })).rejects.toThrow(
        /journalBodyLimit must be a whole number of 0 or more/,
      );
    },
  );
});

describe('journal filters', () => {
  async function traffic() {
    await addAnn();
    await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'nope' } });
    await call(fake, 'GET', 'lists');
    fake.faults.add({ kind: 'status', status: 429, times: 1 });
    await addAnn({
      emailAddress: 'ben@example.com',
      customFields: [{ name: 'City', value: 'Rome' }],
    });
  }
  const ids = (entries: JournalEntry[]) => entries.map((entry) => entry.id);

  it('status (number or class), operation, fault, sinceId', async () => {
    await traffic();
    expect(ids(fake.requests({ status: 400 }))).toEqual([2]);
    expect(ids(fake.requests({ status: '4xx' }))).toEqual([2, 4]);
    expect(ids(fake.requests({ status: '2xx', operation: 'addToListByEmail' }))).toEqual([1]);
    expect(ids(fake.requests({ fault: 'status' }))).toEqual([4]);
    expect(ids(fake.requests({ sinceId: 2 }))).toEqual([3, 4]);
  });

  it('body: a partial deep match, property names case-insensitive as the API reads them', async () => {
    await traffic();
    expect(ids(fake.requests({ body: { emailAddress: 'ann@example.com' } }))).toEqual([1]);
    expect(ids(fake.requests({ body: { EMAILADDRESS: 'ben@example.com' } }))).toEqual([4]);
    expect(
      ids(fake.requests({ body: { CustomFields: [{ Name: 'City', Value: 'Rome' }] } })),
    ).toEqual([4]);
    expect(
      ids(fake.requests({ body: { customFields: [{ name: 'City', value: 'Lisbon' }] } })),
    ).toEqual([]);
    expect(ids(fake.requests({ body: { emailAddress: 'ANN@example.com' } }))).toEqual([]);
  });

  it.each([
    [{ status: 'teapot' }, /status must be a status from 100 to 599 such as 404/],
    [{ status: 700 }, /status must be/],
    [
      { operation: 'addByEmail' },
      /operation must be one of getLists, addToListById, addToListByEmail/,
    ],
    [{ fault: 'boom' }, /fault must be one of unavailable/],
    [{ sinceId: -1 }, /sinceId must be a whole number/],
    [{ body: 'ann' }, /body must be an object/],
    [{ verb: 'GET' }, /unknown filter 'verb'/],
    [{ serverId: 'abc' }, /serverId must be a whole number/],
  ])('a bad filter %j throws InvalidOptionError', (filter, message) => {
    expect(() => fake.requests(filter as never)).toThrow(InvalidOptionError);
    expect(() => fake.requests(filter as never)).toThrow(message);
  });

  it('the same filters as query parameters on GET /__admin/requests; a bad one is a 400', async () => {
    await traffic();
    const get = async (query: string) => {
      const response = await fake.inject({ url: `/__admin/requests?${query}` });
      return { status: response.statusCode, json: JSON.parse(response.body) };
    };
    expect(ids((await get('status=4xx')).json)).toEqual([2, 4]);
    expect(ids((await get('status=400&operation=addToListByEmail')).json)).toEqual([2]);
    expect(ids((await get('sinceId=3&fault=status')).json)).toEqual([4]);
    const body = encodeURIComponent(JSON.stringify({ emailaddress: 'ben@example.com' }));
    expect(ids((await get(`body=${body}`)).json)).toEqual([4]);
    for (const bad of [
      'status=teapot',
      'status=99',
      'status=600',
      'status=6xx',
      'operation=nope',
      'body=%7Bnot-json',
      'status=1&status=2',
      'sinceId=-1',
    ]) {
      const response = await get(bad);
      expect(response.status, bad).toBe(400);
      expect(response.json.message, bad).toMatch(/^Bad filter: /);
    }
  });
});

describe('waiting for a request', () => {
  it('resolves with an entry already recorded, or with the first that arrives', async () => {
    await addAnn();
    expect((await fake.waitForRequest({ operation: 'addToListByEmail' })).id).toBe(1);
    const waiting = fake.waitForRequest({ operation: 'getContent' }, { timeoutMs: 2000 });
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'content');
    expect((await waiting).id).toBe(3);
  });

  it('times out with the closest recorded requests and what differs', async () => {
    await addAnn({ emailAddress: 'ann@exmple.com' });
    await call(fake, 'GET', 'lists');
    const error = await fake
      .waitForRequest(
        { method: 'PUT', body: { emailAddress: 'ann@example.com' } },
        { timeoutMs: 50 },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    const { message, closest } = error as WaitTimeoutError;
    expect(message).toContain(
      'No request matching {"method":"PUT","body":{"emailAddress":"ann@example.com"}} arrived within 50 ms.',
    );
    expect(message).toContain(
      '#1 PUT /marketing/v1/lists/1/contacts -> 200 (addToListByEmail): body.emailAddress is "ann@exmple.com" (wanted "ann@example.com")',
    );
    expect(closest.map((miss) => miss.entry.id)).toEqual([1, 2]);
  });

  it('says so when nothing was recorded at all', async () => {
    await expect(fake.waitForRequest({}, { timeoutMs: 10 })).rejects.toThrow(
      /The journal is empty/,
    );
  });

  it.each([-1, 1.5, 10 * 60 * 1000 + 1])('timeoutMs %s is refused', async (timeoutMs) => {
    expect(() => fake.waitForRequest({}, { timeoutMs })).toThrow(InvalidOptionError);
  });

  it('says so, instead of waiting in vain, when the journal is off', async () => {
    await using off = await makeFake({ journalSize: 0 });
    expect(() => off.waitForRequest({})).toThrow(
      'waitForRequest needs the journal: create the fake with a journalSize above 0.',
    );
    expect((await off.inject({ url: '/__admin/requests/wait?timeoutMs=10' })).statusCode).toBe(409);
  });

  it('close() ends a wait instead of leaving it hanging', async () => {
    const other = await makeFake();
    const waiting = other.waitForRequest({ operation: 'getLists' }, { timeoutMs: 60_000 });
    await other.close();
    await expect(waiting).rejects.toBeInstanceOf(StateError);
  });

  it('GET /__admin/requests/wait: a long poll for other languages', async () => {
    const waiting = fake.inject({
      url: '/__admin/requests/wait?operation=getContent&timeoutMs=2000',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await call(fake, 'GET', 'content');
    const found = await waiting;
    expect(found.statusCode).toBe(200);
    expect(JSON.parse(found.body)).toMatchObject({ id: 1, operation: 'getContent' });

    const missed = await fake.inject({ url: '/__admin/requests/wait?status=5xx&timeoutMs=30' });
    expect(missed.statusCode).toBe(404);
    expect(JSON.parse(missed.body).message).toMatch(
      /arrived within 30 ms\. Closest of the 1 recorded:\n {2}#1 GET/,
    );
    for (const bad of ['timeoutMs=-1', 'timeoutMs=60001', 'timeoutMs=soon']) {
      const response = await fake.inject({ url: `/__admin/requests/wait?${bad}` });
      expect(response.statusCode, bad).toBe(400);
    }
  });
});

describe('HAR', () => {
  it('is valid HAR 1.2, readable by a HAR consumer, over the handle and the control API alike', async () => {
    await addAnn({ emailAddress: 'ann@example.com' });
    await call(fake, 'DELETE', 'lists/1/contacts?emailAddress=ann%40example.com');
    fake.faults.add({ kind: 'reset', times: 1 });
    await call(fake, 'GET', 'lists').catch(() => undefined);
    const har = fake.requestsHar();
    expect(await new HarValidator().verify(har as never)).toEqual([]);
    const overHttp = await fake.inject({ url: '/__admin/requests.har' });
    expect(JSON.parse(overHttp.body)).toEqual(har);
    expect(
      har.log.entries.map((entry) => [entry._id, entry._operation, entry.response.status]),
    ).toEqual([
      [1, 'addToListByEmail', 200],
      [2, 'removeFromListByEmail', 204],
      [3, 'getLists', 0],
    ]);
    // httpsnippet turns a HAR request into code: the recorded request comes back as curl.
    const curl = String(
      await new HTTPSnippet(har.log.entries[0]!.request as never).convert('shell', 'curl'),
    );
    expect(curl).toContain('--request PUT');
    expect(curl).toMatch(/--url http:\/\/localhost(:80)?\/marketing\/v1\/lists\/1\/contacts/);
    expect(curl).toContain('ann@example.com');
    expect(curl).toContain('Basic 1234:<redacted>');
    const query = har.log.entries[1]!.request.queryString;
    expect(query).toEqual([{ name: 'emailAddress', value: 'ann@example.com' }]);
  });

  it('filters like the journal', async () => {
    await addAnn();
    await call(fake, 'GET', 'lists');
    expect(
      fake.requestsHar({ operation: 'getLists' }).log.entries.map((entry) => entry._id),
    ).toEqual([2]);
    const response = await fake.inject({ url: '/__admin/requests.har?operation=getLists' });
    expect(JSON.parse(response.body).log.entries).toHaveLength(1);
  });
});
