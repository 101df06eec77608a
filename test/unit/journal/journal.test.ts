import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { StateError, TooManyWaitsError } from '../../../src/domain/errors.js';
import {
  Journal,
  type JournalRecord,
  journalEntryOf,
  MAX_WAITS,
} from '../../../src/journal/journal.js';
import { WaitTimeoutError } from '../../../src/journal/wait-timeout-error.js';
import { listsRecord } from '../../helpers/journal-record.js';

// The journal's ring buffer, how an
// entry is built from what was recorded, and the waits, on the Journal class itself.

const facts = listsRecord;

const entryOf = (
  parts: Partial<JournalRecord> = {},
  request?: string | Buffer,
  response?: string | Buffer,
  limit?: number,
) => journalEntryOf(5, facts(parts), request, response, limit);

describe('the ring buffer', () => {
  it('keeps nothing with capacity 0', () => {
    const journal = new Journal(0, 100);
    expect(journal.enabled).toBe(false);
    journal.record(facts());
    expect(journal.entries()).toEqual([]);
  });

  it('keeps the last entries, oldest first, with ids that keep counting', () => {
    const journal = new Journal(2, 100);
    expect(journal.enabled).toBe(true);
    journal.record(facts({ url: '/a' }));
    expect(journal.entries().map((e) => [e.id, e.path])).toEqual([[1, '/a']]);
    journal.record(facts({ url: '/b' }));
    journal.record(facts({ url: '/c' }));
    expect(journal.entries().map((e) => [e.id, e.path])).toEqual([
      [2, '/b'],
      [3, '/c'],
    ]);
    journal.record(facts({ url: '/d' }));
    expect(journal.entries().map((e) => e.id)).toEqual([3, 4]);
    journal.record(facts({ url: '/e' }));
    expect(journal.entries().map((e) => e.id)).toEqual([4, 5]);
  });

  it('is empty once cleared, and fills from the start again', () => {
    const journal = new Journal(2, 100);
    journal.record(facts({ url: '/a' }));
    journal.record(facts({ url: '/b' }));
    journal.record(facts({ url: '/c' }));
    journal.clear();
    expect(journal.entries()).toEqual([]);
    journal.record(facts({ url: '/d' }));
    expect(journal.entries().map((e) => e.path)).toEqual(['/d']);
    journal.record(facts({ url: '/e' }));
    journal.record(facts({ url: '/f' }));
    expect(journal.entries().map((e) => e.path)).toEqual(['/e', '/f']);
  });

  it('filters', () => {
    const journal = new Journal(5, 100);
    journal.record(facts({ method: 'GET' }));
    journal.record(facts({ method: 'PUT' }));
    expect(journal.entries({ method: 'PUT' }).map((e) => e.id)).toEqual([2]);
    expect([...journal.select()].map((e) => e.id)).toEqual([1, 2]);
  });

  it('filters and waits by path without the query string', async () => {
    const journal = new Journal(5, 100);
    journal.record(facts({ url: '/marketing/v1/lists?count=2' }));
    journal.record(facts({ url: '/marketing/v1/content?lists=1' }));
    expect(journal.entries({ path: '/lists' }).map((e) => e.id)).toEqual([1]);
    await expect(journal.waitFor({ path: '/content' }, 1000)).resolves.toMatchObject({ id: 2 });
    const waiting = journal.waitFor({ path: '/customfields' }, 5000);
    journal.record(facts({ url: '/marketing/v1/customfields?x=/y' }));
    await expect(waiting).resolves.toMatchObject({ id: 3, path: '/marketing/v1/customfields' });
  });
});

