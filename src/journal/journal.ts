// The journal: every exchange under /marketing/, kept in a ring of the last `journalSize`, read
// back as entries (journal-entry.ts) with filters (journal-filter.ts), waited for (waitFor), and
// written out as HAR (har.ts). What it keeps is redacted before it gets here (src/redaction/).
// Body filters spend steps from the budgets of journal-budgets.ts, so that no read, wait or new
// entry can hold the server; the ring (journal-ring.ts) and the body store (journal-body.ts) keep
// an exchange in a few references, converted only when someone reads.
import { FakeClosedError, TooManyWaitsError } from '../domain/errors.js';
import { keep, RecentBodies } from './journal-body.js';
import {
  BudgetWindows,
  decodeCost,
  type FilterBudget,
  filterBudget,
  MAX_FILTER_STEPS,
  NOT_EXPLAINED,
  SHOWN_UNTESTED,
  scansSpent,
  spendInShares,
  tooCostly,
  type Untested,
  untestedNote,
} from './journal-budgets.js';
import type { JournalEntry, JournalRecord } from './journal-entry.js';
import { headOf, testedOf, toEntry, toEntryWithoutBodies } from './journal-entry-of.js';
import { type CompiledFilter, compileFilter, type RequestFilter } from './journal-filter.js';
import { describeNearest, nearestOf } from './journal-nearest.js';
import { JournalRing, type Slot } from './journal-ring.js';
import { WaitTimeoutError } from './wait-timeout-error.js';

export type {
  Headers,
  JournalEntry,
  JournalRecord,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
} from './journal-entry.js';
export { journalEntryOf } from './journal-entry-of.js';

interface Waiter {
  readonly filter: CompiledFilter;
  /** The server whose journal it waits on (a tenant's wait), if any. */
  readonly serverId: number | undefined;
  /**
   * New entries its body filter could not finish testing within its share of the budget: how
   * many, and the first ids (a few, however long the wait).
   */
  readonly untested: Untested;
  readonly resolve: (entry: JournalEntry) => void;
  readonly reject: (error: Error) => void;
}

/** How much of the journal a read returns, besides its filter. */
export interface ReadOptions {
  /** Only the newest `last` of the entries that match (still oldest first). */
  readonly last?: number;
  /**
   * False: each entry without its bodies (`body`, `bodyEncoding`, `bodyNote`), keeping
   * `bodySize` and `bodyTruncated`. True when not given.
   */
  readonly bodies?: boolean;
}

/** The most waits for a request pending at once; past it, a wait is refused at once. */
export const MAX_WAITS = 100;

/**
 * The last `capacity` exchanges, oldest first, in a fixed-size ring buffer whose bodies are cut at
 * `bodyLimit` bytes: a sandbox that runs for days keeps the same memory. Recording keeps the
 * headers and at most `bodyLimit` bytes of each body (a copy only when the body is larger, or is a
 * view of larger memory), never the whole record; entries are built
 * only when read.
 */
export class Journal {
  private readonly ring: JournalRing;
  private readonly capacity: number;
  private readonly bodyLimit: number;
  private readonly waiters = new Set<Waiter>();
  /** Bodies equal to one kept lately are kept as that one. */
  private readonly recentBodies = new RecentBodies();
  private readonly compile: (filter: RequestFilter) => CompiledFilter;
  private lastId = 0;
  /** The budget the messages of waits timing out share: one window (key 0) for all. */
  private readonly timeoutMessages: BudgetWindows;
  /**
   * The budget of first scans, per server a tenant's waits look at (a tenant's costly waits never
   * spend another's), and one for the fake-wide waits (key -1).
   */
  private readonly firstScans: BudgetWindows;

  /**
   * `compile` is {@link compileFilter} and `clock` milliseconds from a monotonic clock; a test may
   * count what a filter is asked, and stop the clock.
   */
  constructor(
    capacity: number,
    bodyLimit: number,
    compile = compileFilter,
    clock = () => performance.now(),
  ) {
    this.capacity = capacity;
    this.ring = new JournalRing(capacity);
    this.bodyLimit = bodyLimit;
    this.compile = compile;
    this.timeoutMessages = new BudgetWindows(clock);
    this.firstScans = new BudgetWindows(clock);
  }

