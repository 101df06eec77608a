/**
 * A tenant: one server of a fake that one test owns. It is the unit of a parallel test suite:
 * created in one line (`await using tenant = await fake.tenant(seed)`), scoped in everything it
 * touches (its data, its fault rules, its journal), and gone when the test ends. The same
 * interface serves an in-process fake (`fake.tenant()`) and a shared one reached over the control
 * API (`connectFakeMarketingServer(...).tenant()`), so the same test code runs against both:
 * every method that reads or changes state returns a promise.
 */

import type { WaitOptions } from '../core.js';
import { InvalidOptionError } from '../domain/errors.js';
import type { ServerSeed } from '../domain/seed-types.js';
import type { FaultRule } from '../faults/fault-rule.js';
import type { FaultView, MaintenanceOptions } from '../faults/faults.js';
import type { Har } from '../journal/har.js';
import type { JournalEntry } from '../journal/journal.js';
import type { RequestFilter } from '../journal/journal-filter.js';
import type { ServerView } from '../server-view.js';

export type { TenantSeed } from '../domain/seed-types.js';

/** A request for `tenant.inject()`: the tenant's Basic credentials are added to its headers. */
export interface TenantRequest {
  /** Default GET. */
  method?: string;
  /**
   * A path: `/lists` is the emulated API's `/marketing/v1/lists`; a path that starts with
   * `/marketing/` is taken as it is.
   */
  url: string;
  /** More headers; an `authorization` given here replaces the tenant's. */
  headers?: Record<string, string>;
  /** A body: objects and arrays are sent as JSON, strings as they are. */
  payload?: unknown;
}

/** What `tenant.inject()` resolves to: the answer, whole. */
export interface TenantResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | number | undefined>;
  /** The body as text. */
  readonly body: string;
  /** The body parsed as JSON. */
  json<T = unknown>(): T;
}

/** What `tenant.faults.add()` and `tenant.maintenance()` resolve to. */
export interface TenantFaultHandle {
  readonly id: string;
  /** Ends the rule and releases the requests it holds. */
  remove(): Promise<void>;
}

/**
 * A tenant's fault rules: each matches the tenant's own requests only (its `match.serverId` is
 * the tenant's, and a rule aimed at another server is refused with FaultRuleError).
 */
export interface TenantFaults {
  add(rule: FaultRule): Promise<TenantFaultHandle>;
  /** The rules that match this tenant's server. */
  list(): Promise<FaultView[]>;
  /** Ends one of this tenant's rules; false when it has none with that id. */
  remove(id: string): Promise<boolean>;
  clear(): Promise<void>;
}

/** One server of a fake, owned by one test; see the module comment. */
export interface Tenant extends AsyncDisposable {
  /** The Basic-auth username. */
  readonly serverId: number;
  /** The Basic-auth password, as created (a key regenerated later is not followed here). */
  readonly key: string;
  /** The `Authorization` header value: `Basic base64(serverId:key)`. */
  readonly authorization: string;
  /** `https://127.0.0.1:PORT/marketing/v1`; an in-process tenant's throws until the fake listens. */
  readonly baseUrl: string;
  readonly faults: TenantFaults;
  /** A request to the emulated API with this tenant's credentials preset. */
  inject(request: TenantRequest | string): Promise<TenantResponse>;
  /** This tenant's journal, oldest first: every exchange that named its server since its last reset. */
  requests(filter?: RequestFilter): Promise<JournalEntry[]>;
  /** The first of this tenant's requests that matches, recorded or arriving within `timeoutMs`. */
  waitForRequest(filter?: RequestFilter, options?: WaitOptions): Promise<JournalEntry>;
  /** This tenant's journal as HAR 1.2. */
  requestsHar(filter?: RequestFilter): Promise<Har>;
  /** An outage of this tenant's server alone. */
  maintenance(options?: MaintenanceOptions): Promise<TenantFaultHandle>;
  setMaxContacts(maxContacts: number): Promise<void>;
  /** This tenant's state as one server's seed. */
  exportState(): Promise<ServerSeed>;
  /** Back to its seed: data, key and cap; its fault rules end and its journal starts again. */
  reset(): Promise<void>;
  /** Removes the server: its key gets 401 from then on. Safe to call twice. */
  close(): Promise<void>;
}

/** A tenant of an in-process fake: also the read-only view of its server, for assertions. */
export interface LocalTenant extends Tenant {
  /** `fake.server(serverId)`: lists(), contacts(), contact(idOrEmail), ... read synchronously. */
  readonly server: ServerView;
}

/** The `Authorization` header value of Basic credentials. */
export function basicAuthorization(serverId: number, key: string): string {
  return `Basic ${Buffer.from(`${serverId}:${key}`).toString('base64')}`;
}

/**
 * The path a tenant request goes to: `/lists` is under `/marketing/v1`. A path that could leave
 * the emulated API once a client resolves it (a `.` or `..` segment, escaped or not, a backslash,
 * a scheme or host) is refused: a tenant's requests go to the emulated API only.
 */
export function tenantPath(url: string): string {
  if (typeof url !== 'string') {
    throw new InvalidOptionError(
      `a tenant request's url must be a path such as '/lists', got ${typeof url}`,
    );
  }
  const path = url.startsWith('/marketing/')
    ? url
    : `/marketing/v1${url.startsWith('/') ? '' : '/'}${url}`;
  const segments = path.split(/[?#]/, 1)[0]!.split('/');
  const dots = segments.some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment));
  if (
    dots ||
    path.includes('\\') ||
    path.startsWith('/marketing//') ||
    /[\u0000-\u001f]/.test(path)
  ) {
    throw new InvalidOptionError(
      `a tenant request goes to the emulated API only: '${url.slice(0, 100)}' could resolve elsewhere (a '.' or '..' segment, a backslash, a control character); give a path such as '/lists'.`,
    );
  }
  return path;
}

/** A body as a tenant request sends it, with its content type. */
export function tenantPayload(payload: unknown): { body?: string; type?: string } {
  if (payload === undefined) return {};
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) return { body: String(payload) };
  return { body: JSON.stringify(payload), type: 'application/json' };
}
