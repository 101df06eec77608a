// The recorded requests closest to a filter, for the messages of failed assertions and timed-out
// waits: which differ least, and how.
import { decodeCost, type FilterBudget } from './journal-budgets.js';
import type { JournalEntry } from './journal-entry.js';
import type { CompiledFilter, EntryHead } from './journal-filter.js';

/** One recorded request and how it differs from a filter. */
export interface NearMiss {
  readonly entry: JournalEntry;
  readonly differences: readonly string[];
}

/** The recorded requests closest to a filter (fewest differences, latest first), at most `count`. */
export function nearest(
  entries: readonly JournalEntry[],
  filter: CompiledFilter,
  count = 3,
): NearMiss[] {
  return nearestOf(
    entries,
    (entry) => entry,
    (entry) => entry,
    filter,
    count,
  );
}

const closestFirst = (a: NearMiss, b: NearMiss) =>
  a.differences.length - b.differences.length || b.entry.id - a.entry.id;

/**
 * {@link nearest} over records that are cheap to look at and dear to build: each is judged on its
 * head first, and built only while it could still be among the closest (a filter on the body adds
 * differences, never removes them). With a `budget`, judging a head costs a step too.
 */
export function nearestOf<T>(
  records: readonly T[],
  headOf: (record: T) => EntryHead,
  entryOf: (record: T) => JournalEntry,
  filter: CompiledFilter,
  count = 3,
  budget?: FilterBudget,
): NearMiss[] {
  if (budget !== undefined) budget.steps -= records.length;
  const judged = records
    .map((record) => {
      const head = headOf(record);
      return { record, head, differences: filter.headDifferences(head) };
    })
    .sort((a, b) => a.differences.length - b.differences.length || b.head.id - a.head.id);
  if (!filter.needsEntry) {
    return judged
      .slice(0, count)
      .map(({ record, differences }) => ({ entry: entryOf(record), differences }));
  }
  const misses: NearMiss[] = [];
  for (const { record, differences } of judged) {
    const worst = misses.length >= count ? misses[count - 1]?.differences.length : undefined;
    if (worst !== undefined && differences.length > worst) break;
    // Past the budget, the closest found so far are what the message shows.
    if (budget !== undefined && budget.steps < 0) break;
    const entry = entryOf(record);
    if (budget !== undefined) budget.steps -= decodeCost(entry);
    misses.push({ entry, differences: filter.differences(entry, budget) });
    misses.sort(closestFirst);
  }
  return misses.slice(0, count);
}

/** Lines that show the closest requests, for failure messages. */
export function describeNearest(misses: readonly NearMiss[], recorded: number): string {
  if (recorded === 0)
    return 'The journal is empty: the fake received no request under /marketing/.';
  const lines = misses.map(({ entry, differences: diff }) => {
    const line = `  #${entry.id} ${entry.method} ${entry.path}${entry.queryString ? `?${entry.queryString}` : ''} -> ${entry.status}${entry.operation ? ` (${entry.operation})` : ''}`;
    return diff.length > 0 ? `${line}: ${diff.join('; ')}` : line;
  });
  return `Closest of the ${recorded} recorded:\n${lines.join('\n')}`;
}
