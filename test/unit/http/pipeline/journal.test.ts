import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Core } from '../../../../src/core.js';
import { journalHooks, RECORD_FAILED } from '../../../../src/http/pipeline/journal.js';
import { Journal } from '../../../../src/journal/journal.js';
import { Redactor } from '../../../../src/redaction/redact.js';

// The journal's pipeline hooks on
// stand-in requests, each fact of the recorded entry checked, the failed recording included.

const ARRIVED = Date.UTC(2026, 10, 22, 12, 0, 0);
/** The real clock (`performance.now()`) when the stand-ins are recorded; they arrived 7 ms before. */
const RECORDED_AT = 1007;

beforeEach(() => {
  vi.spyOn(performance, 'now').mockReturnValue(RECORDED_AT);
});
afterEach(() => {
  vi.restoreAllMocks();
});

function coreWith(redactor: Pick<Redactor, 'record' | 'body'>, size = 10) {
  const journal = new Journal(size, 1024);
  const core = { journal, now: () => ARRIVED, redactor } as unknown as Core;
  return { journal, hooks: journalHooks(core) };
}
const plainRedactor = () => new Redactor({ revision: () => 0, secrets: () => [] }, 1024);

function request(parts: Record<string, unknown> = {}) {
  const warn = vi.fn();
  const value = {
    journalPending: true,
    arrived: ARRIVED,
    started: RECORDED_AT - 7,
    protocol: 'http',
    method: 'PUT',
    url: '/marketing/v1/lists/3/contacts?a=1',
    query: { a: '1' },
    headers: { host: 'fake.test', accept: 'application/xml' },
    tenant: { serverId: 1234 },
    operation: undefined,
    fault: null,
    rawBody: null,
    log: { warn },
    raw: { headers: {} },
    ...parts,
  };
  return { request: value as unknown as FastifyRequest, warn };
}
function reply(parts: Record<string, unknown> = {}) {
  return {
    statusCode: 201,
    raw: {},
    getHeaders: () => ({ 'content-type': 'application/json', 'x-n': 3 }),
    ...parts,
  } as unknown as FastifyReply;
}

describe('arrive', () => {
  it('marks an API request pending with its arrival time, when the journal is on', () => {
    const { hooks } = coreWith(plainRedactor());
    const { request: api } = request({ journalPending: false, arrived: 0, started: 0 });
    const done = vi.fn();
    hooks.arrive(api, reply(), done);
    expect(api.journalPending).toBe(true);
    expect(api.arrived).toBe(ARRIVED);
    expect(api.started).toBe(RECORDED_AT);
    expect(done).toHaveBeenCalledOnce();

    const { request: control } = request({ journalPending: false, url: '/__admin/state' });
    hooks.arrive(control, reply(), done);
    expect(control.journalPending).toBe(false);
  });

  it('marks nothing when the journal keeps nothing', () => {
    const { hooks } = coreWith(plainRedactor(), 0);
    const { request: api } = request({ journalPending: false, arrived: 0, started: 0 });
    const done = vi.fn();
    hooks.arrive(api, reply(), done);
    expect(api.journalPending).toBe(false);
    expect(api.arrived).toBe(0);
    expect(api.started).toBe(0);
    expect(done).toHaveBeenCalledOnce();
  });
});

describe('answered', () => {
  it('records a pending exchange once, with every fact', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    const { request: one } = request({
      rawBody: Buffer.from('{"emailAddress":"a@b.com"}'),
      fault: 'delay',
      operation: { operationId: 'addToListByEmail', path: '/x' },
    });
    hooks.answered(one, reply(), '{"ok":true}');
    expect(one.journalPending).toBe(false);
    hooks.answered(one, reply(), '{"ok":true}');
    const entries = journal.entries();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual({
      id: 1,
      time: '2026-11-22T12:00:00.000Z',
      method: 'PUT',
      path: '/marketing/v1/lists/3/contacts',
      url: 'http://fake.test/marketing/v1/lists/3/contacts?a=1',
      queryString: 'a=1',
      query: { a: '1' },
      serverId: 1234,
      authenticated: true,
      status: 201,
      fault: 'delay',
      operation: 'addToListByEmail',
      format: 'xml',
      durationMs: 7,
      request: {
        headers: { host: 'fake.test', accept: 'application/xml' },
        body: { emailAddress: 'a@b.com' },
        bodySize: 26,
      },
      response: {
        status: 201,
        headers: { 'content-type': 'application/json', 'x-n': '3' },
        body: '{"ok":true}',
        bodySize: 11,
      },
    });
  });

  it('reads the header block Node wrote when there is one', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    const { request: one } = request();
    hooks.answered(
      one,
      reply({ raw: { _header: 'HTTP/1.1 201 Created\r\nX-From: block\r\n\r\n' } }),
      undefined,
    );
    expect(journal.entries()[0]!.response.headers).toEqual({ 'x-from': 'block' });
  });

  it('names the operation by the route when routing did not run, and none for an unknown path', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    hooks.answered(request().request, reply(), undefined);
    hooks.answered(request({ url: '/marketing/v1/nothing/here' }).request, reply(), undefined);
    const [known, unknown] = journal.entries();
    expect(known!.operation).toBe('addToListByEmail');
    expect(unknown).not.toHaveProperty('operation');
  });

  it('records nothing for a request that is not pending', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    hooks.answered(request({ journalPending: false }).request, reply(), '{"ok":true}');
    hooks.recordNow(request({ journalPending: false }).request, reply(), 0);
    expect(journal.entries()).toEqual([]);
  });

  it('keeps the redacted query, and the parsed one when nothing was redacted', () => {
    const redactor = new Redactor({ revision: () => 1, secrets: () => ['Secr3t-Key'] }, 1024);
    const { hooks, journal } = coreWith(redactor);
    hooks.answered(
      request({ url: '/marketing/v1/lists?k=Secr3t-Key', query: { k: 'Secr3t-Key' } }).request,
      reply(),
      undefined,
    );
    const [entry] = journal.entries();
    expect(entry!.query).toEqual({ k: '<redacted>' });
    expect(entry!.url).toBe('http://fake.test/marketing/v1/lists?k=<redacted>');
  });
});

