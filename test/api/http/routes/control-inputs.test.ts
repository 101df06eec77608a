import { describe, expect, it } from 'vitest';
import { FaultRuleError, InvalidOptionError } from '../../../../src/index.js';
import { useFake } from '../../../helpers/fake.js';

const fake = useFake();

interface Refused {
  readonly name: string;
  readonly method: 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  /** Raw JSON text, so numbers JSON.stringify cannot write (1e400) are sent too. */
  readonly payload: string;
  readonly message: string | RegExp;
}

const REFUSED: Refused[] = [
  {
    name: 'a fault durationMs of 1e20 (was a 500 and an active rule)',
    method: 'POST',
    path: '/faults',
    payload: '{"kind":"unavailable","durationMs":1e20}',
    message:
      'Invalid fault rule: durationMs must be a whole number of milliseconds from 1 to 2147483647 (about 24.8 days); got number 100000000000000000000.',
  },
  {
    name: 'a maintenance durationMs of 1e20',
    method: 'POST',
    path: '/maintenance',
    payload: '{"durationMs":1e20}',
    message: /durationMs must be a whole number of milliseconds from 1 to 2147483647/,
  },
  {
    name: 'a durationMs of 1e400 (Infinity once parsed)',
    method: 'POST',
    path: '/faults',
    payload: '{"kind":"reset","durationMs":1e400}',
    message: /durationMs must be .*; got number Infinity\.$/,
  },
  {
    name: 'a durationMs one past the maximum',
    method: 'POST',
    path: '/maintenance',
    payload: '{"durationMs":2147483648}',
    message: /durationMs must be/,
  },
  {
    name: 'a fractional durationMs',
    method: 'POST',
    path: '/faults',
    payload: '{"kind":"reset","durationMs":1.5}',
    message: /durationMs must be/,
  },
  {
    name: 'times past 2^53 - 1',
    method: 'POST',
    path: '/maintenance',
    payload: '{"times":9007199254740993}',
    message: /times must be a whole number from 1 to 2\^53 - 1/,
  },
  {
    name: 'a maintenance body that is a number',
    method: 'POST',
    path: '/maintenance',
    payload: '5',
    message: 'The body must be a JSON object with mode, durationMs, times, not a JSON number.',
  },
  {
    name: 'a maintenance body that is an array',
    method: 'POST',
    path: '/maintenance',
    payload: '[]',
    message: 'The body must be a JSON object with mode, durationMs, times, not a JSON array.',
  },
  {
    name: 'a maintenance that sneaks in a rule field',
    method: 'POST',
    path: '/maintenance',
    payload: '{"kind":"delay","delayMs":5}',
    message: /kind is not a rule field; use mode, durationMs, times/,
  },
  {
    name: 'a maintenance with a probability',
    method: 'POST',
    path: '/maintenance',
    payload: '{"probability":0.5}',
    message: /probability is not a rule field/,
  },
  {
    name: 'a new server body that is a number',
    method: 'POST',
    path: '/servers',
    payload: '5',
    message: 'The body must be a JSON object with serverId, key, maxContacts, not a JSON number.',
  },
  {
    name: 'a new server body that is an array',
    method: 'POST',
    path: '/servers',
    payload: '[1]',
    message: /must be a JSON object/,
  },
  {
    name: 'a new server body that is a string',
    method: 'POST',
    path: '/servers',
    payload: '"abc"',
    message: /must be a JSON object/,
  },
  {
    name: 'a new server with a key of control characters',
    method: 'POST',
    path: '/servers',
    payload: '{"key":"a\\u0000b"}',
    message: /key must be 1 to 200 characters without control characters/,
  },
  {
    name: 'a new server with a key too long to seed back',
    method: 'POST',
    path: '/servers',
    payload: JSON.stringify({ key: 'k'.repeat(201) }),
    message: /key must be 1 to 200/,
  },
  {
    name: 'a new server with a key holding a C1 control character (NEL)',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"\\u0085nelkey-x"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'a new server with a key holding a C1 control character (APC)',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"\\u009fapc-key-x"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'a new server with a key holding U+2028, which Basic auth cannot carry',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"ab\\u2028cdef"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'a new server with a key holding U+2029',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"ab\\u2029cdef"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'a new server with a key holding a lone high surrogate',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"\\ud800abcdef"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'a new server with a key holding a lone low surrogate',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"abcdef\\udc00"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'a new server with a key holding DEL',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":20004,"key":"abc\\u007fdef"}',
    message:
      /key must be 1 to 200 characters without control characters \(C0, DEL, C1\), U\+2028, U\+2029 or lone surrogates/,
  },
  {
    name: 'POST /servers/1234/regenerate-key with a body that names something',
    method: 'POST',
    path: '/servers/1234/regenerate-key',
    payload: '{"faults":"keep-please"}',
    message: "Unknown property 'faults'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'POST /reset with a body that names something',
    method: 'POST',
    path: '/reset',
    payload: '{"typo":true}',
    message: "Unknown property 'typo'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'POST /servers/1234/reset with a body that names something',
    method: 'POST',
    path: '/servers/1234/reset',
    payload: '{"typo":true}',
    message: "Unknown property 'typo'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'POST /save with a body that names something',
    method: 'POST',
    path: '/save',
    payload: '{"file":"x"}',
    message: "Unknown property 'file'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'DELETE /faults with a body that names something',
    method: 'DELETE',
    path: '/faults',
    payload: '{"id":"fault-1"}',
    message: "Unknown property 'id'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'DELETE /requests with a body that names something',
    method: 'DELETE',
    path: '/requests',
    payload: '{"sinceId":5}',
    message: "Unknown property 'sinceId'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'DELETE /faults/{id} with a body that names something',
    method: 'DELETE',
    path: '/faults/fault-1',
    payload: '{"typo":1}',
    message: "Unknown property 'typo'; this route takes no body (or an empty JSON object).",
  },
  {
    name: 'POST /reset with a body that is not an object',
    method: 'POST',
    path: '/reset',
    payload: '[]',
    message: 'This route takes no body (or an empty JSON object), not a JSON array.',
  },
  {
    name: 'a new server with an id of 1e20',
    method: 'POST',
    path: '/servers',
    payload: '{"serverId":1e20}',
    message: /serverId must be a 4- or 5-digit integer/,
  },
  {
    name: 'a new server with a cap past 2^53 - 1',
    method: 'POST',
    path: '/servers',
    payload: '{"maxContacts":1e300}',
    message: /maxContacts must be a whole number from 0 to 2\^53 - 1/,
  },
  {
    name: 'a cap body that is a number',
    method: 'PUT',
    path: '/servers/1234/max-contacts',
    payload: '3',
    message: 'The body must be a JSON object with maxContacts, not a JSON number.',
  },
  {
    name: 'a cap with an extra field',
    method: 'PUT',
    path: '/servers/1234/max-contacts',
    payload: '{"maxContacts":3,"serverId":1234}',
    message: "Unknown property 'serverId'; use maxContacts.",
  },
  {
    name: 'a cap given as text',
    method: 'PUT',
    path: '/servers/1234/max-contacts',
    payload: '{"maxContacts":"3"}',
    message: /maxContacts must be a whole number .*got the string "3"/,
  },
  {
    name: 'a cap of null',
    method: 'PUT',
    path: '/servers/1234/max-contacts',
    payload: '{"maxContacts":null}',
    message: /maxContacts must be a whole number/,
  },
];

