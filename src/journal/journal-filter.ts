import { FAULT_KINDS, type FaultKind } from '../faults/fault-rule.js';
import { compileMatch, parseRequestMatch, type RequestMatch } from '../match/request-match.js';
import {
  type FilterBudget,
  filterBudget,
  MAX_FILTER_STEPS,
  PROPERTY_STEPS,
} from './journal-budgets.js';
import type { JournalEntry } from './journal-entry.js';

/** Which journal entries to read or wait for; every part is optional and all must hold. */
export interface RequestFilter extends RequestMatch {
  /**
   * A status (100 to 599, `404`) or a class of them (`'1xx'` to `'5xx'`); 0 is a request that
   * got no response.
   */
  status?: number | string;
  /** The operationId of the emulated endpoint, e.g. `addToListByEmail`. */
  operation?: string;
  /** The fault kind that answered. */
  fault?: FaultKind;
  /** Only entries with a larger id: what arrived after an entry you have seen. */
  sinceId?: number;
  /**
   * A partial deep match on the parsed request body: every property given must be there with an
   * equal value (names case-insensitive, as the API reads them); arrays match when each item
   * given matches some item of the body's array.
   */
  body?: Record<string, unknown> | unknown[];
}

/** What every criterion but `body` reads: known without building the entry's bodies. */
export type EntryHead = Pick<
  JournalEntry,
  'id' | 'method' | 'path' | 'serverId' | 'status' | 'operation' | 'fault'
>;

/** A filter ready to test entries, and to say why an entry does not match. */
export interface CompiledFilter {
  /**
   * `budget`: what the body test may spend (a fresh {@link MAX_FILTER_STEPS} when not given);
   * once spent, the entry does not match, and the caller can see it from `budget.steps < 0`.
   */
  readonly matches: (entry: JournalEntry, budget?: FilterBudget) => boolean;
  /**
   * Every criterion but `body`, on what is known before an entry is built: a journal tests this
   * first, and builds the entry (its bodies decoded) only for those that pass and `needsEntry`.
   */
  readonly matchesHead: (head: EntryHead) => boolean;
  /** True when the filter reads the request body, so only a whole entry can decide. */
  readonly needsEntry: boolean;
  /** What differs, one phrase per criterion the entry fails; empty when it matches. */
  readonly differences: (entry: JournalEntry, budget?: FilterBudget) => string[];
  /** The differences of every criterion but `body`, which come first in `differences`. */
  readonly headDifferences: (head: EntryHead) => string[];
  /** The filter as JSON, for messages. */
  readonly describe: () => string;
}

const FILTER_KEYS = [
  'method',
  'path',
  'serverId',
  'status',
  'operation',
  'fault',
  'sinceId',
  'body',
];
/** A class of HTTP statuses: 1xx to 5xx. */
const STATUS_CLASS = /^[1-5]xx$/i;

/** An HTTP status (100 to 599), or 0: the entry of a request that got no response. */
const isStatus = (status: unknown): boolean =>
  Number.isInteger(status) &&
  (status === 0 || ((status as number) >= 100 && (status as number) <= 599));

/**
 * Checks a filter from any source and returns a clean copy; `fail` says what is wrong.
 * `operations` are the operationIds that exist, so that a misspelt one is an error, not silence.
 */
export function parseRequestFilter(
  input: unknown,
  fail: (detail: string) => never,
  operations: ReadonlySet<string>,
): RequestFilter {
  if (input === undefined) return {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail('a filter is an object such as { "operation": "addToListByEmail" }.');
  }
  const record = input as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !FILTER_KEYS.includes(key));
  if (unknown !== undefined) fail(`unknown filter '${unknown}'; use ${FILTER_KEYS.join(', ')}.`);
  const filter: RequestFilter = parseRequestMatch(record, '', fail);
  const { status, operation, fault, sinceId, body } = record;
  if (status !== undefined) {
    const valid = isStatus(status) || (typeof status === 'string' && STATUS_CLASS.test(status));
    if (!valid)
      fail(
        `status must be a status from 100 to 599 such as 404, 0 (no response) or a class from "1xx" to "5xx", got ${JSON.stringify(status)}.`,
      );
    filter.status = typeof status === 'string' ? status.toLowerCase() : (status as number);
  }
  if (operation !== undefined) {
    if (typeof operation !== 'string' || !operations.has(operation)) {
      fail(
        `operation must be one of ${[...operations].join(', ')}; got ${JSON.stringify(operation)}.`,
      );
    }
    filter.operation = operation;
  }
  if (fault !== undefined) {
    if (!FAULT_KINDS.includes(fault as FaultKind)) {
      fail(`fault must be one of ${FAULT_KINDS.join(', ')}; got ${JSON.stringify(fault)}.`);
    }
    filter.fault = fault as FaultKind;
  }
  if (sinceId !== undefined) {
    if (!Number.isSafeInteger(sinceId) || (sinceId as number) < 0) {
      fail('sinceId must be a whole number of 0 or more (an entry id).');
    }
    filter.sinceId = sinceId as number;
  }
  if (body !== undefined) {
    if (typeof body !== 'object' || body === null) {
      fail('body must be an object (or array) to match the request body against.');
    }
    const problem = bodyFilterProblem(body as object);
    if (problem !== undefined) fail(problem);
    filter.body = body as Record<string, unknown>;
  }
  return filter;
}

