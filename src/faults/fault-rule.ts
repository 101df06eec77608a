import { FaultRuleError } from '../domain/errors.js';
import { describe as shown } from '../domain/seed-check.js';
import { parseRequestMatch, type RequestMatch } from '../match/request-match.js';

/** The closed set of ways the fake can misbehave. */
export const FAULT_KINDS = [
  'unavailable',
  'no-response',
  'reset',
  'delay',
  'status',
  'malformed',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * A fault rule: plain data, so the same rule works from TypeScript and from
 * `POST /__admin/faults`.
 */
export interface FaultRule {
  /**
   * `unavailable`: 503 with Retry-After and the maintenance message. `no-response`: held with no
   * answer. `reset`: the socket is destroyed. `delay`: the normal answer after `delayMs`.
   * `status`: `status` with the error body. `malformed`: a 200 cut off mid-body.
   */
  kind: FaultKind;
  /** Which requests; every public route when missing. */
  match?: RequestMatch;
  /** Answer this many matching requests, then the rule removes itself. */
  times?: number;
  /** The rule ends this long after it was added, by the fake's clock. */
  durationMs?: number;
  /** 0..1: the share of matching requests it answers, drawn from a generator seeded by `seed`. */
  probability?: number;
  /** Seed of the probability draws; default 0, so runs repeat. */
  seed?: number;
  /**
   * For `status`: the status code, 200 to 599 (a 1xx is an interim answer, never a final one);
   * 204, 205 and 304 are answered without a body, as HTTP requires.
   */
  status?: number;
  /** For `delay`: milliseconds to wait before the normal answer. */
  delayMs?: number;
}

const RULE_KEYS = [
  'kind',
  'match',
  'times',
  'durationMs',
  'probability',
  'seed',
  'status',
  'delayMs',
];
const MATCH_KEYS = ['method', 'path', 'serverId'];
/** Longest `delayMs`: a client that waits longer has long given up. */
export const MAX_DELAY_MS = 10 * 60 * 1000;
/**
 * Longest `durationMs` (and maintenance): 2^31 - 1 ms, about 24.8 days, the longest delay a Node
 * timer takes. Far beyond any test or sandbox session, and `now + durationMs` stays a valid date.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

function invalid(message: string): never {
  throw new FaultRuleError(`Invalid fault rule: ${message}`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(
  value: Record<string, unknown>,
  allowed: readonly string[],
  where: string,
): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      invalid(`${where}${key} is not a rule field; use ${allowed.join(', ')}.`);
  }
}

/** Checks a rule from any source (TypeScript or JSON) and returns a clean copy. */
export function parseFaultRule(input: unknown): FaultRule {
  if (!isObject(input)) invalid('a rule must be an object such as { "kind": "unavailable" }.');
  checkKeys(input, RULE_KEYS, '');
  const { kind, times, durationMs, probability, seed, status, delayMs } = input;
  if (!FAULT_KINDS.includes(kind as FaultKind)) {
    invalid(`kind must be one of ${FAULT_KINDS.join(', ')}; got ${shown(kind)}.`);
  }
  const rule: FaultRule = { kind: kind as FaultKind };
  if (input.match !== undefined) rule.match = parseMatch(input.match);
  if (times !== undefined) rule.times = checkTimes(times, invalid);
  if (durationMs !== undefined) rule.durationMs = checkDuration(durationMs, invalid);
  if (probability !== undefined) {
    if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) {
      invalid(`probability must be a number from 0 to 1; got ${shown(probability)}.`);
    }
    rule.probability = probability;
  }
  if (seed !== undefined) {
    if (!Number.isSafeInteger(seed)) {
      invalid(`seed must be a whole number from -(2^53 - 1) to 2^53 - 1; got ${shown(seed)}.`);
    }
    rule.seed = seed as number;
  }
  if (kind === 'status') {
    if (!Number.isInteger(status) || (status as number) < 200 || (status as number) > 599) {
      invalid(
        'kind "status" needs status, a whole number from 200 to 599 (a 1xx is an interim answer: a client would get no final one).',
      );
    }
    rule.status = status as number;
  } else if (status !== undefined) {
    invalid(`status only applies to kind "status", not "${kind}".`);
  }
  if (kind === 'delay') {
    if (
      !Number.isInteger(delayMs) ||
      (delayMs as number) < 0 ||
      (delayMs as number) > MAX_DELAY_MS
    ) {
      invalid(
        `kind "delay" needs delayMs, a whole number of milliseconds from 0 to ${MAX_DELAY_MS}.`,
      );
    }
    rule.delayMs = delayMs as number;
  } else if (delayMs !== undefined) {
    invalid(`delayMs only applies to kind "delay", not "${kind}".`);
  }
  return rule;
}

