import { isUtf8 } from 'node:buffer';
import querystring from 'fast-querystring';
import { FakeClosedError, InvalidOptionError, TooManyWaitsError } from '../domain/errors.js';
import { parseJsonText } from '../domain/json-body.js';
import { isoTime } from '../domain/rules.js';
import {
  CutBody,
  jsonDepthExceeds,
  type Kept,
  keep,
  MAX_SHOWN_DEPTH,
  RecentBodies,
} from './journal-body.js';
import type { Headers, JournalEntry, JournalRecord, RecordedBody } from './journal-entry.js';
import {
  BODY_BYTES_PER_STEP,
  type CompiledFilter,
  compileFilter,
  decodeCost,
  describeNearest,
  type EntryHead,
  type FilterBudget,
  filterBudget,
  MAX_FILTER_STEPS,
  nearestOf,
  type RequestFilter,
} from './journal-filter.js';
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

interface Waiter {
  readonly filter: CompiledFilter;
  /** The server whose journal it waits on (a tenant's wait), if any. */
  readonly serverId: number | undefined;
  /**
   * New entries its body filter could not finish testing within its share of the budget: how
   * many, and the first ids (a few, however long the wait).
   */
  readonly untested: { count: number; ids: number[] };
  readonly resolve: (entry: JournalEntry) => void;
  readonly reject: (error: Error) => void;
}

/**
 * How long the waits timing out share one budget for their messages: at most
 * {@link MAX_FILTER_STEPS} steps (one read's) per second go to explaining time-outs.
 */
export const MESSAGE_BUDGET_MS = 1000;

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
  private readonly clock: () => number;
  /** See {@link Journal.messageBudget}: one window (key 0) for every wait timing out. */
  private readonly timeoutMessages = new Map<number, BudgetWindow>();
  /**
   * See {@link Journal.scanBudget}: the budget of first scans, and when it was given, per server
   * a tenant's waits look at (a tenant's costly waits never spend another's), and one for the
   * fake-wide waits (key -1).
   */
  private readonly firstScans = new Map<number, BudgetWindow>();

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
    this.clock = clock;
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
    const budget = compiled.needsEntry ? this.scanBudget(scope?.serverId ?? -1) : filterBudget();
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
        const budget = this.messageBudget();
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

  /**
   * What the first scans of the waits asked now may spend, shared by every wait of the same
   * owner (a tenant's server, or the fake-wide waits) asked within {@link MESSAGE_BUDGET_MS} of
   * the first: one read's {@link MAX_FILTER_STEPS} per window and owner.
   */
  private scanBudget(owner: number): FilterBudget {
    return this.windowed(this.firstScans, owner);
  }

  /**
   * The budget of `owner` in `windows`: a fresh {@link MAX_FILTER_STEPS} once its window of
   * {@link MESSAGE_BUDGET_MS} has passed. Windows past their second are dropped as new ones open,
   * so there is at most one per owner asking.
   */
  private windowed(windows: Map<number, BudgetWindow>, owner: number): FilterBudget {
    const now = this.clock();
    let window = windows.get(owner);
    if (window === undefined || now - window.since >= MESSAGE_BUDGET_MS) {
      for (const [key, old] of windows) {
        if (now - old.since >= MESSAGE_BUDGET_MS) windows.delete(key);
      }
      window = { budget: filterBudget(), since: now };
      windows.set(owner, window);
    }
    return window.budget;
  }

  /**
   * What the message of a wait timing out now may spend on the closest requests, shared by every
   * wait timing out within {@link MESSAGE_BUDGET_MS} of the first: 100 waits timing out together
   * cost one read's {@link MAX_FILTER_STEPS} in all, not each, and such messages never take more
   * than that per window.
   */
  private messageBudget(): FilterBudget {
    return this.windowed(this.timeoutMessages, 0);
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
   * filters share one budget of {@link MAX_FILTER_STEPS} for the entry, in equal shares; what the
   * others leave is then shared, in turn, by the waits that spent their share (a wide object's
   * names, built by the first wait to look, are cheap for it the second time). A wait that still
   * cannot finish is not answered by this entry (it says so if it times out), and the other
   * waits keep theirs.
   */
  private notify(slot: Slot): void {
    const head = headOf(slot);
    const waiters = [...this.waiters];
    const share = Math.floor(MAX_FILTER_STEPS / waiters.length);
    let left = MAX_FILTER_STEPS;
    const unfinished: Waiter[] = [];
    let entry: JournalEntry | undefined;
    for (const waiter of waiters) {
      const { filter } = waiter;
      if (!filter.matchesHead(head)) continue;
      entry ??= toEntry(slot);
      if (!filter.needsEntry) {
        waiter.resolve(entry);
        continue;
      }
      const budget = filterBudget(share);
      if (filter.matches(entry, budget)) waiter.resolve(entry);
      else if (budget.steps < 0) unfinished.push(waiter);
      left -= share - budget.steps;
    }
    // Made once, for the first wait that spent its share (which built the entry).
    let rest: FilterBudget | undefined;
    for (const waiter of unfinished) {
      rest ??= filterBudget(left);
      if (rest.steps > 0 && waiter.filter.matches(entry!, rest)) waiter.resolve(entry!);
      else if (rest.steps <= 0) {
        waiter.untested.count += 1;
        if (waiter.untested.ids.length < SHOWN_UNTESTED) waiter.untested.ids.push(slot.id);
      }
    }
  }
}