  /** False when the journal keeps nothing (`journalSize: 0`): callers skip gathering a record. */
  get enabled(): boolean {
    return this.capacity > 0;
  }

  /** The id of the last exchange recorded (0 before the first); clear() does not reset it. */
  get newestId(): number {
    return this.lastId;
  }

  /**
   * Records an exchange; of each body, only what {@link keep} keeps is held. Its id, for
   * {@link Journal.setDuration}; undefined when the journal keeps nothing.
   */
  record(
    facts: JournalRecord,
    requestBody?: Buffer,
    responseBody?: string | Buffer,
  ): number | undefined {
    if (this.capacity === 0) return undefined;
    this.lastId += 1;
    const at = this.ring.write(
      this.lastId,
      facts,
      this.recentBodies.intern(keep(requestBody, this.bodyLimit)),
      this.recentBodies.intern(keep(responseBody, this.bodyLimit)),
    );
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: with no waiter, notifying builds an entry nobody is given (the test saves the work only)
    if (this.waiters.size > 0) this.notify(this.ring.at(at));
    return this.lastId;
  }

  /**
   * The real duration of an exchange recorded before it ended (a request held without an answer,
   * recorded when it was held so that a test can wait for it), once it has ended. Nothing happens
   * when the entry has left the journal since.
   */
  setDuration(id: number, durationMs: number): void {
    this.ring.setDuration(id, durationMs);
  }

  /** The id of the oldest entry held; one past {@link newestId} when none is held. */
  get oldestId(): number {
    return this.ring.oldestId() ?? this.lastId + 1;
  }

  entries(filter?: RequestFilter): JournalEntry[] {
    return [...this.select(filter)];
  }

  /** The entry `id`, whole, while the journal holds it. */
  entry(id: number): JournalEntry | undefined {
    const slot = this.ordered().find((held) => held.id === id);
    return slot === undefined ? undefined : toEntry(slot);
  }

  /**
   * The entries that match, oldest first, each built only when the one before has been taken: a
   * reader that writes them out one by one holds one entry at a time, never the whole journal.
   * A `body` filter is tested on every entry first, within one budget of
   * {@link MAX_FILTER_STEPS} for the whole read: past it, `InvalidOptionError` (HTTP: 400) says
   * to narrow the read, before anything is written.
   */
  select(filter?: RequestFilter, read: ReadOptions = {}): Iterable<JournalEntry> {
    const { last, bodies = true } = read;
    const build = bodies ? toEntry : toEntryWithoutBodies;
    const newest = (slots: Slot[]) => (last === undefined ? slots : slots.slice(-last));
    const slots = this.ordered();
    if (!filter) return built(newest(slots), build);
    const budget = filterBudget();
    // Only the slots are held; their entries are built as they are written, one at a time.
    const found = [...matching(slots, this.compile(filter), budget)];
    if (budget.steps < 0) throw tooCostly();
    return built(newest(found), build);
  }

