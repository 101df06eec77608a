import type { FaultKind } from './fault-rule.js';
import { compileMatch, type RequestMatch } from './request-match.js';

/** One request the fake received under `/marketing/`. */
export interface JournalEntry {
  /** Increases by one per request, from 1; survives the ring buffer dropping old entries. */
  id: number;
  /** ISO 8601, from the fake's clock, when the request arrived. */
  time: string;
  method: string;
  /** The path without the query string, e.g. `/marketing/v1/lists/3/contacts`. */
  path: string;
  /** Set when the request's Basic credentials were valid. */
  serverId?: number;
  /** The status sent; 0 when no response was sent (`reset`, `no-response`). */
  status: number;
  /** The fault kind that answered it, if any. */
  fault?: FaultKind;
}

export interface JournalRecord {
  readonly arrived: number;
  readonly method: string;
  readonly path: string;
  readonly serverId: number | undefined;
  readonly status: number;
  readonly fault: FaultKind | undefined;
}

/**
 * The last `capacity` requests, oldest first, in a fixed-size ring buffer: a sandbox that runs
 * for days keeps the same memory.
 */
export class Journal {
  private readonly slots: Slot[] = [];
  private readonly capacity: number;
  private next = 0;
  private lastId = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  record(record: JournalRecord): void {
    if (this.capacity === 0) return;
    this.lastId += 1;
    this.slots[this.next] = { id: this.lastId, record };
    this.next = (this.next + 1) % this.capacity;
  }

  entries(filter?: RequestMatch): JournalEntry[] {
    const ordered =
      this.slots.length < this.capacity
        ? this.slots
        : [...this.slots.slice(this.next), ...this.slots.slice(0, this.next)];
    const matches = compileMatch(filter);
    return ordered.filter((slot) => matches(slot.record)).map(toEntry);
  }

  clear(): void {
    this.slots.length = 0;
    this.next = 0;
  }
}

interface Slot {
  readonly id: number;
  readonly record: JournalRecord;
}

function toEntry({ id, record }: Slot): JournalEntry {
  const entry: JournalEntry = {
    id,
    time: new Date(record.arrived).toISOString(),
    method: record.method,
    path: record.path,
    status: record.status,
  };
  if (record.serverId !== undefined) entry.serverId = record.serverId;
  if (record.fault !== undefined) entry.fault = record.fault;
  return entry;
}
