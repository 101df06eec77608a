import { existsSync } from 'node:fs';
import { InvalidOptionError, StateError, StateSaveError } from './domain/errors.js';
import {
  ADMIN_TOKEN_RULE,
  DEFAULT_MAX_CONTACTS,
  isAdminToken,
  isWholeNumber,
} from './domain/rules.js';
import { describe } from './domain/seed-check.js';
import type { Seed } from './domain/seed-types.js';
import { type Credentials, Store } from './domain/store.js';
import { maintenanceRule } from './faults/fault-rule.js';
import {
  type FaultHandle,
  FaultSet,
  type Faults,
  type MaintenanceOptions,
} from './faults/faults.js';
import { PendingRequests } from './faults/pending.js';
import {
  loadSeed,
  PRIVATE_FILE_MODE,
  removeStaleTemporaries,
  takenNameProblem,
  unwritableFileProblem,
  writeFailure,
  writeFileAtomically,
} from './files.js';
import { HostAllowList, isHostPattern } from './http/host-allow-list.js';
import { type Har, toHar } from './journal/har.js';
import {
  Journal,
  type JournalEntry,
  type JournalScope,
  type ReadOptions,
} from './journal/journal.js';
import { parseRequestFilter, type RequestFilter } from './journal/journal-filter.js';
import { Redactor } from './redaction/redact.js';
import { createServerView, type ServerView } from './server-view.js';
import { stateJson } from './state-json.js';
import { TenantControls } from './tenants/tenant-controls.js';

/** Options of {@link createFakeMarketingServer}. */
export interface FakeMarketingServerOptions {
  /**
   * A seed object, or the path of a seed JSON file. Without one the fake holds no server, and the
   * emulated API answers 401 saying so (the sandbox CLI starts on fixtures/default.json instead).
   */
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
  /**
   * Bytes of each request and response body the journal keeps; longer bodies are kept cut off,
   * with a marker and their whole length. Default 65 536 (64 KiB).
   */
  journalBodyLimit?: number;
  /** `true`, or pino options, to log requests. Default false. */
  logger?: boolean | Record<string, unknown>;
  /** When set, the control API needs `Authorization: Bearer <adminToken>`. */
  adminToken?: string;
  /**
   * Host names the control API answers besides IP addresses, `localhost`, names under
   * `.localhost` and the host given to `listen()`: e.g. a Docker network alias. A leading dot
   * allows every name under it (`.internal`).
   */
  allowedHosts?: string[];
}

const DEFAULT_JOURNAL_SIZE = 1000;
const DEFAULT_JOURNAL_BODY_LIMIT = 64 * 1024;
const DEFAULT_WAIT_MS = 5000;
/** Longest wait for a request: a test that needs more is waiting for something else. */
const MAX_WAIT_MS = 10 * 60 * 1000;

/** Options of `waitForRequest()`. */
export interface WaitOptions {
  /** How long to wait for a matching request, in ms. Default 5000. */
  timeoutMs?: number;
  /** Ends the wait early: it rejects with the signal's reason, and no longer counts as pending. */
  signal?: AbortSignal;
}

function* withNewline(pieces: Iterable<string>): Generator<string> {
  yield* pieces;
  yield '\n';
}

