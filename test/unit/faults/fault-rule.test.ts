import { describe, expect, it } from 'vitest';
import { FaultRuleError } from '../../../src/domain/errors.js';
import {
  FAULT_KINDS,
  MAX_DELAY_MS,
  MAX_DURATION_MS,
  maintenanceRule,
  parseFaultRule,
} from '../../../src/faults/fault-rule.js';

// Every refusal of a fault rule says
// exactly what is wrong, and every bound is taken at its edge and refused one step past it.

const refusal = (input: unknown) => {
  try {
    parseFaultRule(input);
  } catch (error) {
    expect(error).toBeInstanceOf(FaultRuleError);
    return (error as Error).message;
  }
  throw new Error('the rule was accepted');
};
const maintenanceRefusal = (input: unknown) => {
  try {
    maintenanceRule(input);
  } catch (error) {
    expect(error).toBeInstanceOf(FaultRuleError);
    return (error as Error).message;
  }
  throw new Error('the options were accepted');
};

const DURATION = (got: string) =>
  `Invalid fault rule: durationMs must be a whole number of milliseconds from 1 to ${MAX_DURATION_MS} (about 24.8 days); got ${got}.`;
const TIMES = (got: string) =>
  `Invalid fault rule: times must be a whole number from 1 to 2^53 - 1; got ${got}.`;

describe('parseFaultRule refusals', () => {
  it.each([
    [null, 'Invalid fault rule: a rule must be an object such as { "kind": "unavailable" }.'],
    [[], 'Invalid fault rule: a rule must be an object such as { "kind": "unavailable" }.'],
    [
      'unavailable',
      'Invalid fault rule: a rule must be an object such as { "kind": "unavailable" }.',
    ],
    [
      { kind: 'reset', colour: 'red' },
      'Invalid fault rule: colour is not a rule field; use kind, match, times, durationMs, probability, seed, status, delayMs.',
    ],
    [
      { kind: 'explode' },
      `Invalid fault rule: kind must be one of ${FAULT_KINDS.join(', ')}; got the string "explode".`,
    ],
    [
      { kind: 'reset', match: 'PUT' },
      'Invalid fault rule: match must be an object such as { "method": "PUT", "path": "/lists/*" }.',
    ],
    [
      { kind: 'reset', match: null },
      'Invalid fault rule: match must be an object such as { "method": "PUT", "path": "/lists/*" }.',
    ],
    [
      { kind: 'reset', match: ['PUT'] },
      'Invalid fault rule: match must be an object such as { "method": "PUT", "path": "/lists/*" }.',
    ],
    [
      { kind: 'reset', match: { verb: 'PUT' } },
      'Invalid fault rule: match.verb is not a rule field; use method, path, serverId.',
    ],
    [
      { kind: 'reset', match: { method: 'P-T' } },
      'Invalid fault rule: match.method must be an HTTP method such as "GET".',
    ],
    [{ kind: 'reset', times: 0 }, TIMES('number 0')],
    [{ kind: 'reset', times: 1.5 }, TIMES('number 1.5')],
    [{ kind: 'reset', times: 2 ** 53 }, TIMES(`number ${2 ** 53}`)],
    [{ kind: 'reset', times: '2' }, TIMES('the string "2"')],
    [{ kind: 'reset', durationMs: 0 }, DURATION('number 0')],
    [{ kind: 'reset', durationMs: MAX_DURATION_MS + 1 }, DURATION(`number ${MAX_DURATION_MS + 1}`)],
    [{ kind: 'reset', durationMs: 1e20 }, DURATION('number 100000000000000000000')],
    [{ kind: 'reset', durationMs: 2.5 }, DURATION('number 2.5')],
    [
      { kind: 'reset', probability: 1.01 },
      'Invalid fault rule: probability must be a number from 0 to 1; got number 1.01.',
    ],
    [
      { kind: 'reset', probability: -0.01 },
      'Invalid fault rule: probability must be a number from 0 to 1; got number -0.01.',
    ],
    [
      { kind: 'reset', probability: Number.NaN },
      'Invalid fault rule: probability must be a number from 0 to 1; got number NaN.',
    ],
    [
      { kind: 'reset', probability: '0.5' },
      'Invalid fault rule: probability must be a number from 0 to 1; got the string "0.5".',
    ],
    [
      { kind: 'reset', seed: 1.5 },
      'Invalid fault rule: seed must be a whole number from -(2^53 - 1) to 2^53 - 1; got number 1.5.',
    ],
    [
      { kind: 'reset', seed: 2 ** 53 },
      `Invalid fault rule: seed must be a whole number from -(2^53 - 1) to 2^53 - 1; got number ${2 ** 53}.`,
    ],
    [
      { kind: 'status' },
      'Invalid fault rule: kind "status" needs status, a whole number from 200 to 599 (a 1xx is an interim answer: a client would get no final one).',
    ],
    [
      { kind: 'status', status: 99 },
      'Invalid fault rule: kind "status" needs status, a whole number from 200 to 599 (a 1xx is an interim answer: a client would get no final one).',
    ],
    [
      { kind: 'status', status: 600 },
      'Invalid fault rule: kind "status" needs status, a whole number from 200 to 599 (a 1xx is an interim answer: a client would get no final one).',
    ],
    [
      { kind: 'status', status: 500.5 },
      'Invalid fault rule: kind "status" needs status, a whole number from 200 to 599 (a 1xx is an interim answer: a client would get no final one).',
    ],
    [
      { kind: 'reset', status: 500 },
      'Invalid fault rule: status only applies to kind "status", not "reset".',
    ],
    [
      { kind: 'delay' },
      `Invalid fault rule: kind "delay" needs delayMs, a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`,
    ],
    [
      { kind: 'delay', delayMs: -1 },
      `Invalid fault rule: kind "delay" needs delayMs, a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`,
    ],
    [
      { kind: 'delay', delayMs: MAX_DELAY_MS + 1 },
      `Invalid fault rule: kind "delay" needs delayMs, a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`,
    ],
    [
      { kind: 'delay', delayMs: 1.5 },
      `Invalid fault rule: kind "delay" needs delayMs, a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`,
    ],
    [
      { kind: 'status', status: 500, delayMs: 5 },
      'Invalid fault rule: delayMs only applies to kind "delay", not "status".',
    ],
  ])('%j: %s', (input, message) => {
    expect(refusal(input)).toBe(message);
  });
});