/**
 * One exchange as the journal shows it, for recorders outside the fake (the recording proxy):
 * the same entry, and so the same HAR, as the journal's own. The caller redacts first
 * (control/redact.ts), as the journal's own pipeline step does.
 */
export function journalEntryOf(
  id: number,
  facts: JournalRecord,
  requestBody: string | Buffer | undefined,
  responseBody: string | Buffer | undefined,
  bodyLimit = Number.POSITIVE_INFINITY,
): JournalEntry {
  return toEntry({
    id,
    facts,
    requestBody: keep(requestBody, bodyLimit),
    responseBody: keep(responseBody, bodyLimit),
  });
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

/**
 * What a filter reads of an entry: its head and its request body, without the rest (headers, the
 * response), which a read builds only for the entries that match.
 */
function testedOf(slot: Slot, head: EntryHead): JournalEntry {
  const request = { headers: {}, ...bodyOf(slot.requestBody, true) };
  return { ...head, request } as JournalEntry;
}

/** The error of a read whose `body` filter spent the read's budget. */
function tooCostly(): InvalidOptionError {
  return new InvalidOptionError(
    `Bad filter: testing the body filter against the journal needed more than ${MAX_FILTER_STEPS} steps in one read (a step is a value compared, or ${BODY_BYTES_PER_STEP} bytes of request body decoded); narrow the read with sinceId, operation, path, method or status, or give fewer array items.`,
  );
}

function scansSpent(): InvalidOptionError {
  return new InvalidOptionError(
    `Bad filter: the waits asked in the last second spent the ${MAX_FILTER_STEPS} steps their body filters share to look through the journal; ask again in a second, or narrow the wait with sinceId, operation, path, method or status.`,
  );
}

/** What a timed-out wait says instead of the closest requests when their shared budget is spent. */
const NOT_EXPLAINED = `The closest recorded requests are not shown: the waits that timed out in the last second spent the ${MAX_FILTER_STEPS} steps their messages share; read the journal (GET /__admin/requests) to see what arrived.`;

/** How many ids of untested entries a timed-out wait names. */
const SHOWN_UNTESTED = 5;

/** What a timed-out wait adds about new entries its filter could not finish testing. */
function untestedNote({ count, ids }: Waiter['untested']): string {
  if (count === 0) return '';
  const shown = ids.map((id) => `#${id}`).join(', ');
  const more = count > ids.length ? ` and ${count - ids.length} more` : '';
  return `\nNot fully tested (the body filter spent its share of the ${MAX_FILTER_STEPS} steps each new entry may take across all pending waits): ${shown}${more}.`;
}

/** A budget of steps, and when (by the journal's clock) it was given. */
interface BudgetWindow {
  readonly budget: FilterBudget;
  readonly since: number;
}

/** The part of the journal a tenant sees: its server's entries, after its last reset. */
export interface JournalScope {
  readonly serverId: number;
  readonly sinceId: number;
}

function inScope({ id, facts }: Slot, scope: JournalScope): boolean {
  return facts.serverId === scope.serverId && id > scope.sinceId;
}

/** What a filter reads of an entry besides its body, without building the entry. */
function headOf({ id, facts }: Slot): EntryHead {
  const query = facts.url.indexOf('?');
  return {
    id,
    method: facts.method,
    path: query === -1 ? facts.url : facts.url.slice(0, query),
    serverId: facts.serverId,
    status: facts.status,
    operation: facts.operation,
    fault: facts.fault,
  };
}

/**
 * The entry with its bodies' sizes but not the bodies: what a list of exchanges shows (the
 * inspector's journal), without decoding or sending up to two cut bodies per entry.
 */
function toEntryWithoutBodies(slot: Slot): JournalEntry {
  const entry = toEntry({ ...slot, requestBody: undefined, responseBody: undefined });
  Object.assign(entry.request, sizeOf(slot.requestBody));
  Object.assign(entry.response, sizeOf(slot.responseBody));
  return entry;
}

function sizeOf(kept: Kept): RecordedBody {
  if (kept === undefined) return {};
  if (kept instanceof CutBody) return { bodySize: kept.size, bodyTruncated: true };
  return { bodySize: Buffer.byteLength(kept) };
}

function toEntry({ id, facts: record, requestBody, responseBody }: Slot): JournalEntry {
  const query = record.url.indexOf('?');
  const entry: JournalEntry = {
    id,
    time: isoTime(record.arrived),
    method: record.method,
    path: query === -1 ? record.url : record.url.slice(0, query),
    url: `${record.protocol}://${record.requestHeaders.host ?? 'localhost'}${record.url}`,
    queryString: query === -1 ? '' : record.url.slice(query + 1),
    query: record.query ? { ...record.query } : queryOf(record.url, query),
    authenticated: record.authenticated === true,
    status: record.status,
    format: record.format,
    durationMs: record.durationMs,
    request: { headers: headersOf(record.requestHeaders), ...bodyOf(requestBody, true) },
    response: {
      status: record.status,
      headers:
        typeof record.responseHeaders === 'string'
          ? parseHeaderBlock(record.responseHeaders)
          : headersOf(record.responseHeaders),
      ...bodyOf(responseBody, false),
    },
  };
  if (record.serverId !== undefined) entry.serverId = record.serverId;
  if (record.fault !== undefined) entry.fault = record.fault;
  if (record.operation !== undefined) entry.operation = record.operation;
  if (record.note !== undefined) entry.note = record.note;
  return entry;
}

/**
 * The URL's query parameters (a repeated name gives an array), parsed on read by the parser
 * fastify used for the request, so the entry shows what the API read.
 */
function queryOf(url: string, mark: number): Record<string, string | string[]> {
  return mark === -1 ? {} : { ...querystring.parse(url.slice(mark + 1)) };
}

function headersOf(headers: Headers): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    copy[name] = typeof value === 'number' ? String(value) : value;
  }
  return copy;
}

