import { existsSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { API_PREFIX, buildApp } from './app.js';
import type { ControlTarget, Faults, MaintenanceOptions } from './control/control-target.js';
import { FaultRuleError } from './control/fault-rule.js';
import { type FaultHandle, FaultSet } from './control/faults.js';
import { Journal, type JournalEntry } from './control/journal.js';
import type { RequestMatch } from './control/request-match.js';
import { InvalidOptionError, StateError } from './domain/errors.js';
import { DEFAULT_MAX_CONTACTS } from './domain/rules.js';
import type { Seed } from './domain/seed-types.js';
import { type Credentials, Store } from './domain/store.js';
import { loadSeed, writeFileAtomically } from './files.js';
import type { PendingDelays } from './http/faults-hook.js';
import { type Address, isLoopbackHost, type ListenOptions, startServer } from './listen.js';
import { createServerView, type ServerView } from './server-view.js';

export { loadSeed } from './files.js';
export type { Address, ListenOptions } from './listen.js';
export { isLoopbackHost } from './listen.js';

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
/** How long close() lets requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 2000;

/**
 * Creates a fake Marketing API. It answers `inject()` at once; call `listen()` for a socket.
 *
 * @example
 * await using fake = await createFakeMarketingServer({ seed: 'test/fixtures/small.json' });
 * const { baseUrl, ca } = await fake.listen();
 */
export function createFakeMarketingServer(
  options: FakeMarketingServerOptions = {},
): Promise<FakeMarketingServer> {
  return FakeMarketingServer.create(options);
}

function checkOptions(options: FakeMarketingServerOptions) {
  const maxContacts = options.maxContacts ?? DEFAULT_MAX_CONTACTS;
  if (!Number.isSafeInteger(maxContacts) || maxContacts < 0) {
    throw new InvalidOptionError(
      `maxContacts must be a whole number of 0 or more, got ${maxContacts}`,
    );
  }
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE;
  if (!Number.isSafeInteger(journalSize) || journalSize < 0) {
    throw new InvalidOptionError(
      `journalSize must be a whole number of 0 or more, got ${journalSize}`,
    );
  }
  const { clock } = options;
  if (clock !== undefined && typeof clock !== 'function') {
    throw new InvalidOptionError('clock must be a function returning a Date');
  }
  const { adminToken } = options;
  if (adminToken !== undefined && (typeof adminToken !== 'string' || adminToken.length === 0)) {
    throw new InvalidOptionError('adminToken must be a non-empty string');
  }
  // Without a clock, Date.now: no Date object per request.
  const now = clock ? () => clock().getTime() : Date.now;
  return { maxContacts, journalSize, now, adminToken };
}

/** The handle of one fake: its state, its test controls, and its socket once listening. */
export class FakeMarketingServer implements ControlTarget {
  /** Fault rules: `add(rule)`, `list()`, `remove(id)`, `clear()`. */
  readonly faults: Faults;
  private readonly store: Store;
  private readonly faultSet: FaultSet;
  private readonly journal: Journal;
  private readonly adminToken: string | undefined;
  private readonly stateFile: string | undefined;
  private app!: FastifyInstance;
  private delays!: PendingDelays;
  private listening: { server: Server; address: Address } | undefined;
  private closed = false;

  /** Use {@link createFakeMarketingServer}. */
  static async create(options: FakeMarketingServerOptions = {}): Promise<FakeMarketingServer> {
    const { maxContacts, journalSize, now, adminToken } = checkOptions(options);
    const store = new Store({ defaultMaxContacts: maxContacts, now });
    const { stateFile } = options;
    const initial = stateFile !== undefined && existsSync(stateFile) ? stateFile : options.seed;
    if (initial !== undefined) store.seed(loadSeed(initial));
    store.markBaseline();
    const fake = new FakeMarketingServer(
      store,
      new FaultSet(now),
      new Journal(journalSize),
      adminToken,
      stateFile,
    );
    const { app, delays } = await buildApp({
      store,
      now,
      faults: fake.faultSet,
      journal: fake.journal,
      control: fake,
      adminToken,
      logger: options.logger ?? false,
    });
    fake.app = app;
    fake.delays = delays;
    return fake;
  }

  private constructor(
    store: Store,
    faults: FaultSet,
    journal: Journal,
    adminToken: string | undefined,
    stateFile: string | undefined,
  ) {
    this.store = store;
    this.faultSet = faults;
    this.journal = journal;
    this.adminToken = adminToken;
    this.stateFile = stateFile;
    this.faults = {
      add: (rule) => faults.add(rule),
      list: () => faults.list(),
      remove: (id) => faults.remove(id),
      clear: () => faults.clear(),
    };
  }

  /** An outage of the whole public API: 503s by default, or no response, or reset connections. */
  maintenance(options: MaintenanceOptions = {}): FaultHandle {
    const { mode = 'unavailable', ...limits } = options;
    if (!['unavailable', 'no-response', 'reset'].includes(mode)) {
      throw new FaultRuleError(
        `maintenance mode must be unavailable, no-response or reset; got ${JSON.stringify(mode)}.`,
      );
    }
    return this.faultSet.add({ kind: mode, ...limits });
  }

  /** The journal, oldest first, optionally filtered like fault matching. */
  requests(filter?: RequestMatch): JournalEntry[] {
    return this.journal.entries(filter);
  }

  clearRequests(): void {
    this.journal.clear();
  }

  /** A request with no socket (fastify's inject): the fastest way to test. */
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse> {
    return this.app.inject(options);
  }

  /** Starts listening; HTTPS with a self-signed localhost certificate unless told otherwise. */
  async listen(options: ListenOptions = {}): Promise<Address> {
    if (this.closed) throw new StateError('This fake is closed; create a new one.');
    if (this.listening) throw new StateError(`Already listening on ${this.listening.address.url}.`);
    const host = options.host ?? '127.0.0.1';
    if (!isLoopbackHost(host) && !this.adminToken) {
      throw new InvalidOptionError(
        `Listening on ${host}, which is not a loopback address, would expose the control API; ` +
          'set the adminToken option first.',
      );
    }
    const handler = (request: IncomingMessage, response: ServerResponse) =>
      this.app.routing(request, response);
    const { server, address } = await startServer(handler, options, API_PREFIX);
    this.listening = { server, address };
    return address;
  }

  /** `https://127.0.0.1:PORT`; throws before listen(). */
  get url(): string {
    return this.address().url;
  }

  /** `url + '/marketing/v1'`; throws before listen(). */
  get baseUrl(): string {
    return this.address().baseUrl;
  }

  /** The certificate PEM to trust; undefined over HTTP or with your own key/cert. */
  get ca(): string | undefined {
    return this.address().ca;
  }

  /**
   * Stops listening and frees everything: held requests are released, delayed ones answered,
   * requests in flight finish (idle keep-alive sockets close at once). Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.faultSet.clear();
    this.delays.flush();
    const listening = this.listening;
    this.listening = undefined;
    if (listening) {
      const { server } = listening;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const deadline = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      await closed;
      clearTimeout(deadline);
    }
    await this.app.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /**
   * Adds servers and data, atomically: an invalid seed throws SeedError naming the exact path
   * and changes nothing. Seeding an existing serverId adds to that server.
   */
  seed(seed: Seed | string): Credentials[] {
    return this.store.seed(loadSeed(seed));
  }

  /** Back to exactly the state after creation; also clears the journal and every fault. */
  reset(): void {
    this.store.reset();
    this.journal.clear();
    this.faultSet.clear();
  }

  /** One server back to its state after creation, or removed if it was added later. */
  resetServer(serverId: number): void {
    this.store.resetServer(serverId);
  }

  /** The whole state as a seed: `seed(exportState())` on a fresh fake reproduces it. */
  exportState(): Seed {
    return this.store.exportState();
  }

  /**
   * Writes the whole state to the `stateFile` option's file, atomically: a temporary file, then a
   * rename, so a crash mid-write never leaves a half-written file. Returns the file's path.
   */
  saveState(): string {
    if (this.stateFile === undefined) {
      throw new StateError(
        'No state file: create the fake with the stateFile option to save its state.',
      );
    }
    writeFileAtomically(this.stateFile, `${JSON.stringify(this.exportState(), null, 2)}\n`);
    return this.stateFile;
  }

  /** A new tenant; a missing serverId is a free 5-digit number, a missing key a fresh one. */
  addServer(options: { serverId?: number; key?: string; maxContacts?: number } = {}): Credentials {
    return this.store.addServer(options);
  }

  /** A new key for the server; the old one gets 401 from then on. Returns the new key. */
  regenerateKey(serverId: number): string {
    return this.store.regenerateKey(serverId);
  }

  /** The contact cap of one server. */
  setMaxContacts(serverId: number, maxContacts: number): void {
    this.store.setMaxContacts(serverId, maxContacts);
  }

  /** A read-only view of one server for assertions. */
  server(serverId: number): ServerView {
    return createServerView(this.store, serverId);
  }

  private address(): Address {
    if (!this.listening) throw new StateError('Not listening: call and await listen() first.');
    return this.listening.address;
  }
}