describe('an entry', () => {
  it('has the facts of the exchange', () => {
    const entry = entryOf({
      url: '/marketing/v1/lists?a=1&a=2&b=x',
      method: 'PUT',
      status: 201,
      format: 'xml',
      durationMs: 9,
      protocol: 'https',
    });
    expect(entry).toEqual({
      id: 5,
      time: '2026-11-22T12:00:00.000Z',
      method: 'PUT',
      path: '/marketing/v1/lists',
      url: 'https://fake.test/marketing/v1/lists?a=1&a=2&b=x',
      queryString: 'a=1&a=2&b=x',
      query: { a: ['1', '2'], b: 'x' },
      authenticated: false,
      status: 201,
      format: 'xml',
      durationMs: 9,
      request: { headers: { host: 'fake.test' } },
      response: { status: 201, headers: {} },
    });
  });

  it('has no query without one, a host of localhost without Host, and the optional facts when set', () => {
    const entry = entryOf({
      requestHeaders: { 'content-length': 5 as unknown as string, skipped: undefined },
      serverId: 1234,
      fault: 'delay',
      operation: 'getLists',
      note: 'partial',
    });
    expect(entry.queryString).toBe('');
    expect(entry.query).toEqual({});
    expect(entry.url).toBe('http://localhost/marketing/v1/lists');
    expect(entry.request.headers).toEqual({ 'content-length': '5' });
    expect(entry.serverId).toBe(1234);
    expect(entry.fault).toBe('delay');
    expect(entry.operation).toBe('getLists');
    expect(entry.note).toBe('partial');
    const bare = entryOf();
    for (const key of ['serverId', 'fault', 'operation', 'note']) {
      expect(bare).not.toHaveProperty(key);
    }
  });

  it('shows a redacted query given with the record instead of the URL', () => {
    const entry = entryOf({ url: '/marketing/v1/lists?key=secret', query: { key: '<redacted>' } });
    expect(entry.query).toEqual({ key: '<redacted>' });
  });

  it('reads a header block as Node wrote it: names lower-cased, repeats as arrays', () => {
    const entry = entryOf({
      responseHeaders:
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nSet-Cookie: a\r\nset-cookie: b\r\nSET-COOKIE:  c \r\nnocolon\r\n: empty\r\n\r\n',
    });
    expect(entry.response.headers).toEqual({
      'content-type': 'application/json',
      'set-cookie': ['a', 'b', 'c'],
    });
  });

  it('never reads the status line as a header, even with a colon in its reason', () => {
    const entry = entryOf({
      responseHeaders: 'HTTP/1.1 299 Note: kept\r\nX-A: 1\r\nX-Spaced : 2\r\n\r\n',
    });
    expect(entry.response.headers).toEqual({ 'x-a': '1', 'x-spaced': '2' });
  });

  it('leaves out a header whose value is undefined, name and all', () => {
    const entry = entryOf({ requestHeaders: { host: 'fake.test', 'x-gone': undefined } });
    expect(Object.keys(entry.request.headers)).toEqual(['host']);
  });

  it('reads a header object, numbers as text', () => {
    const entry = entryOf({ responseHeaders: { 'content-length': 12, 'x-a': ['1', '2'] } });
    expect(entry.response.headers).toEqual({ 'content-length': '12', 'x-a': ['1', '2'] });
  });
});

describe('a body in an entry', () => {
  it('shows a JSON request body parsed, a response body as text', () => {
    const entry = entryOf({}, Buffer.from('{"a":1}'), '{"b":2}');
    expect(entry.request).toMatchObject({ body: { a: 1 }, bodySize: 7 });
    expect(entry.response).toMatchObject({ body: '{"b":2}', bodySize: 7 });
  });

  it('shows a request body that is not JSON as text, with its size in bytes', () => {
    const entry = entryOf({}, Buffer.from('é not json'));
    expect(entry.request.body).toBe('é not json');
    expect(entry.request.bodySize).toBe(11);
    expect(entry.request).not.toHaveProperty('bodyTruncated');
    expect(entry.request).not.toHaveProperty('bodyEncoding');
    expect(entryOf({}, undefined, 'é').response.bodySize).toBe(2);
  });

  it('shows bytes that are not UTF-8 as base64', () => {
    const entry = entryOf({}, Buffer.from([0xff, 0xfe]), Buffer.from([0xc3]));
    expect(entry.request).toEqual({
      headers: { host: 'fake.test' },
      body: '//4=',
      bodyEncoding: 'base64',
      bodySize: 2,
    });
    expect(entry.response.body).toBe('ww==');
    expect(entry.response.bodyEncoding).toBe('base64');
  });

  it('marks a body cut at the limit, as text or base64', () => {
    const text = entryOf({}, Buffer.from('{"abcdefgh":1}'), 'abcdefgh', 4);
    expect(text.request).toMatchObject({
      body: '{"ab…[truncated: 14 bytes in all]',
      bodySize: 14,
      bodyTruncated: true,
    });
    expect(text.response).toMatchObject({
      body: 'abcd…[truncated: 8 bytes in all]',
      bodySize: 8,
      bodyTruncated: true,
    });
    const binary = entryOf({}, Buffer.from([0xff, 0xfe, 0xfd, 0xfc]), undefined, 2);
    expect(binary.request).toEqual({
      headers: { host: 'fake.test' },
      body: '//4=',
      bodyEncoding: 'base64',
      bodySize: 4,
      bodyTruncated: true,
    });
  });

  it('shows JSON nested too deep as text, with a note', () => {
    const deep = `${'['.repeat(101)}${']'.repeat(101)}`;
    const entry = entryOf({}, Buffer.from(deep));
    expect(entry.request).toMatchObject({
      body: deep,
      bodySize: 202,
      bodyNote: 'JSON nested deeper than 100 levels: shown as text.',
    });
    const shallow = `${'['.repeat(100)}${']'.repeat(100)}`;
    expect(entryOf({}, Buffer.from(shallow)).request).not.toHaveProperty('bodyNote');
    // A response body is never parsed, so never noted.
    expect(entryOf({}, undefined, deep).response).not.toHaveProperty('bodyNote');
  });

  it('has no body fields for no body', () => {
    expect(entryOf().request).toEqual({ headers: { host: 'fake.test' } });
  });
});

