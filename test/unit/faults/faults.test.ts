import { describe, expect, it } from 'vitest';
import { FaultRuleError } from '../../../src/domain/errors.js';
import { parseFaultRule } from '../../../src/faults/fault-rule.js';
import { FaultSet } from '../../../src/faults/faults.js';
import { PendingRequests } from '../../../src/faults/pending.js';
import { Journal } from '../../../src/journal/journal.js';
import { apiPath, compileMatch } from '../../../src/match/request-match.js';

const request = (method: string, path: string, serverId?: number) => ({ method, path, serverId });

describe('parseFaultRule', () => {
  it.each([
    [{ kind: 'unavailable' }],
    [{ kind: 'no-response', match: { path: '/lists/**' } }],
    [{ kind: 'reset', times: 2 }],
    [{ kind: 'delay', delayMs: 0 }],
    [{ kind: 'status', status: 429, probability: 0.5, seed: 7 }],
    [{ kind: 'malformed', durationMs: 1000, match: { method: 'get', serverId: 1234 } }],
    [{ kind: 'reset', durationMs: 2 ** 31 - 1, times: Number.MAX_SAFE_INTEGER }],
    [{ kind: 'delay', delayMs: 600_000, durationMs: 1 }],
  ])('accepts %j', (rule) => {
    expect(() => parseFaultRule(rule)).not.toThrow();
  });

  it('normalizes the method to upper case', () => {
    expect(parseFaultRule({ kind: 'reset', match: { method: 'put' } }).match?.method).toBe('PUT');
  });

  it.each([
    [null, 'must be an object'],
    [{}, 'kind must be one of unavailable, no-response, reset, delay, status, malformed'],
    [{ kind: 'explode' }, 'kind must be one of'],
    [{ kind: 'reset', extra: 1 }, 'extra is not a rule field'],
    [{ kind: 'reset', times: 0 }, 'times must be a whole number from 1 to 2^53 - 1; got number 0'],
    [{ kind: 'reset', times: 1.5 }, 'times must be'],
    [{ kind: 'reset', durationMs: -5 }, 'durationMs must be'],
    [{ kind: 'reset', durationMs: Number.POSITIVE_INFINITY }, 'durationMs must be'],
    [
      { kind: 'reset', durationMs: 1e20 },
      'durationMs must be a whole number of milliseconds from 1 to 2147483647 (about 24.8 days); got number 100000000000000000000.',
    ],
    [{ kind: 'reset', durationMs: 2 ** 31 }, 'durationMs must be'],
    [{ kind: 'reset', durationMs: 0 }, 'durationMs must be'],
    [{ kind: 'reset', durationMs: 0.5 }, 'durationMs must be'],
    [{ kind: 'reset', durationMs: '1000' }, 'got the string "1000"'],
    [{ kind: 'reset', times: 2 ** 53 }, 'times must be'],
    [{ kind: 'reset', probability: Number.NaN }, 'probability must be'],
    [{ kind: 'reset', seed: 2 ** 53 }, 'seed must be a whole number'],
    [{ kind: 'delay', delayMs: 600_001 }, 'kind "delay" needs delayMs'],
    [{ kind: 'reset', probability: 1.5 }, 'probability must be a number from 0 to 1'],
    [{ kind: 'reset', probability: '0.5' }, 'probability must be'],
    [{ kind: 'reset', seed: 'abc' }, 'seed must be a whole number'],
    [{ kind: 'status' }, 'kind "status" needs status'],
    [{ kind: 'status', status: 600 }, 'kind "status" needs status'],
    [{ kind: 'reset', status: 500 }, 'status only applies to kind "status"'],
    [{ kind: 'delay' }, 'kind "delay" needs delayMs'],
    [{ kind: 'delay', delayMs: -1 }, 'kind "delay" needs delayMs'],
    [{ kind: 'reset', delayMs: 10 }, 'delayMs only applies to kind "delay"'],
    [{ kind: 'reset', match: [] }, 'match must be an object'],
    [{ kind: 'reset', match: { url: '/x' } }, 'match.url is not a rule field'],
    [{ kind: 'reset', match: { path: 'lists' } }, 'match.path must be a glob that starts with "/"'],
    [{ kind: 'reset', match: { method: 'GE T' } }, 'match.method must be an HTTP method'],
    [{ kind: 'reset', match: { serverId: '1234' } }, 'match.serverId must be a whole number'],
  ])('rejects %j: %s', (rule, message) => {
    expect(() => parseFaultRule(rule)).toThrow(FaultRuleError);
    expect(() => parseFaultRule(rule)).toThrow(message);
  });
});

