import type { FaultKind } from '../faults/fault-rule.js';
import type { Kept } from './journal-body.js';
import type { Headers, JournalRecord } from './journal-entry.js';

/** One recorded exchange, as the journal reads it back from its ring. */
export interface Slot {
  readonly id: number;
  /** Bounded by Node's header size limit: the URL, the query and the headers. */
  readonly facts: JournalRecord;
  readonly requestBody: Kept;
  readonly responseBody: Kept;
}

type Query = JournalRecord['query'];

/**
 * The journal's last `capacity` exchanges, one column per fact. Recording writes each fact into
 * its column, in place once the ring has come round: numbers into arrays of numbers (held unboxed),
 * the rest (strings, the redacted headers, the kept bodies: mostly the very objects kept for the
 * exchange before, see journal/recent.ts and RecentBodies) into arrays of references. An exchange thus
 * leaves no new object behind that lives until the ring comes round. Objects made per exchange and
 * kept were copied by every young-generation collection they lived through, and so much surviving
 * made V8 grow its young generation past what the processor's caches hold, which slowed every
 * request, not only recording. The columns grow as exchanges arrive (a large `journalSize` costs
 * nothing until it fills); slots are built only when the journal is read.
 */
export class JournalRing {
  /** Also how many slots hold an exchange: its length. */
  private readonly ids: number[] = [];
  // Stryker disable ArrayDeclaration: a column's first item is written at position 0 before it is read (reads stop at ids' length), whatever the column starts with
  private readonly arrived: number[] = [];
  private readonly durations: number[] = [];
  private readonly statuses: number[] = [];
  private readonly protocols: string[] = [];
  private readonly methods: string[] = [];
  private readonly urls: string[] = [];
  private readonly queries: Query[] = [];
  private readonly serverIds: (number | undefined)[] = [];
  private readonly authenticated: boolean[] = [];
  private readonly operations: (string | undefined)[] = [];
  private readonly formats: ('json' | 'xml')[] = [];
  private readonly faults: (FaultKind | undefined)[] = [];
  private readonly requestHeaders: Headers[] = [];
  private readonly responseHeaders: (Headers | string)[] = [];
  private readonly notes: (string | undefined)[] = [];
  private readonly requestBodies: Kept[] = [];
  private readonly responseBodies: Kept[] = [];
  // Stryker restore ArrayDeclaration
  /** Where the next exchange goes: the end of the columns until they hold `capacity`. */
  private next = 0;

  constructor(private readonly capacity: number) {}

  /** Writes an exchange over the oldest one once the ring is full; its position, for {@link at}. */
  write(id: number, facts: JournalRecord, requestBody: Kept, responseBody: Kept): number {
    const at = this.next;
    this.ids[at] = id;
    this.arrived[at] = facts.arrived;
    this.durations[at] = facts.durationMs;
    this.statuses[at] = facts.status;
    this.protocols[at] = facts.protocol;
    this.methods[at] = facts.method;
    this.urls[at] = facts.url;
    this.queries[at] = facts.query;
    this.serverIds[at] = facts.serverId;
    this.authenticated[at] = facts.authenticated === true;
    this.operations[at] = facts.operation;
    this.formats[at] = facts.format;
    this.faults[at] = facts.fault;
    this.requestHeaders[at] = facts.requestHeaders;
    this.responseHeaders[at] = facts.responseHeaders;
    this.notes[at] = facts.note;
    this.requestBodies[at] = requestBody;
    this.responseBodies[at] = responseBody;
    this.next = (at + 1) % this.capacity;
    return at;
  }

  /**
   * Sets the `durationMs` of the exchange `id`, if the ring still holds it: an exchange recorded
   * before it ended (a request held by a `no-response` fault) learns how long it lasted.
   */
  setDuration(id: number, durationMs: number): void {
    const at = this.ids.lastIndexOf(id);
    // Stryker disable next-line ConditionalExpression: without the test, an id no longer held writes `durations[-1]`, a property no read looks at
    if (at !== -1) this.durations[at] = durationMs;
  }

  /** The exchange at a position {@link write} gave. */
  at(position: number): Slot {
    const facts: { -readonly [K in keyof JournalRecord]: JournalRecord[K] } = {
      arrived: this.arrived[position]!,
      durationMs: this.durations[position]!,
      protocol: this.protocols[position]!,
      method: this.methods[position]!,
      url: this.urls[position]!,
      serverId: this.serverIds[position],
      authenticated: this.authenticated[position]!,
      operation: this.operations[position],
      format: this.formats[position]!,
      status: this.statuses[position]!,
      fault: this.faults[position],
      requestHeaders: this.requestHeaders[position]!,
      responseHeaders: this.responseHeaders[position]!,
    };
    const query = this.queries[position];
    if (query !== undefined) facts.query = query;
    const note = this.notes[position];
    if (note !== undefined) facts.note = note;
    return {
      id: this.ids[position]!,
      facts,
      requestBody: this.requestBodies[position],
      responseBody: this.responseBodies[position],
    };
  }

  /** The id of the oldest exchange held, if any. */
  oldestId(): number | undefined {
    // Until the ring is full, the oldest is at 0; once full, where the next one goes.
    return this.ids.length === 0 ? undefined : this.ids[this.next % this.ids.length];
  }

  /** Every exchange held, oldest first. */
  ordered(): Slot[] {
    // Until the ring is full, `next` is where the columns end: the oldest is at 0 either way.
    const filled = this.ids.length;
    const slots: Slot[] = [];
    for (let index = 0; index < filled; index++) slots.push(this.at((this.next + index) % filled));
    return slots;
  }

  /** Forgets every exchange, and lets go of what they held. */
  clear(): void {
    for (const column of [
      this.ids,
      this.arrived,
      this.durations,
      this.statuses,
      this.protocols,
      this.methods,
      this.urls,
      this.queries,
      this.serverIds,
      this.authenticated,
      this.operations,
      this.formats,
      this.faults,
      this.requestHeaders,
      this.responseHeaders,
      this.notes,
      this.requestBodies,
      this.responseBodies,
    ]) {
      column.length = 0;
    }
    this.next = 0;
  }
}