describe('recordNow', () => {
  it('records what a fault sent, or nothing at all', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    const { request: one } = request({ fault: 'malformed' });
    hooks.recordNow(one, reply(), 200, { headers: { 'content-type': 'x/y' }, body: '{"cut' });
    hooks.recordNow(request({ fault: 'reset' }).request, reply(), 0);
    const [sent, none] = journal.entries();
    expect(sent!.status).toBe(200);
    expect(sent!.response).toEqual({
      status: 200,
      headers: { 'content-type': 'x/y' },
      body: '{"cut',
      bodySize: 5,
    });
    expect(none!.response).toEqual({ status: 0, headers: {} });
    expect(none!.fault).toBe('reset');
  });
});

describe('recordHeld', () => {
  it('records a held request at once, and its duration when its connection ends', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    const raw = new EventEmitter();
    hooks.recordHeld(request({ fault: 'no-response' }).request, reply({ raw }));
    const [held] = journal.entries();
    expect(held!.status).toBe(0);
    expect(held!.durationMs).toBe(7);
    vi.mocked(performance.now).mockReturnValue(RECORDED_AT + 500);
    raw.emit('close');
    expect(journal.entries()[0]!.durationMs).toBe(507);
  });

  it('records nothing for a request that is not pending', () => {
    const { hooks, journal } = coreWith(plainRedactor());
    const raw = new EventEmitter();
    hooks.recordHeld(request({ journalPending: false }).request, reply({ raw }));
    expect(journal.entries()).toEqual([]);
    expect(raw.listenerCount('close')).toBe(0);
  });
});

describe('a recording that fails', () => {
  const failing = {
    record: () => {
      throw new TypeError('a bug');
    },
    body: (body: unknown) => body,
  } as unknown as Redactor;

  it('keeps the facts that hold no secret, the route template for the path, and logs the error type', () => {
    const { hooks, journal } = coreWith(failing);
    const { request: one, warn } = request({ fault: 'status', started: RECORDED_AT - 12 });
    hooks.answered(one, reply({ statusCode: 503 }), undefined);
    expect(journal.entries()).toEqual([
      {
        id: 1,
        time: '2026-11-22T12:00:00.000Z',
        method: 'PUT',
        path: '/marketing/v1/lists/:listId/contacts',
        url: 'http://localhost/marketing/v1/lists/:listId/contacts',
        queryString: '',
        query: {},
        serverId: 1234,
        authenticated: true,
        status: 503,
        fault: 'status',
        operation: 'addToListByEmail',
        format: 'json',
        durationMs: 12,
        note: RECORD_FAILED,
        request: { headers: {} },
        response: { status: 503, headers: {} },
      },
    ]);
    expect(warn).toHaveBeenCalledWith(
      { err: { type: 'TypeError' } },
      'the journal could not record this exchange whole',
    );
  });

  it('uses the route already chosen, and /marketing/ for a path no route knows', () => {
    const { hooks, journal } = coreWith(failing);
    hooks.answered(
      request({ operation: { path: '/chosen/:id', operationId: 'chosenOne' } }).request,
      reply(),
      undefined,
    );
    hooks.answered(
      request({ url: '/marketing/v1/nothing?key=x', tenant: undefined }).request,
      reply(),
      undefined,
    );
    const [chosen, unknown] = journal.entries();
    expect(chosen).toMatchObject({ path: '/chosen/:id', operation: 'chosenOne' });
    expect(unknown!.path).toBe('/marketing/');
    expect(unknown).not.toHaveProperty('operation');
    expect(unknown).not.toHaveProperty('serverId');
    expect(unknown).not.toHaveProperty('fault');
  });
});

describe('the query', () => {
  it('is redacted only for a URL that has one (no query work on a request without)', () => {
    const redactor = plainRedactor();
    const query = vi.spyOn(redactor, 'query');
    const { hooks, journal } = coreWith(redactor);
    hooks.answered(request({ url: '/marketing/v1/lists', query: {} }).request, reply(), undefined);
    expect(query).not.toHaveBeenCalled();
    hooks.answered(request().request, reply(), undefined);
    expect(query).toHaveBeenCalledOnce();
    expect(query).toHaveBeenCalledWith({ a: '1' });
    expect(journal.entries().map((entry) => entry.queryString)).toEqual(['', 'a=1']);
  });
});

describe('a recording that throws what is not an Error', () => {
  it('still keeps the minimal entry, and logs no type', () => {
    const throwing = {
      url: () => {
        // A bug can throw anything; the log reads the thrown value's name only if it has one.
        throw undefined;
      },
    } as unknown as Redactor;
    const { hooks, journal } = coreWith(throwing);
    const { request: one, warn } = request();
    hooks.answered(one, reply(), undefined);
    expect(journal.entries()).toHaveLength(1);
    expect(journal.entries()[0]!.note).toBe(RECORD_FAILED);
    expect(warn).toHaveBeenCalledWith(
      { err: { type: undefined } },
      'the journal could not record this exchange whole',
    );
  });
});
