import { SeedError } from './errors.js';
import { MAX_ID } from './rules.js';

/** Small checks that throw SeedError naming the exact path of the offending value. */

/**
 * A path, or a function that makes it: seeds of a hundred thousand contacts would otherwise
 * build half a million path strings that only a failure ever reads.
 */
export type Where = string | (() => string);

export function pathOf(where: Where): string {
  return typeof where === 'string' ? where : where();
}

export function fail(where: Where, problem: string): never {
  throw new SeedError(pathOf(where), problem);
}

export function describe(value: unknown): string {
  // A missing field: "got undefined undefined" would read like a bug.
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(truncate(value))}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function truncate(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value;
}

export function expectObject(
  value: unknown,
  where: Where,
  allowed: readonly string[],
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(where, `must be an object, got ${describe(value)}`);
  }
  for (const key in value) {
    if (!allowed.includes(key)) {
      fail(joinPath(pathOf(where), key), `unknown property; expected one of ${allowed.join(', ')}`);
    }
  }
  return value as Record<string, unknown>;
}

export function expectArray(value: unknown, where: Where): readonly unknown[] {
  if (!Array.isArray(value)) fail(where, `must be an array, got ${describe(value)}`);
  return value;
}

export function optionalArray(value: unknown, where: Where): readonly unknown[] {
  return value === undefined ? [] : expectArray(value, where);
}

export function expectString(value: unknown, where: Where, what = 'a string'): string {
  if (typeof value !== 'string') fail(where, `must be ${what}, got ${describe(value)}`);
  return value;
}

export function isPositiveId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** An id a seed gives: a positive integer, at most {@link MAX_ID}. */
export function expectId(value: unknown, where: Where): number {
  if (Number.isInteger(value) && (value as number) > MAX_ID) {
    fail(where, `must be at most ${MAX_ID}, got ${describe(value)}`);
  }
  if (!isPositiveId(value)) fail(where, `must be a positive integer, got ${describe(value)}`);
  return value;
}

export function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** An ISO 8601 date or date-time with an explicit zone, as epoch milliseconds. */
export function expectDate(value: unknown, path: Where): number {
  const text = expectString(value, path, 'an ISO 8601 UTC date-time such as 2026-01-05T10:00:00Z');
  const match = ISO_DATE_TIME.exec(text);
  const time = Date.parse(text);
  if (!match || Number.isNaN(time) || !isRealCalendarDay(match)) {
    fail(path, `must be an ISO 8601 UTC date-time such as 2026-01-05T10:00:00Z, got "${text}"`);
  }
  return time;
}

function isRealCalendarDay(match: RegExpExecArray): boolean {
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  const [hours, minutes, seconds] = [Number(match[4] ?? 0), Number(match[5] ?? 0), match[6]];
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hours < 24 &&
    minutes < 60 &&
    Number(seconds ?? 0) < 60
  );
}

/**
 * Ids for items whose id is optional: given ids must be unique (also against `taken`), and
 * missing ones are assigned in order after the largest id given or already used, never past
 * {@link MAX_ID}.
 */
export function assignIds(
  given: readonly (number | undefined)[],
  pathAt: (index: number) => string,
  taken: (id: number) => boolean,
  nextFree: number,
  what: string,
): number[] {
  const seen = new Set<number>();
  let largest = nextFree - 1;
  given.forEach((id, index) => {
    if (id === undefined) return;
    if (seen.has(id) || taken(id)) fail(pathAt(index), `${what} id ${id} is used twice`);
    seen.add(id);
    largest = Math.max(largest, id);
  });
  return given.map((id, index) => {
    if (id !== undefined) return id;
    largest += 1;
    if (largest > MAX_ID) {
      fail(
        pathAt(index),
        `is needed: every ${what} id up to ${MAX_ID}, the largest, is given or used, so none is left to assign`,
      );
    }
    return largest;
  });
}