describe('parseFaultRule bounds and copies', () => {
  it('takes every bound at its edge', () => {
    expect(parseFaultRule({ kind: 'reset', times: 1 })).toEqual({ kind: 'reset', times: 1 });
    expect(parseFaultRule({ kind: 'reset', times: Number.MAX_SAFE_INTEGER }).times).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    expect(parseFaultRule({ kind: 'reset', durationMs: 1 }).durationMs).toBe(1);
    expect(parseFaultRule({ kind: 'reset', durationMs: MAX_DURATION_MS }).durationMs).toBe(
      MAX_DURATION_MS,
    );
    expect(parseFaultRule({ kind: 'reset', probability: 0 }).probability).toBe(0);
    expect(parseFaultRule({ kind: 'reset', probability: 1 }).probability).toBe(1);
    expect(parseFaultRule({ kind: 'reset', seed: -Number.MAX_SAFE_INTEGER }).seed).toBe(
      -Number.MAX_SAFE_INTEGER,
    );
    expect(parseFaultRule({ kind: 'status', status: 200 }).status).toBe(200);
    expect(() => parseFaultRule({ kind: 'status', status: 199 })).toThrow(/from 200 to 599/);
    expect(parseFaultRule({ kind: 'status', status: 599 }).status).toBe(599);
    expect(parseFaultRule({ kind: 'delay', delayMs: 0 }).delayMs).toBe(0);
    expect(parseFaultRule({ kind: 'delay', delayMs: MAX_DELAY_MS }).delayMs).toBe(MAX_DELAY_MS);
  });

  it('returns a clean copy with only the fields given', () => {
    const rule = parseFaultRule({
      kind: 'status',
      status: 429,
      match: { method: 'put', path: '/lists/*', serverId: 3 },
      times: 2,
      durationMs: 1000,
      probability: 0.5,
      seed: 7,
    });
    expect(rule).toEqual({
      kind: 'status',
      status: 429,
      match: { method: 'PUT', path: '/lists/*', serverId: 3 },
      times: 2,
      durationMs: 1000,
      probability: 0.5,
      seed: 7,
    });
    expect(Object.keys(parseFaultRule({ kind: 'unavailable' }))).toEqual(['kind']);
    expect(parseFaultRule({ kind: 'unavailable', match: {} })).toEqual({
      kind: 'unavailable',
      match: {},
    });
  });

  it('takes every kind', () => {
    for (const kind of ['unavailable', 'no-response', 'reset', 'malformed']) {
      expect(parseFaultRule({ kind })).toEqual({ kind });
    }
  });
});

describe('maintenanceRule', () => {
  it('is an outage in the default mode without options', () => {
    expect(maintenanceRule(undefined)).toEqual({ kind: 'unavailable' });
    expect(maintenanceRule(null)).toEqual({ kind: 'unavailable' });
    expect(maintenanceRule({})).toEqual({ kind: 'unavailable' });
  });

  it('keeps the mode, duration and count given, and only those', () => {
    expect(maintenanceRule({ mode: 'reset', durationMs: 60000, times: 3 })).toEqual({
      kind: 'reset',
      durationMs: 60000,
      times: 3,
    });
    expect(maintenanceRule({ mode: 'no-response' })).toEqual({ kind: 'no-response' });
    expect(Object.keys(maintenanceRule({ times: 1 }))).toEqual(['kind', 'times']);
    expect(Object.keys(maintenanceRule({ durationMs: 5 }))).toEqual(['kind', 'durationMs']);
  });

  it.each([
    [
      'soon',
      'Invalid fault rule: maintenance options must be an object such as { "durationMs": 60000 }; got the string "soon".',
    ],
    [
      [1],
      'Invalid fault rule: maintenance options must be an object such as { "durationMs": 60000 }; got an array.',
    ],
    [
      { mode: 'delay' },
      'Invalid fault rule: maintenance mode must be unavailable, no-response or reset; got the string "delay".',
    ],
    [
      { kind: 'reset' },
      'Invalid fault rule: kind is not a rule field; use mode, durationMs, times.',
    ],
    [{ durationMs: 1e20 }, DURATION('number 100000000000000000000')],
    [{ times: 0 }, TIMES('number 0')],
  ])('refuses %j: %s', (input, message) => {
    expect(maintenanceRefusal(input)).toBe(message);
  });
});
