import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from './app.js';
import { Core, type FakeMarketingServerOptions, type WaitOptions } from './core.js';
import { InvalidOptionError, StateError } from './domain/errors.js';
import type { Seed, TenantSeed } from './domain/seed-types.js';
import type { Credentials } from './domain/store.js';
import type { FaultHandle, Faults, MaintenanceOptions } from './faults/faults.js';
import { isHostName } from './http/host-allow-list.js';
import { OPERATIONS } from './http/routes/table.js';
import type { Har } from './journal/har.js';
import type { JournalEntry } from './journal/journal.js';
import type { RequestFilter } from './journal/journal-filter.js';
import { type Address, isLoopbackHost, type ListenOptions, startServer } from './listen.js';
import { API_PREFIX } from './paths.js';
import type { ServerView } from './server-view.js';
import { createLocalTenant } from './tenants/local-tenant.js';
import type { LocalTenant } from './tenants/tenant.js';
import { type FetchDispatcher, TrustedClients } from './tenants/trust.js';

export type { FakeMarketingServerOptions } from './core.js';

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

/** The handle of one fake: its state, its test controls, and its socket once listening. */
export class FakeMarketingServer {
  /** Fault rules: `add(rule)`, `list()`, `remove(id)`, `clear()`. */
  readonly faults: Faults;
  private readonly core: Core;
  private readonly app: FastifyInstance;
  private listening: { server: Server; address: Address } | undefined;
  private closed = false;
  private readonly clients = new TrustedClients(() => this.address().ca);

  /** Use {@link createFakeMarketingServer}. */
  static async create(options: FakeMarketingServerOptions = {}): Promise<FakeMarketingServer> {
    const core = new Core(options, OPERATIONS);
    const app = await buildApp(core, { logger: options.logger ?? false });
    return new FakeMarketingServer(core, app);
  }

  private constructor(core: Core, app: FastifyInstance) {
    this.core = core;
    this.app = app;
    this.faults = core.faults;
  }

  /** An outage of the whole public API: 503s by default, or no response, or reset connections. */
  maintenance(options: MaintenanceOptions = {}): FaultHandle {
    return this.core.maintenance(options);
  }

  /**
   * The journal, oldest first: each request under `/marketing/` with what the fake answered.
   * A filter keeps the entries that match all it gives (method, path glob, serverId, status or
   * status class, operation, fault, sinceId, a partial body); a bad filter throws InvalidOptionError.
   */
  requests(filter?: RequestFilter): JournalEntry[] {
    return this.core.requests(filter);
  }

  /**
   * The first request that matches the filter, already recorded or arriving within `timeoutMs`
   * (default 5000). On time-out it rejects with WaitTimeoutError, whose message lists the
   * recorded requests closest to the filter and what differs in each.
   */
  waitForRequest(filter?: RequestFilter, options?: WaitOptions): Promise<JournalEntry> {
    return this.core.waitForRequest(filter, options);
  }

  /** The journal (optionally filtered) as an HTTP Archive, HAR 1.2; keys stay redacted. */
  requestsHar(filter?: RequestFilter): Har {
    return this.core.requestsHar(filter);
  }

  /** Empties the journal. */
  clearRequests(): void {
    this.core.clearRequests();
  }

  /** A request with no socket (fastify's inject): the fastest way to test. */
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse> {
    return this.app.inject(options);
  }