function wholeNumberOption(value: number | undefined, name: string, fallback: number): number {
  const chosen = value ?? fallback;
  if (!isWholeNumber(chosen)) {
    throw new InvalidOptionError(
      `${name} must be a whole number of 0 or more, got ${describe(chosen)}`,
    );
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
  /** Takes every key and the admin token out of what the journal records, and of logged URLs. */
  readonly redactor: Redactor;
  readonly pending = new PendingRequests();
  readonly faultSet: FaultSet;
  /** Fault rules: `add(rule)`, `list()`, `remove(id)`, `clear()`. */
  readonly faults: Faults;
  /** Controls scoped to one server: what a `Tenant` and `/__admin/servers/{id}/...` use. */
  readonly tenants: TenantControls;
  /** The fake's clock, in epoch ms. */
  readonly now: () => number;
  readonly adminToken: string | undefined;
  /** Host names the control API answers (DNS-rebinding protection). */
  readonly hosts: HostAllowList;
  /** The certificate the fake made and serves, once listening over HTTPS (GET /__admin/ca.pem). */
  certificate: string | undefined;
  /** The control API answers loopback peers only (listen's localControlOnly, without a token). */
  localControlOnly = false;
  private readonly stateFile: string | undefined;

  /** The operationIds a journal filter may name. */
  private readonly operations: ReadonlySet<string>;

  /**
   * Checks the options and loads the seed (or the state file); throws what to fix. `operations`
   * are the emulated API's operationIds, from the route table.
   */
  constructor(options: FakeMarketingServerOptions, operations: ReadonlySet<string>) {
    this.operations = operations;
    const maxContacts = wholeNumberOption(options.maxContacts, 'maxContacts', DEFAULT_MAX_CONTACTS);
    const journalSize = wholeNumberOption(options.journalSize, 'journalSize', DEFAULT_JOURNAL_SIZE);
    const journalBodyLimit = wholeNumberOption(
      options.journalBodyLimit,
      'journalBodyLimit',
      DEFAULT_JOURNAL_BODY_LIMIT,
    );
    const { clock, adminToken, stateFile } = options;
    if (clock !== undefined && typeof clock !== 'function') {
      throw new InvalidOptionError('clock must be a function returning a Date');
    }
    if (adminToken !== undefined && !isAdminToken(adminToken)) {
      throw new InvalidOptionError(ADMIN_TOKEN_RULE);
    }
    const { allowedHosts = [] } = options;
    if (!Array.isArray(allowedHosts) || !allowedHosts.every(isHostPattern)) {
      throw new InvalidOptionError(
        'allowedHosts must be an array of host names such as "sandbox" or ".internal"',
      );
    }
    this.hosts = new HostAllowList(allowedHosts);
    // Without a clock, Date.now: no Date object per request.
    this.now = clock ? () => clock().getTime() : Date.now;
    this.adminToken = adminToken;
    this.stateFile = stateFile;
    this.store = new Store({ defaultMaxContacts: maxContacts, now: this.now });
    // A save killed part-way (kill -9) left its temporary file next to the state file.
    if (stateFile !== undefined) removeStaleTemporaries(stateFile);
    const unwritable = stateFile === undefined ? undefined : unwritableFileProblem(stateFile);
    if (unwritable !== undefined)
      throw new InvalidOptionError(`stateFile ${stateFile} cannot be written: ${unwritable}.`);
    const initial = stateFile !== undefined && existsSync(stateFile) ? stateFile : options.seed;
    if (initial !== undefined) this.store.seed(loadSeed(initial));
    this.store.markBaseline();
    this.journal = new Journal(journalSize, journalBodyLimit);
    const { store } = this;
    this.redactor = new Redactor(
      {
        revision: () => store.keysRevision,
        secrets: () => (adminToken === undefined ? store.keys() : [...store.keys(), adminToken]),
        // The keys' changes since the redactor last read them: it reads every secret (the admin
        // token with them) the first time, and when it is too far behind.
        keyChanges: (position) => {
          const { keyLedger } = store;
          const changes = position === undefined ? undefined : keyLedger.changesSince(position);
          return { position: keyLedger.position, changes };
        },
      },
      journalBodyLimit,
    );
    const faultSet = new FaultSet(this.now, this.pending);
    this.faultSet = faultSet;
    this.faults = {
      add: (rule) => faultSet.add(rule),
      list: () => faultSet.list(),
      remove: (id) => faultSet.remove(id),
      clear: () => faultSet.clear(),
    };
    this.tenants = new TenantControls({
      store,
      journal: this.journal,
      faultSet,
      checkFilter: (filter, fail) => this.checkFilter(filter, fail),
    });
  }

  /** Options are checked like a rule's: a refused outage adds nothing. */
  maintenance(options: MaintenanceOptions = {}): FaultHandle {
    return this.faultSet.add(maintenanceRule(options));
  }

  requests(filter?: RequestFilter): JournalEntry[] {
    return this.journal.entries(this.checkFilter(filter));
  }

  /** The entries that match a checked filter, built one at a time as they are taken. */
  selectRequests(filter: RequestFilter, read?: ReadOptions): Iterable<JournalEntry> {
    return this.journal.select(filter, read);
  }

  waitForRequest(filter: RequestFilter = {}, options: WaitOptions = {}): Promise<JournalEntry> {
    return this.waitForChecked(this.checkFilter(filter), options);
  }

  /**
   * {@link waitForRequest} with a filter checked already; a tenant's wait gives its `scope`, so
   * that its time-out message tells of its own requests only.
   */
  waitForChecked(
    checked: RequestFilter,
    options: WaitOptions = {},
    scope?: JournalScope,
  ): Promise<JournalEntry> {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidOptionError(
        'waitForRequest options must be an object such as { timeoutMs: 5000 }',
      );
    }
    const { timeoutMs = DEFAULT_WAIT_MS } = options;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > MAX_WAIT_MS) {
      throw new InvalidOptionError(
        `timeoutMs must be a whole number of milliseconds from 0 to ${MAX_WAIT_MS}, got ${describe(timeoutMs)}`,
      );
    }
    if (!this.journal.enabled) {
      throw new StateError(
        'waitForRequest needs the journal: create the fake with a journalSize above 0.',
      );
    }
    return this.journal.waitFor(checked, timeoutMs, options.signal, scope);
  }

  requestsHar(filter?: RequestFilter): Har {
    return toHar(this.requests(filter));
  }

  /** Checks a journal filter from TypeScript; the control API checks its own with its messages. */
  checkFilter(
    filter: unknown,
    fail: (detail: string) => never = (detail) => {
      throw new InvalidOptionError(`Bad filter: ${detail}`);
    },
  ): RequestFilter {
    return parseRequestFilter(filter, fail, this.operations);
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
    // A neighbour can put a file at the name after the start too: the same refusal, with its
    // reason (the write itself would fail as "no permission" in a sticky folder).
    const problem = takenNameProblem(this.stateFile);
    if (problem !== undefined) throw new StateSaveError(this.stateFile, problem);
    const state = this.exportState();
    try {
      writeFileAtomically(this.stateFile, withNewline(stateJson(state, true)), PRIVATE_FILE_MODE);
    } catch (error) {
      throw new StateSaveError(this.stateFile, writeFailure(error, this.stateFile));
    }
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
    this.journal.cancelWaits();
  }
}