describe('waits', () => {
  it('answer at once with an entry already recorded', async () => {
    const journal = new Journal(5, 100);
    journal.record(facts({ method: 'PUT' }));
    await expect(journal.waitFor({ method: 'PUT' }, 1000)).resolves.toMatchObject({ id: 1 });
  });

  it('are answered by the first new entry that matches, not by others', async () => {
    const journal = new Journal(5, 100);
    const waiting = journal.waitFor({ method: 'PUT', status: 201 }, 5000);
    journal.record(facts({ method: 'GET' }));
    journal.record(facts({ method: 'PUT', status: 200 }));
    journal.record(facts({ method: 'PUT', status: 201 }));
    await expect(waiting).resolves.toMatchObject({ id: 3 });
  });

  it('time out saying what was asked, freeing their place', async () => {
    const journal = new Journal(5, 100);
    journal.record(facts({ method: 'GET' }));
    const error = await journal.waitFor({ method: 'PUT' }, 5).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as Error).message).toMatch(/^No request matching .* arrived within 5 ms\. /);
    expect((error as WaitTimeoutError).closest.length).toBe(1);
  });

  it('are capped, and an aborted wait frees its place', async () => {
    const journal = new Journal(5, 100);
    const controllers = Array.from({ length: MAX_WAITS }, () => new AbortController());
    const waits = controllers.map((controller) =>
      journal.waitFor({ method: 'PUT' }, 60_000, controller.signal).catch((e: unknown) => e),
    );
    await expect(journal.waitFor({ method: 'PUT' }, 60_000)).rejects.toBeInstanceOf(
      TooManyWaitsError,
    );
    controllers[0]!.abort(new Error('gone'));
    expect(await waits[0]).toMatchObject({ message: 'gone' });
    // One place free again: one more wait is taken, and the next refused.
    const taken = journal.waitFor({ method: 'PUT' }, 60_000);
    await expect(journal.waitFor({ method: 'PUT' }, 60_000)).rejects.toBeInstanceOf(
      TooManyWaitsError,
    );
    journal.record(facts({ method: 'PUT' }));
    await expect(taken).resolves.toMatchObject({ id: 1 });
    for (const wait of waits.slice(1)) expect(await wait).toMatchObject({ id: 1 });
  });

  it('leave no listener on the signal of their caller once they end, however they end', async () => {
    // One long-lived signal for many waits (a test's own): listeners must not pile up on it.
    const journal = new Journal(5, 100);
    const { signal } = new AbortController();
    const answered = journal.waitFor({ method: 'PUT' }, 60_000, signal);
    expect(getEventListeners(signal, 'abort')).toHaveLength(1);
    journal.record(facts({ method: 'PUT' }));
    await answered;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await journal.waitFor({ method: 'POST' }, 5, signal).catch(() => undefined);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    const cancelled = journal.waitFor({ method: 'POST' }, 60_000, signal).catch(() => undefined);
    journal.cancelWaits();
    await cancelled;
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });

  it('refuse an already aborted signal', async () => {
    const journal = new Journal(5, 100);
    const controller = new AbortController();
    controller.abort(new Error('already gone'));
    await expect(journal.waitFor({ method: 'PUT' }, 1000, controller.signal)).rejects.toThrow(
      'already gone',
    );
  });

  it('all end when the fake closes', async () => {
    const journal = new Journal(5, 100);
    const one = journal.waitFor({ method: 'PUT' }, 60_000).catch((e: unknown) => e);
    const two = journal.waitFor({ method: 'GET' }, 60_000).catch((e: unknown) => e);
    journal.cancelWaits();
    for (const error of [await one, await two]) {
      expect(error).toBeInstanceOf(StateError);
      expect((error as Error).message).toBe('The fake was closed while waiting for a request.');
    }
    // Their places are free: a new wait is answered by a new entry.
    const again = journal.waitFor({ method: 'PUT' }, 60_000);
    journal.record(facts({ method: 'PUT' }));
    await expect(again).resolves.toMatchObject({ id: 1 });
  });
});
