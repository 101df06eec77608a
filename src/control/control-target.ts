import type { Seed } from '../domain/seed-types.js';
import type { Credentials } from '../domain/store.js';
import type { FaultRule } from './fault-rule.js';
import type { FaultHandle, FaultView } from './faults.js';
import type { JournalEntry } from './journal.js';
import type { RequestMatch } from './request-match.js';

/** The fault rules of a fake, as its handle and the control API offer them. */
export interface Faults {
  /** Adds a rule; it answers matching requests until removed, out of `times`, or past `durationMs`. */
  add(rule: FaultRule): FaultHandle;
  list(): FaultView[];
  /** Ends one rule by id; false when there is none. */
  remove(id: string): boolean;
  /** Ends every rule and releases held requests. */
  clear(): void;
}

/** Options of `maintenance()`: an outage of the whole public API. */
export interface MaintenanceOptions {
  /** How the outage looks to clients; default `unavailable` (503). */
  mode?: 'unavailable' | 'no-response' | 'reset';
  durationMs?: number;
  times?: number;
}

/** What the control API drives: the handle's test-double operations. */
export interface ControlTarget {
  readonly faults: Faults;
  maintenance(options?: MaintenanceOptions): FaultHandle;
  requests(filter?: RequestMatch): JournalEntry[];
  clearRequests(): void;
  reset(): void;
  resetServer(serverId: number): void;
  seed(seed: Seed): Credentials[];
  exportState(): Seed;
  /** Writes the state file; throws StateError when the fake has none. */
  saveState(): string;
  addServer(options?: { serverId?: number; key?: string; maxContacts?: number }): Credentials;
  regenerateKey(serverId: number): string;
  setMaxContacts(serverId: number, maxContacts: number): void;
}