interface Criterion {
  readonly test: (entry: EntryHead) => boolean;
  readonly explain: (entry: EntryHead) => string[];
}

/** Compiles a checked filter once; see {@link parseRequestFilter}. */
export function compileFilter(filter: RequestFilter): CompiledFilter {
  const criteria: Criterion[] = [];
  const { method, path, serverId, status, operation, fault, sinceId, body } = filter;
  const simple = (test: Criterion['test'], explain: (entry: EntryHead) => string) =>
    criteria.push({ test, explain: (entry) => [explain(entry)] });
  if (method !== undefined) {
    const wanted = method.toUpperCase();
    simple(
      (entry) => entry.method === wanted,
      (entry) => `method ${entry.method} (wanted ${wanted})`,
    );
  }
  if (path !== undefined) {
    const pathMatches = compileMatch({ path });
    simple(
      (entry) => pathMatches(entry),
      (entry) => `path ${entry.path} (wanted ${path})`,
    );
  }
  if (serverId !== undefined) {
    simple(
      (entry) => entry.serverId === serverId,
      (entry) => `serverId ${entry.serverId ?? 'none'} (wanted ${serverId})`,
    );
  }
  if (status !== undefined) {
    const test =
      typeof status === 'number'
        ? (entry: EntryHead) => entry.status === status
        : (entry: EntryHead) => String(Math.floor(entry.status / 100)) === status[0];
    simple(test, (entry) => `status ${entry.status} (wanted ${status})`);
  }
  if (operation !== undefined) {
    simple(
      (entry) => entry.operation === operation,
      (entry) => `operation ${entry.operation ?? 'none'} (wanted ${operation})`,
    );
  }
  if (fault !== undefined) {
    simple(
      (entry) => entry.fault === fault,
      (entry) => `fault ${entry.fault ?? 'none'} (wanted ${fault})`,
    );
  }
  if (sinceId !== undefined) {
    simple(
      (entry) => entry.id > sinceId,
      (entry) => `id ${entry.id} (wanted after ${sinceId})`,
    );
  }
  const matchesHead = (head: EntryHead) => criteria.every((criterion) => criterion.test(head));
  // Only ever given whole entries: `needsEntry` tells callers so.
  const bodyMisses = (entry: JournalEntry, budget: FilterBudget | undefined, explain: boolean) =>
    body === undefined ? [] : bodyDifferences(entry, body, budget ?? filterBudget(), explain);
  const failing = (entry: EntryHead) =>
    criteria.flatMap((criterion) => (criterion.test(entry) ? [] : criterion.explain(entry)));
  return {
    matches: (entry, budget) => matchesHead(entry) && bodyMisses(entry, budget, false).length === 0,
    headDifferences: failing,
    matchesHead,
    needsEntry: body !== undefined,
    differences: (entry, budget) => [...failing(entry), ...bodyMisses(entry, budget, true)],
    describe: () => JSON.stringify(filter),
  };
}

