import { existsSync } from 'node:fs';
import {
  type FaultHandle,
  FaultSet,
  type Faults,
  type MaintenanceOptions,
} from './control/faults.js';
import { Journal, type JournalEntry } from './control/journal.js';
import { PendingRequests } from './control/pending.js';
import type { RequestMatch } from './control/request-match.js';
import { FaultRuleError, InvalidOptionError, StateError } from './domain/errors.js';
import { DEFAULT_MAX_CONTACTS, isWholeNumber } from './domain/rules.js';
import type { Seed } from './domain/seed-types.js';
import { type Credentials, Store } from './domain/store.js';
import { loadSeed, writeFileAtomically } from './files.js';
import { createServerView, type ServerView } from './server-view.js';

/** Options of {@link createFakeMarketingServer}. */
export interface FakeMarketingServerOptions {
  /** A seed object, or the path of a seed JSON file. */
  seed?: Seed | string;
  /**
   * A file that keeps the state across runs: loaded instead of `seed` when it exists, written by
   * `saveState()` (and `POST /__admin/save`, and the CLI on a clean exit), atomically.
   */
  stateFile?: string;
  /** Contact cap of servers whose seed sets none. Default 10 000. */
  maxContacts?: number;
  /** Time source for every timestamp. Default: real time. */
  clock?: () => Date;
  /** Requests kept in the journal (a ring buffer). Default 1000. */
  journalSize?: number;
  /** `true`, or pino options, to log requests. Default false. */
  logger?: boolean | Record<string, unknown>;
  /** When set, the control API needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
}

const DEFAULT_JOURNAL_SIZE = 1000;
const MAINTENANCE_MODES = ['unavailable', 'no-response', 'reset'];

function wholeNumberOption(value: number | undefined, name: string, fallback: number): number {
  const chosen = value ?? fallback;
  if (!isWholeNumber(chosen)) {
    throw new InvalidOptionError(`${name} must be a whole number of 0 or more, got ${chosen}`);
  }
  return chosen;
}

/**
 * The test double without its HTTP: the state (store), the fault rules, the requests they keep
 * waiting, the journal, and every operation the handle and the control API offer on them. It is
 * built first; the app is built from it, and the handle from both.
 */
export class Core {
  readonly store: Store;
  readonly journal: Journal;
  readonly pending = new PendingRequests();
  readonly faultSet: FaultSet;
  /** Fault rules: `add(rule)`, `list()`, `remove(id)`, `clear()`. */
  readonly faults: Faults;
  /** The fake's clock, in epoch ms. */
  readonly now: () => number;
  readonly adminToken: string | undefined;
  private readonly stateFile: string | undefined;

  /** Checks the options and loads the seed (or the state file); throws what to fix. */
  constructor(options: FakeMarketingServerOptions) {
    const maxContacts = wholeNumberOption(options.maxContacts, 'maxContacts', DEFAULT_MAX_CONTACTS);
    const journalSize = wholeNumberOption(options.journalSize, 'journalSize', DEFAULT_JOURNAL_SIZE);
    const { clock, adminToken, stateFile } = options;
    if (clock !== undefined && typeof clock !== 'function') {
      throw new InvalidOptionError('clock must be a function returning a Date');
    }
    if (adminToken !== undefined && (typeof adminToken !== 'string' || adminToken.length === 0)) {
      throw new InvalidOptionError('adminToken must be a non-empty string');
    }
    // Without a clock, Date.now: no Date object per request.
    this.now = clock ? () => clock().getTime() : Date.now;
    this.adminToken = adminToken;
    this.stateFile = stateFile;
    this.store = new Store({ defaultMaxContacts: maxContacts, now: this.now });
    const initial = stateFile !== undefined && existsSync(stateFile) ? stateFile : options.seed;
    if (initial !== undefined) this.store.seed(loadSeed(initial));
    this.store.markBaseline();
    this.journal = new Journal(journalSize);
    const faultSet = new FaultSet(this.now, this.pending);
    this.faultSet = faultSet;
    this.faults = {
      add: (rule) => faultSet.add(rule),
      list: () => faultSet.list(),
      remove: (id) => faultSet.remove(id),
      clear: () => faultSet.clear(),
    };
  }

  maintenance(options: MaintenanceOptions = {}): FaultHandle {
    const { mode = 'unavailable', ...limits } = options;
    if (!MAINTENANCE_MODES.includes(mode)) {
      throw new FaultRuleError(
        `maintenance mode must be unavailable, no-response or reset; got ${JSON.stringify(mode)}.`,
      );
    }
    return this.faultSet.add({ kind: mode, ...limits });
  }

  requests(filter?: RequestMatch): JournalEntry[] {
    return this.journal.entries(filter);
  }

  clearRequests(): void {
    this.journal.clear();
  }

  seed(seed: Seed | string): Credentials[] {
    return this.store.seed(loadSeed(seed));
  }

  reset(): void {
    this.store.reset();
    this.journal.clear();
    this.faultSet.clear();
  }

  resetServer(serverId: number): void {
    this.store.resetServer(serverId);
  }

  exportState(): Seed {
    return this.store.exportState();
  }

  saveState(): string {
    if (this.stateFile === undefined) {
      throw new StateError(
        'No state file: create the fake with the stateFile option to save its state.',
      );
    }
    writeFileAtomically(this.stateFile, `${JSON.stringify(this.exportState(), null, 2)}\n`);
    return this.stateFile;
  }

  addServer(options: { serverId?: number; key?: string; maxContacts?: number } = {}): Credentials {
    return this.store.addServer(options);
  }

  regenerateKey(serverId: number): string {
    return this.store.regenerateKey(serverId);
  }

  setMaxContacts(serverId: number, maxContacts: number): void {
    this.store.setMaxContacts(serverId, maxContacts);
  }

  server(serverId: number): ServerView {
    return createServerView(this.store, serverId);
  }

  /** Ends every fault and lets every waiting request go: held ones released, delayed ones answered. */
  drain(): void {
    this.faultSet.clear();
    this.pending.drain();
  }
}