/** `HTTP/1.1 200 OK\r\nname: value\r\n...` as `{ name: value }`, names lower-cased. */
function parseHeaderBlock(block: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const line of block.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const previous = headers[name];
    headers[name] = previous === undefined ? value : [...[previous].flat(), value];
  }
  return headers;
}

const DEEP_JSON_NOTE = `JSON nested deeper than ${MAX_SHOWN_DEPTH} levels: shown as text.`;

function bodyOf(kept: Kept, parseJson: boolean): RecordedBody {
  if (kept === undefined) return {};
  if (kept instanceof CutBody) return cutBodyOf(kept);
  // A string's UTF-8 bytes, a Buffer's length.
  const size = Buffer.byteLength(kept);
  if (typeof kept !== 'string' && !isUtf8(kept)) {
    return { body: kept.toString('base64'), bodyEncoding: 'base64', bodySize: size };
  }
  // UTF-8 for a Buffer, the string itself for a string.
  const text = kept.toString();
  if (parseJson && jsonDepthExceeds(text, MAX_SHOWN_DEPTH)) {
    // Parsed, it would overflow the stack of every reader (JSON.stringify, filters, HAR).
    return { body: text, bodySize: size, bodyNote: DEEP_JSON_NOTE };
  }
  if (parseJson) {
    try {
      // The API's own reader: a body it refused (a name given twice...) is not shown as JSON.
      return { body: parseJsonText(text), bodySize: size };
    } catch {
      // Not JSON by the API's rules: the text as it came.
    }
  }
  return { body: text, bodySize: size };
}

/** A body over the limit: its first bytes, as base64 or as text ending with a marker. */
function cutBodyOf({ data, size, binary }: CutBody): RecordedBody {
  if (binary) {
    return {
      body: data.toString('base64'),
      bodyEncoding: 'base64',
      bodySize: size,
      bodyTruncated: true,
    };
  }
  return {
    body: `${data.toString()}…[truncated: ${size} bytes in all]`,
    bodySize: size,
    bodyTruncated: true,
  };
}