/** Most values (properties and items, all levels) a `body` filter may hold. */
export const MAX_FILTER_VALUES = 10_000;
/** Deepest a `body` filter may nest. */
export const MAX_FILTER_DEPTH = 32;
/** Why a `body` filter is refused, or undefined when it is within the limits. Iterative. */
export function bodyFilterProblem(body: object): string | undefined {
  const stack: [unknown, number][] = [[body, 1]];
  let values = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_FILTER_DEPTH) return `body nests deeper than ${MAX_FILTER_DEPTH} levels.`;
    for (const item of Object.values(value)) {
      values += 1;
      if (values > MAX_FILTER_VALUES) {
        return `body holds more than ${MAX_FILTER_VALUES} values; match on fewer properties and items.`;
      }
      stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

/** The answer of a test that only asks whether there is a difference: no phrase is built. */
const MISS = ['a difference'];

/**
 * How the entry's body fails `expected`; with `explain` false, only whether it does (the first
 * difference ends the walk, and no phrase is built: the cheap form that reads and waits use).
 */
function bodyDifferences(
  entry: JournalEntry,
  expected: unknown,
  budget: FilterBudget,
  explain: boolean,
): string[] {
  const { body, bodyEncoding, bodyTruncated, bodyNote } = entry.request;
  if (body === undefined) return ['no request body'];
  if (bodyEncoding !== undefined || bodyTruncated || bodyNote !== undefined) {
    return ['a request body that is not whole JSON'];
  }
  if (budget.steps < 0) return [OVER_BUDGET];
  const found = differences(body, expected, 'body', budget, explain);
  return budget.steps < 0 ? [OVER_BUDGET] : found;
}

const OVER_BUDGET = `the body filter needed more than ${MAX_FILTER_STEPS} comparisons on this body; give fewer array items`;

/**
 * Where `actual` fails to contain `expected`, as `body.x.y is ... (wanted ...)` phrases (with
 * `explain` false, {@link MISS} at the first one). Each value compared costs a step of `budget`;
 * once it is spent, the answer is no longer complete (the caller says so).
 */
function differences(
  actual: unknown,
  expected: unknown,
  where: string,
  budget: FilterBudget,
  explain: boolean,
): string[] {
  budget.steps -= 1;
  if (budget.steps < 0) return MISS;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      return explain ? [`${where} is ${show(actual)} (wanted an array)`] : MISS;
    const has = itemFinder(actual, where, budget);
    if (!explain) return expected.every(has) ? [] : MISS;
    return expected.flatMap((item, index) =>
      has(item) ? [] : [`${where} has no item like ${show(item)} (item ${index} of the filter)`],
    );
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return explain ? [`${where} is ${show(actual)} (wanted an object)`] : MISS;
    }
    const byName = namesOf(actual as Record<string, unknown>, budget);
    const found: string[] = [];
    for (const name in expected) {
      if (!Object.hasOwn(expected, name)) continue;
      // Each name looked up is a step: a filter of many names costs what it reads.
      budget.steps -= 1;
      if (budget.steps < 0) return MISS;
      const value = (expected as Record<string, unknown>)[name];
      const path = explain ? `${where}.${name}` : where;
      const folded = name.toLowerCase();
      const missing = byName.has(folded)
        ? differences(byName.get(folded), value, path, budget, explain)
        : explain
          ? [`${path} is missing`]
          : MISS;
      if (missing.length === 0) continue;
      if (!explain) return MISS;
      found.push(...missing);
    }
    return found;
  }
  if (Object.is(actual, expected)) return [];
  return explain ? [`${where} is ${show(actual)} (wanted ${show(expected)})`] : MISS;
}

/**
 * Body objects by their own properties' lower-cased names, built once per object: the waits a new
 * entry is tested against, and the filter names that fold to the same property, share it.
 */
const foldedNames = new WeakMap<object, Map<string, unknown>>();

/**
 * `actual`'s properties by lower-cased name. Building it costs {@link PROPERTY_STEPS} per property
 * (an object of many properties is dear to look through, whatever the filter asks of it), and is
 * finished even past the budget, so that no later test pays for it again; finding it built costs
 * one step.
 */
function namesOf(actual: Record<string, unknown>, budget: FilterBudget): Map<string, unknown> {
  const known = foldedNames.get(actual);
  if (known !== undefined) {
    budget.steps -= 1;
    return known;
  }
  const byName = new Map<string, unknown>();
  for (const name in actual) {
    if (Object.hasOwn(actual, name)) byName.set(name.toLowerCase(), actual[name]);
  }
  budget.steps -= byName.size * PROPERTY_STEPS;
  foldedNames.set(actual, byName);
  return byName;
}

/**
 * Tests whether `actual` has an item like each one asked: a number, string, boolean or null is
 * looked up in a set of the array's (built once, so a long filter against a long array is linear);
 * an object or array is compared item by item, within the budget.
 */
const MINUS_ZERO = Symbol('-0');

function itemFinder(
  actual: unknown[],
  where: string,
  budget: FilterBudget,
): (item: unknown) => boolean {
  let primitives: Set<unknown> | undefined;
  return (item) => {
    if (budget.steps < 0) return false;
    if (typeof item !== 'object' || item === null) {
      if (primitives === undefined) {
        budget.steps -= actual.length;
        if (budget.steps < 0) return false;
        // A set compares 0 and -0 as equal, Object.is does not: -0 is kept as a symbol of its own.
        primitives = new Set(
          actual
            .filter((one) => typeof one !== 'object' || one === null)
            .map((one) => (Object.is(one, -0) ? MINUS_ZERO : one)),
        );
      }
      budget.steps -= 1;
      return primitives.has(Object.is(item, -0) ? MINUS_ZERO : item);
    }
    return actual.some(
      (candidate) =>
        budget.steps >= 0 && differences(candidate, item, where, budget, false).length === 0,
    );
  };
}

/** What {@link show} said of each body object: the names that fold to one property share it. */
const shown = new WeakMap<object, string>();

/**
 * A value in at most 60 characters. A long string is cut before it is quoted, and an object is
 * written out once (a filter may name one property in many cases, each needing a phrase).
 */
function show(value: unknown): string {
  if (typeof value === 'object' && value !== null) {
    const known = shown.get(value);
    if (known !== undefined) return known;
    const text = cut(JSON.stringify(value));
    shown.set(value, text);
    return text;
  }
  return cut(
    typeof value === 'string' ? JSON.stringify(value.slice(0, 60)) : String(JSON.stringify(value)),
  );
}

const cut = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);
