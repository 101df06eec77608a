import { describe, expect, it } from 'vitest';
import { FaultRuleError, InvalidOptionError } from '../../src/index.js';
import { useFake } from '../helpers/fake.js';

const fake = useFake();

interface Refused {
  readonly name: string;
  readonly method: 'POST' | 'PUT';
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
    message: /maintenance options must be an object/,
  },
  {
    name: 'a maintenance body that is an array',
    method: 'POST',
    path: '/maintenance',
    payload: '[]',
    message: /maintenance options must be an object/,
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
    message: 'The body must be a JSON object with serverId, key, maxContacts.',
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
    message: 'The body must be a JSON object with maxContacts.',
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

  it('an empty or null maintenance body is an outage in the default mode', async () => {
    for (const payload of [undefined, 'null', '{}']) {
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