describe('a refused control call changes nothing and is never a 500', () => {
  it.each(REFUSED)('$name -> 400', async ({ method, path, payload, message }) => {
    fake.faults.add({ kind: 'delay', delayMs: 1, match: { path: '/nothing' } });
    const state = fake.exportState();
    const faults = fake.faults.list();
    const response = await fake.inject({
      method,
      url: `/__admin${path}`,
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(400);
    const body = JSON.parse(response.body) as { message: string };
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
    expect(fake.exportState()).toEqual(state);
    expect(fake.faults.list()).toEqual(faults);
    const list = await fake.inject({ url: '/__admin/faults' });
    expect(list.statusCode).toBe(200);
    expect(JSON.parse(list.body)).toEqual(faults);
  });

  it('the longest durationMs is accepted and listed with its end', async () => {
    const response = await fake.inject({
      method: 'POST',
      url: '/__admin/maintenance',
      payload: { durationMs: 2 ** 31 - 1 },
    });
    expect(response.statusCode).toBe(201);
    // The small seed's clock is fixed at 2026-11-22T12:00:00.000Z.
    expect(JSON.parse(response.body)).toMatchObject({ expiresAt: '2026-12-17T08:31:23.647Z' });
    expect((await fake.inject({ url: '/__admin/faults' })).statusCode).toBe(200);
  });

  it('an empty maintenance body, or {}, is an outage in the default mode', async () => {
    for (const payload of [undefined, '{}']) {
      fake.faults.clear();
      const response = await fake.inject({
        method: 'POST',
        url: '/__admin/maintenance',
        ...(payload === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, payload }),
      });
      expect(response.statusCode).toBe(201);
      expect(fake.faults.list()).toMatchObject([{ kind: 'unavailable' }]);
    }
  });

  it('a JSON null maintenance body is refused (a JSON object, or nothing), and starts no outage', async () => {
    fake.faults.clear();
    const response = await fake.inject({
      method: 'POST',
      url: '/__admin/maintenance',
      headers: { 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body).message).toBe(
      'The body must be a JSON object with mode, durationMs, times, not JSON null.',
    );
    expect(fake.faults.list()).toEqual([]);
  });
});

describe('control routes that take no body', () => {
  const BODILESS = [
    ['POST', '/servers/1234/regenerate-key', 200],
    ['POST', '/servers/1234/reset', 204],
    ['POST', '/reset', 204],
    ['DELETE', '/faults', 204],
    ['DELETE', '/requests', 204],
  ] as const;

  it.each(BODILESS)('%s %s takes no body, or an empty object', async (method, path, status) => {
    expect((await fake.inject({ method, url: `/__admin${path}` })).statusCode).toBe(status);
    const empty = await fake.inject({ method, url: `/__admin${path}`, payload: {} });
    expect(empty.statusCode).toBe(status);
  });

  it('DELETE /requests with a filter-like body keeps the journal', async () => {
    await fake.inject({ url: '/marketing/v1/lists' });
    const before = (await fake.inject({ url: '/__admin/requests' })).json() as unknown[];
    expect(before.length).toBeGreaterThan(0);
    const refused = await fake.inject({
      method: 'DELETE',
      url: '/__admin/requests',
      payload: { sinceId: 5 },
    });
    expect(refused.statusCode).toBe(400);
    expect((await fake.inject({ url: '/__admin/requests' })).json()).toEqual(before);
  });
});

describe('the handle refuses the same inputs with typed errors', () => {
  it.each([
    [{ durationMs: 1e20 }],
    [{ durationMs: 0 }],
    [{ times: 0 }],
    [{ mode: 'delay' }],
    [{ kind: 'delay', delayMs: 1 }],
    [5],
    [[]],
  ])('maintenance(%j) throws FaultRuleError and adds nothing', (options) => {
    expect(() => fake.maintenance(options as never)).toThrow(FaultRuleError);
    expect(fake.faults.list()).toEqual([]);
  });

  it('faults.add({ durationMs: 1e20 }) throws FaultRuleError and adds nothing', () => {
    expect(() => fake.faults.add({ kind: 'unavailable', durationMs: 1e20 })).toThrow(
      FaultRuleError,
    );
    expect(fake.faults.list()).toEqual([]);
  });

  it.each([
    [{ key: 'k'.repeat(201) }],
    [{ key: 'line\nbreak' }],
    [{ maxContacts: 1e300 }],
    [{ serverId: 1e20 }],
    [[] as never],
    ['1234' as never],
  ])('addServer(%j) throws InvalidOptionError and adds nothing', (options) => {
    const state = fake.exportState();
    expect(() => fake.addServer(options)).toThrow(InvalidOptionError);
    expect(fake.exportState()).toEqual(state);
  });

  it.each([[-1], [1.5], [2 ** 53], [Number.NaN], ['3' as never]])(
    'setMaxContacts(1234, %j) throws InvalidOptionError and changes nothing',
    (cap) => {
      const state = fake.exportState();
      expect(() => fake.setMaxContacts(1234, cap)).toThrow(InvalidOptionError);
      expect(fake.exportState()).toEqual(state);
    },
  );
});
