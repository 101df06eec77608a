import { FaultRuleError } from '../domain/errors.js';
import { parseRequestMatch, type RequestMatch } from './request-match.js';

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
  /** For `status`: the status code, 100 to 599. */
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
const MAX_DELAY_MS = 10 * 60 * 1000;

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
    invalid(`kind must be one of ${FAULT_KINDS.join(', ')}; got ${JSON.stringify(kind)}.`);
  }
  const rule: FaultRule = { kind: kind as FaultKind };
  if (input.match !== undefined) rule.match = parseMatch(input.match);
  if (times !== undefined) {
    if (!Number.isSafeInteger(times) || (times as number) < 1)
      invalid('times must be a whole number of 1 or more.');
    rule.times = times as number;
  }
  if (durationMs !== undefined) {
    if (typeof durationMs !== 'number' || !(durationMs > 0) || !Number.isFinite(durationMs)) {
      invalid('durationMs must be a number of milliseconds above 0.');
    }
    rule.durationMs = durationMs;
  }
  if (probability !== undefined) {
    if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) {
      invalid('probability must be a number from 0 to 1.');
    }
    rule.probability = probability;
  }
  if (seed !== undefined) {
    if (!Number.isSafeInteger(seed)) invalid('seed must be a whole number.');
    rule.seed = seed as number;
  }
  if (kind === 'status') {
    if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) {
      invalid('kind "status" needs status, a whole number from 100 to 599.');
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

function parseMatch(input: unknown): RequestMatch {
  if (!isObject(input))
    invalid('match must be an object such as { "method": "PUT", "path": "/lists/*" }.');
  checkKeys(input, MATCH_KEYS, 'match.');
  return parseRequestMatch(input, 'match.', invalid);
}
