// The journal's budgets, in one place. A `body` filter can be costly on large bodies, so each
// place one runs spends steps from a budget: counted, never timed (a step is one value compared,
// or BODY_BYTES_PER_STEP bytes of request body decoded). There are three, each of one read's
// MAX_FILTER_STEPS:
// 1. A read (GET /__admin/requests, requests()) and the first scan of one wait: the whole read.
//    The first scans of the waits of one owner (a tenant's server, or the fake-wide waits) asked
//    within a window of BUDGET_WINDOW_MS share one such budget; past it a wait is refused (400)
//    at once, so that 500 costly waits asked together cost one read, not 500.
// 2. A new entry: the pending waits share one read's steps to test it, in equal parts; what
//    they leave goes, in turn, to those that spent theirs (spendInShares).
// 3. The messages of the waits timing out within a window share one read's steps to find the
//    closest requests; past them, a message says so (NOT_EXPLAINED).
import { InvalidOptionError } from '../domain/errors.js';
import type { JournalEntry } from './journal-entry.js';

/**
 * What testing `body` filters may still spend: one budget is shared by every entry of one read,
 * or by every wait a new entry is tested against, so that the total work of one request or one
 * entry is bounded, not only the work per entry.
 */
export interface FilterBudget {
  /** Steps left; below 0 once spent (the answer that spent it is then incomplete). */
  steps: number;
}

/** A fresh budget of {@link MAX_FILTER_STEPS} steps. */
export const filterBudget = (steps = MAX_FILTER_STEPS): FilterBudget => ({ steps });

/**
 * Most steps testing a `body` filter may take in one go: against one entry, and in all for one
 * read of the journal (every entry it tests) or for one new entry (every wait it is tested
 * against). A filter of many objects against bodies of many objects could otherwise take their
 * product, times the journal's length, and block the server. A step is one value compared, or
 * {@link BODY_BYTES_PER_STEP} bytes of request body decoded to be tested.
 */
export const MAX_FILTER_STEPS = 200_000;
/** Bytes of request body a read decodes (JSON) for one step: about what a comparison costs. */
export const BODY_BYTES_PER_STEP = 4;
/**
 * Steps one property of a body object costs when a filter looks through the object's names (each
 * name folded and kept): measured, about what that many comparisons cost.
 */
export const PROPERTY_STEPS = 4;

/**
 * The steps decoding an entry's request body cost a read: {@link BODY_BYTES_PER_STEP}, for the
 * bytes kept (a cut body is not decoded past its cut, however large it was).
 */
export function decodeCost(entry: JournalEntry): number {
  const { body, bodySize = 0, bodyTruncated, bodyEncoding } = entry.request;
  const decoded =
    bodyTruncated || bodyEncoding !== undefined
      ? typeof body === 'string'
        ? body.length
        : 0
      : bodySize;
  return Math.ceil(decoded / BODY_BYTES_PER_STEP);
}

/** How long one window of a shared budget lasts (first scans, time-out messages). */
export const BUDGET_WINDOW_MS = 1000;

/**
 * Budgets of one read's steps, one per owner, each renewed once its window of
 * {@link BUDGET_WINDOW_MS} has passed. Windows past their time are dropped as new ones open, so
 * there is at most one per owner asking.
 */
export class BudgetWindows {
  private readonly windows = new Map<
    number,
    { readonly budget: FilterBudget; readonly since: number }
  >();

  /** `clock`: milliseconds from a monotonic clock (a test may stop it). */
  constructor(private readonly clock: () => number) {}

  /** What `owner` may still spend in its current window. */
  budgetOf(owner: number): FilterBudget {
    const now = this.clock();
    let window = this.windows.get(owner);
    if (window === undefined || now - window.since >= BUDGET_WINDOW_MS) {
      for (const [key, old] of this.windows) {
        if (now - old.since >= BUDGET_WINDOW_MS) this.windows.delete(key);
      }
      window = { budget: filterBudget(), since: now };
      this.windows.set(owner, window);
    }
    return window.budget;
  }
}

/**
 * Tests a new entry against `candidates` within one read's steps shared by `sharers` waits (the
 * pending ones; the candidates are those of them whose body filter must look at it), in equal
 * shares; what the others leave is then shared, in turn, by the candidates that spent their share
 * (a wide object's names, built by the first wait to look, are cheap for it the second time).
 * `test` is told the budget it may spend and says whether the entry matched. Returns the
 * candidates that could not finish: the entry does not answer them.
 */
export function spendInShares<T>(
  sharers: number,
  candidates: readonly T[],
  test: (candidate: T, budget: FilterBudget) => boolean,
): T[] {
  const share = Math.floor(MAX_FILTER_STEPS / sharers);
  let left = MAX_FILTER_STEPS;
  const unfinished: T[] = [];
  for (const candidate of candidates) {
    const budget = filterBudget(share);
    if (!test(candidate, budget) && budget.steps < 0) unfinished.push(candidate);
    left -= share - budget.steps;
  }
  const untested: T[] = [];
  // Made once, for the first candidate that spent its share.
  let rest: FilterBudget | undefined;
  for (const candidate of unfinished) {
    rest ??= filterBudget(left);
    if (rest.steps > 0 && test(candidate, rest)) continue;
    if (rest.steps <= 0) untested.push(candidate);
  }
  return untested;
}

/** The error of a read whose `body` filter spent the read's budget. */
export function tooCostly(): InvalidOptionError {
  return new InvalidOptionError(
    `Bad filter: testing the body filter against the journal needed more than ${MAX_FILTER_STEPS} steps in one read (a step is a value compared, or ${BODY_BYTES_PER_STEP} bytes of request body decoded); narrow the read with sinceId, operation, path, method or status, or give fewer array items.`,
  );
}

/** The error of a wait asked after the first scans of its window spent their shared budget. */
export function scansSpent(): InvalidOptionError {
  return new InvalidOptionError(
    `Bad filter: the waits asked in the last second spent the ${MAX_FILTER_STEPS} steps their body filters share to look through the journal; ask again in a second, or narrow the wait with sinceId, operation, path, method or status.`,
  );
}

/** What a timed-out wait says instead of the closest requests when their shared budget is spent. */
export const NOT_EXPLAINED = `The closest recorded requests are not shown: the waits that timed out in the last second spent the ${MAX_FILTER_STEPS} steps their messages share; read the journal (GET /__admin/requests) to see what arrived.`;

/** New entries a wait's body filter could not finish testing: how many, and the first ids. */
export interface Untested {
  count: number;
  readonly ids: number[];
}

/** How many ids of untested entries a timed-out wait names. */
export const SHOWN_UNTESTED = 5;

/** What a timed-out wait adds about new entries its filter could not finish testing. */
export function untestedNote({ count, ids }: Untested): string {
  if (count === 0) return '';
  const shown = ids.map((id) => `#${id}`).join(', ');
  const more = count > ids.length ? ` and ${count - ids.length} more` : '';
  return `\nNot fully tested (the body filter spent its share of the ${MAX_FILTER_STEPS} steps each new entry may take across all pending waits): ${shown}${more}.`;
}