describe('parseFaultRule from TypeScript', () => {
  it('describes a BigInt without throwing something else', () => {
    expect(() => parseFaultRule({ kind: 10n })).toThrow(FaultRuleError);
    expect(() => parseFaultRule({ kind: 'reset', times: 10n })).toThrow('got bigint 10');
  });
});

describe('request matching', () => {
  it('strips /marketing/v1 and /marketing/beta', () => {
    expect(apiPath('/marketing/v1/lists')).toBe('/lists');
    expect(apiPath('/marketing/beta/contacts/unsubscribe')).toBe('/contacts/unsubscribe');
    expect(apiPath('/marketing/v1')).toBe('/');
    expect(apiPath('/marketing/v12/lists')).toBe('/marketing/v12/lists');
  });

  it.each([
    [{ path: '/lists/*/contacts' }, request('PUT', '/marketing/v1/lists/3/contacts'), true],
    [{ path: '/lists/*/contacts' }, request('PUT', '/marketing/v1/lists/3/contacts/'), true],
    [{ path: '/lists/*/contacts' }, request('PUT', '/marketing/v1/lists/3/contacts/4'), false],
    [{ path: '/lists/**' }, request('PUT', '/marketing/v1/lists/3/contacts/4'), true],
    [
      { path: '/contacts/unsubscribe*' },
      request('POST', '/marketing/beta/contacts/unsubscribe'),
      true,
    ],
    [{ path: '/marketing/beta/**' }, request('POST', '/marketing/v1/contacts/unsubscribe'), false],
    [{ path: '/marketing/beta/**' }, request('POST', '/marketing/beta/contacts/unsubscribe'), true],
    [{ method: 'PUT' }, request('GET', '/marketing/v1/lists'), false],
    [{ method: 'GET', serverId: 1234 }, request('GET', '/marketing/v1/lists', 1234), true],
    [{ serverId: 1234 }, request('GET', '/marketing/v1/lists', 5678), false],
    [{ serverId: 1234 }, request('GET', '/marketing/v1/lists'), false],
    [undefined, request('DELETE', '/marketing/v1/anything'), true],
  ])('%j ~ %j -> %s', (match, facts, expected) => {
    expect(compileMatch(match)(facts)).toBe(expected);
  });
});