/** `times` of a rule or a maintenance: a whole number from 1 to 2^53 - 1 (a count, only compared). */
function checkTimes(value: unknown, fail: (message: string) => never): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) {
    fail(`times must be a whole number from 1 to 2^53 - 1; got ${shown(value)}.`);
  }
  return value as number;
}

/** `durationMs` of a rule or a maintenance: whole milliseconds from 1 to {@link MAX_DURATION_MS}. */
function checkDuration(value: unknown, fail: (message: string) => never): number {
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_DURATION_MS) {
    fail(
      `durationMs must be a whole number of milliseconds from 1 to ${MAX_DURATION_MS} (about 24.8 days); got ${shown(value)}.`,
    );
  }
  return value as number;
}

function parseMatch(input: unknown): RequestMatch {
  if (!isObject(input))
    invalid('match must be an object such as { "method": "PUT", "path": "/lists/*" }.');
  checkKeys(input, MATCH_KEYS, 'match.');
  return parseRequestMatch(input, 'match.', invalid);
}

/** How an outage looks to clients. */
const MAINTENANCE_MODES = ['unavailable', 'no-response', 'reset'] as const;
const MAINTENANCE_KEYS = ['mode', 'durationMs', 'times'];

/**
 * The rule behind `maintenance()` and `POST /__admin/maintenance`: options `{ mode, durationMs,
 * times }` (all optional; none, or `null` from the handle, is an outage in the default mode;
 * over HTTP a `null` body is refused before it gets here), checked like a rule's.
 */
export function maintenanceRule(input: unknown): FaultRule {
  if (input === undefined || input === null) return { kind: 'unavailable' };
  if (!isObject(input)) {
    invalid(
      `maintenance options must be an object such as { "durationMs": 60000 }; got ${shown(input)}.`,
    );
  }
  checkKeys(input, MAINTENANCE_KEYS, '');
  const { mode = 'unavailable', durationMs, times } = input;
  if (!MAINTENANCE_MODES.includes(mode as (typeof MAINTENANCE_MODES)[number])) {
    invalid(`maintenance mode must be unavailable, no-response or reset; got ${shown(mode)}.`);
  }
  return parseFaultRule({
    kind: mode,
    ...(durationMs === undefined ? {} : { durationMs }),
    ...(times === undefined ? {} : { times }),
  });
}

const TIMES_SCHEMA = {
  type: 'integer',
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  description: 'Answer this many matching requests, then the rule ends.',
} as const;
const DURATION_SCHEMA = {
  type: 'integer',
  minimum: 1,
  maximum: MAX_DURATION_MS,
  description: 'The rule ends this many milliseconds after it was added (at most about 24.8 days).',
} as const;

/** A fault rule as `POST /__admin/faults` takes it (documentation; {@link parseFaultRule} checks). */
export const FAULT_RULE_SCHEMA = {
  type: 'object',
  required: ['kind'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: [...FAULT_KINDS] },
    match: {
      type: 'object',
      additionalProperties: false,
      properties: {
        method: { type: 'string', description: 'An HTTP method, any case.' },
        path: { type: 'string', description: 'A glob on the path after /marketing/v1.' },
        serverId: { type: 'integer', description: 'The Basic-auth username.' },
      },
    },
    times: TIMES_SCHEMA,
    durationMs: DURATION_SCHEMA,
    probability: { type: 'number', minimum: 0, maximum: 1 },
    seed: {
      type: 'integer',
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
    },
    status: {
      type: 'integer',
      minimum: 200,
      maximum: 599,
      description: 'Only for kind status. 204, 205 and 304 are answered without a body.',
    },
    delayMs: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_DELAY_MS,
      description: 'Only for kind delay.',
    },
  },
} as const;

/** The options of `POST /__admin/maintenance` (documentation; {@link maintenanceRule} checks). */
export const MAINTENANCE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mode: { type: 'string', enum: [...MAINTENANCE_MODES], default: 'unavailable' },
    durationMs: DURATION_SCHEMA,
    times: TIMES_SCHEMA,
  },
} as const;