  /**
   * The first entry that matches, recorded already or arriving within `timeoutMs`; `signal` ends
   * the wait early (a client that went away), so that it no longer counts against the cap.
   */
  waitFor(
    filter: RequestFilter,
    timeoutMs: number,
    signal?: AbortSignal,
    scope?: JournalScope,
  ): Promise<JournalEntry> {
    const compiled = this.compile(filter);
    // The one scan of what is recorded, within one read's budget, shared by every wait asked in
    // the same window: 500 waits with costly body filters asked at once cost one read's steps in
    // all, not each (they held the event loop for seconds). From here on, only new entries are
    // tested.
    // Only a body filter spends steps: the others test what is known without them.
    const budget = compiled.needsEntry
      ? this.firstScans.budgetOf(scope?.serverId ?? -1)
      : filterBudget();
    const before = budget.steps;
    if (before <= 0) return Promise.reject(scansSpent());
    const found = matching(this.ordered(), compiled, budget).next();
    if (!found.done) return Promise.resolve(toEntry(found.value));
    if (budget.steps < 0) {
      return Promise.reject(before < MAX_FILTER_STEPS ? scansSpent() : tooCostly());
    }
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiters.size >= MAX_WAITS) return Promise.reject(new TooManyWaitsError(MAX_WAITS));
    return new Promise((resolve, reject) => {
      // Only ever a listener of `signal`: it is there.
      const abort = () => waiter.reject(signal!.reason);
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
        this.waiters.delete(waiter);
      };
      const waiter: Waiter = {
        filter: compiled,
        serverId: scope?.serverId,
        untested: { count: 0, ids: [] },
        resolve: (entry) => {
          settle();
          resolve(entry);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        // A tenant's wait is told of its own requests only: never of another server's.
        const recorded = scope
          ? this.ordered().filter((slot) => inScope(slot, scope))
          : this.ordered();
        const budget = this.timeoutMessages.budgetOf(0);
        const closest =
          budget.steps > 0 ? nearestOf(recorded, headOf, toEntry, compiled, 3, budget) : [];
        const shown =
          closest.length > 0 || recorded.length === 0
            ? describeNearest(closest, recorded.length)
            : NOT_EXPLAINED;
        const message = `No request matching ${compiled.describe()} arrived within ${timeoutMs} ms. ${shown}${untestedNote(waiter.untested)}`;
        waiter.reject(new WaitTimeoutError(message, closest));
      }, timeoutMs);
      // Not `once`: settle() removes it, whichever way the wait ends.
      signal?.addEventListener('abort', abort);
      this.waiters.add(waiter);
    });
  }

  /** Ends every wait: the fake is closing. */
  cancelWaits(): void {
    for (const waiter of [...this.waiters]) {
      waiter.reject(new FakeClosedError());
    }
  }

  /**
   * Ends the waits on one server's journal (its tenant was closed): a server made later with the
   * same id must not answer them.
   */
  cancelWaitsOf(serverId: number, reason: Error): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.serverId === serverId) waiter.reject(reason);
    }
  }

  clear(): void {
    this.ring.clear();
  }

  /** Slots oldest first. */
  private ordered(): Slot[] {
    return this.ring.ordered();
  }

  /**
   * A new entry, tested against each waiter; built only if one of them needs it. The body
   * filters share one read's budget for it ({@link spendInShares}); a wait that cannot finish is
   * not answered by this entry (it says so if it times out), and the other waits keep theirs.
   */
  private notify(slot: Slot): void {
    const head = headOf(slot);
    const waiters = [...this.waiters];
    let entry: JournalEntry | undefined;
    const costly: Waiter[] = [];
    for (const waiter of waiters) {
      if (!waiter.filter.matchesHead(head)) continue;
      entry ??= toEntry(slot);
      if (waiter.filter.needsEntry) costly.push(waiter);
      else waiter.resolve(entry);
    }
    const untested = spendInShares(waiters.length, costly, (waiter, budget) => {
      const found = waiter.filter.matches(entry!, budget);
      if (found) waiter.resolve(entry!);
      return found;
    });
    for (const waiter of untested) {
      waiter.untested.count += 1;
      if (waiter.untested.ids.length < SHOWN_UNTESTED) waiter.untested.ids.push(slot.id);
    }
  }
}

function* built(
  slots: readonly Slot[],
  build: (slot: Slot) => JournalEntry,
): Generator<JournalEntry, void, undefined> {
  for (const slot of slots) yield build(slot);
}

/**
 * The slots whose entries match: the head decides alone unless the filter reads the body; decoding
 * and testing the bodies spend `budget`, and the scan stops once it is spent.
 */
function* matching(
  slots: readonly Slot[],
  filter: CompiledFilter,
  budget: FilterBudget,
): Generator<Slot> {
  for (const slot of slots) {
    const head = headOf(slot);
    if (!filter.matchesHead(head)) continue;
    if (filter.needsEntry) {
      const tested = testedOf(slot, head);
      budget.steps -= decodeCost(tested);
      if (budget.steps < 0) return;
      if (!filter.matches(tested, budget)) {
        if (budget.steps < 0) return;
        continue;
      }
    }
    yield slot;
  }
}

/** The part of the journal a tenant sees: its server's entries, after its last reset. */
export interface JournalScope {
  readonly serverId: number;
  readonly sinceId: number;
}

function inScope({ id, facts }: Slot, scope: JournalScope): boolean {
  return facts.serverId === scope.serverId && id > scope.sinceId;
}