describe('FaultSet', () => {
  it('the first rule added that matches wins', () => {
    const faults = new FaultSet(() => 0, new PendingRequests());
    faults.add({ kind: 'status', status: 500, match: { method: 'PUT' } });
    faults.add({ kind: 'unavailable' });
    expect(faults.decide(request('PUT', '/marketing/v1/lists/1/contacts'))?.rule.kind).toBe(
      'status',
    );
    expect(faults.decide(request('GET', '/marketing/v1/lists'))?.rule.kind).toBe('unavailable');
  });

  it('times: answers that many, then the rule removes itself', () => {
    const faults = new FaultSet(() => 0, new PendingRequests());
    faults.add({ kind: 'reset', times: 2 });
    expect(faults.decide(request('GET', '/x'))).toBeDefined();
    expect(faults.list()).toMatchObject([{ kind: 'reset', hits: 1 }]);
    expect(faults.decide(request('GET', '/x'))).toBeDefined();
    expect(faults.decide(request('GET', '/x'))).toBeUndefined();
    expect(faults.list()).toEqual([]);
  });

  it('durationMs follows the fake clock', () => {
    let now = 1_000;
    const faults = new FaultSet(() => now, new PendingRequests());
    faults.add({ kind: 'unavailable', durationMs: 5_000 });
    expect(faults.list()[0]?.expiresAt).toBe(new Date(6_000).toISOString());
    now = 3_500;
    expect(faults.decide(request('GET', '/x'))?.retryAfterSeconds).toBe(3);
    now = 5_999;
    expect(faults.decide(request('GET', '/x'))).toBeDefined();
    now = 6_000;
    expect(faults.decide(request('GET', '/x'))).toBeUndefined();
    expect(faults.empty).toBe(true);
  });

  it('probability: the same seed gives the same sequence of hits', () => {
    const hits = (seed: number) => {
      const faults = new FaultSet(() => 0, new PendingRequests());
      faults.add({ kind: 'reset', probability: 0.3, seed });
      return Array.from({ length: 200 }, () => (faults.decide(request('GET', '/x')) ? 1 : 0)).join(
        '',
      );
    };
    expect(hits(42)).toBe(hits(42));
    expect(hits(42)).not.toBe(hits(43));
    const share = [...hits(42)].filter((hit) => hit === '1').length / 200;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });

  it('probability 0 never answers, 1 always does', () => {
    const faults = new FaultSet(() => 0, new PendingRequests());
    faults.add({ kind: 'reset', probability: 0 });
    expect(faults.decide(request('GET', '/x'))).toBeUndefined();
    faults.add({ kind: 'unavailable', probability: 1 });
    expect(faults.decide(request('GET', '/x'))?.rule.kind).toBe('unavailable');
  });

  it('a bad rule throws and adds nothing', () => {
    const faults = new FaultSet(() => 0, new PendingRequests());
    expect(() => faults.add({ kind: 'status' })).toThrow(FaultRuleError);
    expect(faults.list()).toEqual([]);
  });

  it('removing a rule releases the requests it holds; clear releases all', () => {
    const pending = new PendingRequests();
    const faults = new FaultSet(() => 0, pending);
    const released: string[] = [];
    const a = faults.add({ kind: 'no-response' });
    const b = faults.add({ kind: 'no-response', match: { method: 'PUT' } });
    pending.hold(a.id, () => released.push('a1'));
    const forget = pending.hold(a.id, () => released.push('a2'));
    pending.hold(b.id, () => released.push('b'));
    forget();
    a.remove();
    expect(released).toEqual(['a1']);
    faults.clear();
    expect(released).toEqual(['a1', 'b']);
    expect(faults.remove('fault-99')).toBe(false);
  });
});

describe('Journal', () => {
  const entry = (i: number) => ({
    arrived: i,
    durationMs: 1,
    protocol: 'http',
    method: 'GET',
    url: `/marketing/v1/lists/${i}`,
    query: {},
    serverId: i % 2 ? 1234 : undefined,
    operation: undefined,
    format: 'json' as const,
    status: 200,
    fault: undefined,
    requestHeaders: { host: 'localhost' },
    requestBody: undefined,
    responseHeaders: {},
    responseBody: undefined,
  });

  it('keeps the last N entries, oldest first, with ids that keep counting', () => {
    const journal = new Journal(3, 1024);
    for (let i = 1; i <= 5; i++) journal.record(entry(i));
    expect(journal.entries().map((e) => e.id)).toEqual([3, 4, 5]);
    expect(journal.entries()[0]).toEqual({
      id: 3,
      time: new Date(3).toISOString(),
      method: 'GET',
      path: '/marketing/v1/lists/3',
      url: 'http://localhost/marketing/v1/lists/3',
      queryString: '',
      query: {},
      serverId: 1234,
      authenticated: false,
      status: 200,
      format: 'json',
      durationMs: 1,
      request: { headers: { host: 'localhost' } },
      response: { status: 200, headers: {} },
    });
  });

  it('filters like fault matching', () => {
    const journal = new Journal(10, 1024);
    for (let i = 1; i <= 4; i++) journal.record(entry(i));
    expect(journal.entries({ serverId: 1234 }).map((e) => e.id)).toEqual([1, 3]);
    expect(journal.entries({ path: '/lists/2' }).map((e) => e.id)).toEqual([2]);
    expect(journal.entries({ method: 'PUT' })).toEqual([]);
  });

  it('size 0 keeps nothing; clear empties it', () => {
    const off = new Journal(0, 1024);
    off.record(entry(1));
    expect(off.entries()).toEqual([]);
    const journal = new Journal(2, 1024);
    journal.record(entry(1));
    journal.clear();
    expect(journal.entries()).toEqual([]);
    journal.record(entry(2));
    expect(journal.entries().map((e) => e.id)).toEqual([2]);
  });

  it('stays bounded under many records', () => {
    const journal = new Journal(100, 1024);
    for (let i = 0; i < 100_000; i++) journal.record(entry(i));
    expect(journal.entries()).toHaveLength(100);
    expect(journal.entries().at(-1)?.id).toBe(100_000);
  });
});