  /**
   * Starts listening; HTTPS with a self-signed localhost certificate unless told otherwise. With
   * that certificate (HTTPS, no key or cert of yours) the address's `ca` is always its PEM.
   */
  listen(
    options?: ListenOptions & { https?: true; key?: undefined; cert?: undefined },
  ): Promise<Address & { ca: string }>;
  listen(options?: ListenOptions): Promise<Address>;
  async listen(options: ListenOptions = {}): Promise<Address> {
    if (this.closed) throw new StateError('This fake is closed; create a new one.');
    if (this.listening) throw new StateError(`Already listening on ${this.listening.address.url}.`);
    const host = options.host ?? '127.0.0.1';
    const localControlOnly = options.localControlOnly === true && !this.core.adminToken;
    if (!isLoopbackHost(host) && !this.core.adminToken && !localControlOnly) {
      throw new InvalidOptionError(
        `Listening on ${host}, which is not a loopback address, would expose the control API; ` +
          'set the adminToken option first (or localControlOnly, to serve the controls to loopback clients only).',
      );
    }
    const { tlsHostnames = [] } = options;
    if (!Array.isArray(tlsHostnames) || !tlsHostnames.every(isHostName)) {
      throw new InvalidOptionError('tlsHostnames must be an array of host names or addresses');
    }
    // The host it was told to listen on, and the names in its certificate, are names its own
    // clients use.
    for (const name of [host, ...tlsHostnames]) this.core.hosts.add(name);
    const handler = (request: IncomingMessage, response: ServerResponse) =>
      this.app.routing(request, response);
    const { server, address } = await startServer(handler, options, API_PREFIX);
    this.listening = { server, address };
    this.core.certificate = address.ca;
    this.core.localControlOnly = localControlOnly;
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

  /**
   * The certificate PEM to trust: always there once listening on the default HTTPS (the fake made
   * it); undefined over plain HTTP (`https: false`) or with your own `key`/`cert`. Throws before
   * listen(). `fetch`, `dispatcher` and `httpsAgent` trust it for you.
   */
  get ca(): string | undefined {
    return this.address().ca;
  }

  /**
   * Node's `fetch`, trusting this fake's certificate and nothing global: plain `fetch` still
   * refuses it. A path (`'/marketing/v1/lists'`) is resolved against `url`. Throws before listen().
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return this.clients.fetch(() => this.url, input, init);
  }

  /** An undici dispatcher trusting this fake's certificate: `fetch(url, { dispatcher })`. */
  get dispatcher(): FetchDispatcher {
    return this.clients.dispatcher;
  }

  /** A keep-alive node:https Agent trusting this fake's certificate (node:https, axios, got). */
  get httpsAgent(): import('node:https').Agent {
    return this.clients.httpsAgent;
  }

  /**
   * A new tenant: one server from `seed` (one server's seed: lists, customFields, contacts,
   * content, maxContacts; serverId and key given or generated), scoped in everything it touches.
   * Its reset() goes back to that seed; the fake's reset() does too, and keeps it. Rejects with
   * SeedError (a bad seed, nothing added) or ServerExistsError.
   *
   * @example
   * await using tenant = await fake.tenant({ lists: [{ id: 1, name: 'Newsletter' }] });
   */
  tenant(seed?: TenantSeed): Promise<LocalTenant> {
    try {
      if (this.closed) throw new StateError('This fake is closed; create a new one.');
      const parts = {
        core: this.core,
        inject: (options: InjectOptions) => this.app.inject(options),
        baseUrl: () => this.baseUrl,
      };
      return Promise.resolve(createLocalTenant(parts, seed));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Stops listening and frees everything: held requests are released, delayed ones answered,
   * requests in flight get 2 s to finish, then their connections are cut (idle keep-alive sockets
   * close at once). Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.core.drain();
    await this.clients.close();
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
    return this.core.seed(seed);
  }

  /**
   * Back to exactly the state after creation; also clears the journal and every fault. Tenants
   * made with tenant() are kept, back to their own seed; servers added otherwise are removed.
   */
  reset(): void {
    this.core.reset();
  }

  /** One server back to its state after creation, or removed if it was added later. */
  resetServer(serverId: number): void {
    this.core.resetServer(serverId);
  }

  /** The whole state as a seed: `seed(exportState())` on a fresh fake reproduces it. */
  exportState(): Seed {
    return this.core.exportState();
  }

  /**
   * Writes the whole state to the `stateFile` option's file, atomically: a temporary file, then a
   * rename, so a crash mid-write never leaves a half-written file. Returns the file's path.
   */
  saveState(): string {
    return this.core.saveState();
  }

  /**
   * A new tenant; a missing serverId is a free 5-digit number, a missing key a fresh one. Throws
   * ServerExistsError for a serverId this fake holds, InvalidOptionError for a bad option.
   */
  addServer(options: { serverId?: number; key?: string; maxContacts?: number } = {}): Credentials {
    return this.core.addServer(options);
  }

  /** A new key for the server; the old one gets 401 from then on. Returns the new key. */
  regenerateKey(serverId: number): string {
    return this.core.regenerateKey(serverId);
  }

  /** The contact cap of one server. */
  setMaxContacts(serverId: number, maxContacts: number): void {
    this.core.setMaxContacts(serverId, maxContacts);
  }

  /** A read-only view of one server for assertions. */
  server(serverId: number): ServerView {
    return this.core.server(serverId);
  }

  private address(): Address {
    if (!this.listening) throw new StateError('Not listening: call and await listen() first.');
    return this.listening.address;
  }
}
