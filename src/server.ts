import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { API_PREFIX, buildApp } from './app.js';
import { localhostCertificateOnce } from './certificate.js';
import type { ControlTarget, Faults, MaintenanceOptions } from './control/control-target.js';
import { FaultRuleError } from './control/fault-rule.js';
import { type FaultHandle, FaultSet } from './control/faults.js';
import { Journal, type JournalEntry } from './control/journal.js';
import type { RequestMatch } from './control/request-match.js';
import { InvalidOptionError, SeedError, StateError } from './domain/errors.js';
import { DEFAULT_MAX_CONTACTS } from './domain/rules.js';
import type { Seed } from './domain/seed-types.js';
import { type Credentials, Store } from './domain/store.js';
import type { PendingDelays } from './http/faults-hook.js';
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

/** Options of {@link FakeMarketingServer.listen}. */
export interface ListenOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. A host that is not loopback needs `adminToken`. */
  host?: string;
  /** Default true: HTTPS, with a self-signed localhost certificate unless key/cert are given. */
  https?: boolean;
  key?: string | Buffer;
  cert?: string | Buffer;
}

export interface Address {
  /** `https://127.0.0.1:PORT` */
  url: string;
  /** `url + '/marketing/v1'` */
  baseUrl: string;
  /** The PEM to trust, when the fake made its own certificate; undefined over plain HTTP. */
  ca: string | undefined;
}

const DEFAULT_JOURNAL_SIZE = 1000;
/** How long close() lets requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 2000;
const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.test(host);
}

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

/** Reads a seed given as a file path; objects pass through. */
export function loadSeed(seed: Seed | string): unknown {
  if (typeof seed !== 'string') return seed;
  let text: string;
  try {
    text = readFileSync(seed, 'utf8');
  } catch (error) {
    throw new SeedError('', `cannot read seed file ${seed}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeedError('', `seed file ${seed} is not valid JSON: ${(error as Error).message}`);
  }
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
    const { port = 0, host = '127.0.0.1', https = true } = options;
    if (!isLoopbackHost(host) && !this.adminToken) {
      throw new InvalidOptionError(
        `Listening on ${host}, which is not a loopback address, would expose the control API; ` +
          'set the adminToken option first.',
      );
    }
    if ((options.key === undefined) !== (options.cert === undefined)) {
      throw new InvalidOptionError('Give both key and cert, or neither.');
    }
    const handler = (request: IncomingMessage, response: ServerResponse) =>
      this.app.routing(request, response);
    let ca: string | undefined;
    let server: Server;
    if (https) {
      const own = options.key === undefined ? await localhostCertificateOnce() : undefined;
      ca = own?.cert;
      server = createHttpsServer(
        { key: own?.key ?? options.key, cert: own?.cert ?? options.cert },
        handler,
      );
    } else {
      server = createHttpServer(handler);
    }
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port: boundPort } = server.address() as AddressInfo;
    const url = `${https ? 'https' : 'http'}://${urlHost(host)}:${boundPort}`;
    const address = { url, baseUrl: url + API_PREFIX, ca };
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

function writeFileAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
