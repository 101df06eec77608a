import type { WaitOptions } from '../core.js';
import { FakeMarketingServerError, InvalidOptionError, StateError } from '../domain/errors.js';
import type { Seed, ServerSeed, TenantSeed } from '../domain/seed-types.js';
import type { Credentials } from '../domain/store.js';
import type { FaultRule } from '../faults/fault-rule.js';
import type { FaultView, MaintenanceOptions } from '../faults/faults.js';
import type { Har } from '../journal/har.js';
import type { JournalEntry } from '../journal/journal.js';
import type { RequestFilter } from '../journal/journal-filter.js';
import {
  type Answer,
  CALL_TIMEOUT_MS,
  ControlClient,
  caText,
  notTheFake,
} from './control-client.js';
import {
  type Tenant,
  type TenantFaultHandle,
  type TenantFaults,
  type TenantRequest,
  type TenantResponse,
  tenantPath,
  tenantPayload,
} from './tenant.js';
import { type FetchDispatcher, TrustedClients } from './trust.js';

/** Options of {@link connectFakeMarketingServer}. */
export interface ConnectOptions {
  /** The fake's URL, as the CLI prints it: `https://127.0.0.1:8443` (a path after it is ignored). */
  url: string;
  /** The admin token, when the fake has one (`--admin-token`, `FMS_ADMIN_TOKEN`). */
  token?: string;
  /**
   * The certificate to trust, as PEM text or the path of a PEM file (`--ca-out`); needed for a
   * fake's own HTTPS certificate, which no system trusts.
   */
  ca?: string;
  /**
   * How long a control call waits for the fake's answer (its headers, or the next part of its
   * body); a long poll waits its own `timeoutMs` more. Default 30 000 ms.
   */
  timeoutMs?: number;
}

/** A wait over HTTP is a long poll of at most 60 s (the control API's bound). */
const MAX_REMOTE_WAIT_MS = 60_000;

/**
 * A handle to a fake running in another process (the CLI, a container, a sandbox another test
 * file started), over its control API: the same `tenant()` and `Tenant` as in process, and the
 * fake-wide controls as promises. `close()` lets go of this handle's connections; the fake runs on.
 */
export class RemoteFakeMarketingServer {
  /** `https://127.0.0.1:PORT` */
  readonly url: string;
  /** `url + '/marketing/v1'` */
  readonly baseUrl: string;
  /** The certificate this handle trusts, when given. */
  readonly ca: string | undefined;
  /** The fake's fault rules, fake-wide (a tenant's own are `tenant.faults`). */
  readonly faults: {
    add(rule: FaultRule): Promise<TenantFaultHandle>;
    list(): Promise<FaultView[]>;
    remove(id: string): Promise<boolean>;
    clear(): Promise<void>;
  };
  private readonly clients: TrustedClients;
  private readonly control: ControlClient;

  /** Use {@link connectFakeMarketingServer}. */
  constructor(options: ConnectOptions) {
    if (typeof options !== 'object' || options === null || typeof options.url !== 'string') {
      throw new InvalidOptionError(
        "connectFakeMarketingServer needs { url }, such as { url: 'https://127.0.0.1:8443', ca: 'ca.pem' }",
      );
    }
    let origin: string;
    try {
      const url = new URL(options.url);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(url.protocol);
      origin = url.origin;
    } catch {
      throw new InvalidOptionError(
        `url must be the fake's URL, such as https://127.0.0.1:8443; got ${options.url}`,
      );
    }
    const { token } = options;
    if (token !== undefined && (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token))) {
      throw new InvalidOptionError(
        'token must be the admin token: printable ASCII, no spaces or line breaks.',
      );
    }
    this.url = origin;
    this.baseUrl = `${origin}/marketing/v1`;
    this.ca = caText(options.ca);
    this.clients = new TrustedClients(() => this.ca);
    const { timeoutMs = CALL_TIMEOUT_MS } = options;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 1) {
      throw new InvalidOptionError(
        'timeoutMs must be a whole number of milliseconds of 1 or more.',
      );
    }
    const control = new ControlClient(origin, options.token, this.clients, timeoutMs);
    this.control = control;
    const handle = (view: FaultView): TenantFaultHandle => ({
      id: view.id,
      remove: () => control.call(`DELETE`, `/__admin/faults/${encodeURIComponent(view.id)}`),
    });
    this.faults = {
      add: async (rule) =>
        handle(await control.call('POST', '/__admin/faults', { body: rule, errors: 'fault' })),
      list: () => control.call('GET', '/__admin/faults', { shape: 'array' }),
      remove: async (id) => {
        try {
          await control.call('DELETE', `/__admin/faults/${encodeURIComponent(id)}`);
          return true;
        } catch (error) {
          if ((error as { code?: string }).code === 'ADMIN_NOT_FOUND') return false;
          throw error;
        }
      },
      clear: () => control.call('DELETE', '/__admin/faults'),
    };
  }

  /** A new tenant of the shared fake (`POST /__admin/tenants`); see `Tenant`. */
  async tenant(seed?: TenantSeed): Promise<Tenant> {
    const created = await this.control.call<Record<string, unknown>>('POST', '/__admin/tenants', {
      body: seed ?? {},
      errors: 'seed',
    });
    const { serverId, key, authorization } = created;
    if (
      !Number.isInteger(serverId) ||
      (serverId as number) < 1000 ||
      (serverId as number) > 99999 ||
      typeof key !== 'string' ||
      typeof authorization !== 'string'
    ) {
      throw notTheFake(
        this.url,
        'POST /__admin/tenants answered no serverId, key and authorization',
      );
    }
    return remoteTenant(this.control, this.baseUrl, {
      serverId: serverId as number,
      key,
      authorization,
    });
  }

  /** Adds servers and data (`POST /__admin/seed`). */
  seed(seed: Seed): Promise<Credentials[]> {
    return this.control.call('POST', '/__admin/seed', {
      body: seed,
      errors: 'seed',
      shape: 'array',
    });
  }

  /** The whole fake back to its seed; every tenant's journal and faults too. Prefer `tenant.reset()`. */
  reset(): Promise<void> {
    return this.control.call('POST', '/__admin/reset');
  }

  exportState(): Promise<Seed> {
    return this.control.call('GET', '/__admin/state');
  }

  requests(filter?: RequestFilter): Promise<JournalEntry[]> {
    return this.control.call('GET', '/__admin/requests', {
      query: { ...filter },
      errors: 'filter',
      shape: 'array',
    });
  }

  waitForRequest(filter?: RequestFilter, options?: WaitOptions): Promise<JournalEntry> {
    const timeoutMs = remoteWait(options);
    return this.control.call('GET', '/__admin/requests/wait', {
      query: { ...filter, timeoutMs },
      errors: 'wait',
      timeoutMs: timeoutMs + this.control.timeoutMs,
    });
  }

  requestsHar(filter?: RequestFilter): Promise<Har> {
    return this.control.call('GET', '/__admin/requests.har', {
      query: { ...filter },
      errors: 'filter',
    });
  }

  clearRequests(): Promise<void> {
    return this.control.call('DELETE', '/__admin/requests');
  }

  /** An outage of the whole public API, for every tenant. Prefer `tenant.maintenance()`. */
  async maintenance(options?: MaintenanceOptions): Promise<TenantFaultHandle> {
    const view = await this.control.call<FaultView>('POST', '/__admin/maintenance', {
      body: options ?? {},
      errors: 'fault',
    });
    return {
      id: view.id,
      remove: () => this.control.call('DELETE', `/__admin/faults/${encodeURIComponent(view.id)}`),
    };
  }

  /** Node's `fetch`, trusting the fake's certificate; a path is resolved against `url`. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    return this.clients.fetch(() => this.url, input, init);
  }

  /** An undici dispatcher trusting the fake's certificate. */
  get dispatcher(): FetchDispatcher {
    return this.clients.dispatcher;
  }

  /** A node:https Agent trusting the fake's certificate. */
  get httpsAgent(): import('node:https').Agent {
    return this.clients.httpsAgent;
  }

  /** `GET /__admin/health`: rejects with what to fix when the fake does not answer. */
  async health(): Promise<void> {
    let answer: unknown;
    try {
      answer = await this.control.call('GET', '/__admin/health');
    } catch (error) {
      // A refusal (a wrong token) says what to fix; a failed connection needs the hint.
      if (error instanceof FakeMarketingServerError) throw error;
      const cause =
        (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      throw new StateError(
        `No fake answers at ${this.url} (${cause ?? String(error)}): start it (npx fake-marketing-server), and pass ca (the file of --ca-out) for its own HTTPS certificate.`,
      );
    }
    if ((answer as { status?: unknown } | undefined)?.status !== 'ok') {
      throw notTheFake(this.url, 'GET /__admin/health did not answer { "status": "ok" }');
    }
  }

  /** Lets go of this handle's connections; the fake itself runs on. */
  close(): Promise<void> {
    return this.clients.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Connects to a fake running elsewhere (CLI, container) and checks that it answers: rejects with
 * what to fix when it is not there, its certificate is not trusted, or the token is wrong.
 *
 * @example
 * const fake = await connectFakeMarketingServer({ url: 'https://127.0.0.1:8443', ca: 'ca.pem' });
 * await using tenant = await fake.tenant({ lists: [{ id: 1, name: 'Newsletter' }] });
 */
export async function connectFakeMarketingServer(
  options: ConnectOptions,
): Promise<RemoteFakeMarketingServer> {
  const fake = new RemoteFakeMarketingServer(options);
  try {
    await fake.health();
  } catch (error) {
    await fake.close();
    throw error;
  }
  return fake;
}

function remoteWait(options: WaitOptions | undefined): number {
  const timeoutMs = options?.timeoutMs ?? 5000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 0 || timeoutMs > MAX_REMOTE_WAIT_MS) {
    throw new InvalidOptionError(
      `timeoutMs of a remote wait must be a whole number of milliseconds from 0 to ${MAX_REMOTE_WAIT_MS} (one long poll).`,
    );
  }
  return timeoutMs;
}

function remoteTenant(
  control: ControlClient,
  baseUrl: string,
  created: { serverId: number; key: string; authorization: string },
): Tenant {
  const { serverId, key, authorization } = created;
  const base = `/__admin/tenants/${serverId}`;
  let closed = false;
  const live = () => {
    if (closed)
      throw new StateError(`Tenant ${serverId} is closed: create another with fake.tenant().`);
  };
  const call = async <T>(
    method: string,
    path: string,
    options?: Parameters<ControlClient['call']>[2],
  ): Promise<T> => {
    live();
    return control.call<T>(method, `${base}${path}`, options);
  };
  const handle = (view: FaultView): TenantFaultHandle => ({
    id: view.id,
    remove: () => call(`DELETE`, `/faults/${encodeURIComponent(view.id)}`),
  });
  const faults: TenantFaults = {
    add: async (rule) => handle(await call('POST', '/faults', { body: rule, errors: 'fault' })),
    list: () => call('GET', '/faults', { shape: 'array' }),
    remove: async (id) => {
      try {
        await call('DELETE', `/faults/${encodeURIComponent(id)}`);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'ADMIN_NOT_FOUND') return false;
        throw error;
      }
    },
    clear: () => call('DELETE', '/faults'),
  };
  return {
    serverId,
    key,
    authorization,
    baseUrl,
    faults,
    inject: async (request) => {
      live();
      return toResponse(await control.send(...sendArguments(request, authorization)));
    },
    requests: (filter) =>
      call('GET', '/requests', { query: { ...filter }, errors: 'filter', shape: 'array' }),
    waitForRequest: async (filter, options) => {
      const timeoutMs = remoteWait(options);
      return call('GET', '/requests/wait', {
        query: { ...filter, timeoutMs },
        errors: 'wait',
        timeoutMs: timeoutMs + control.timeoutMs,
      });
    },
    requestsHar: (filter) =>
      call('GET', '/requests.har', { query: { ...filter }, errors: 'filter' }),
    maintenance: async (options) =>
      handle(await call('POST', '/maintenance', { body: options ?? {}, errors: 'fault' })),
    setMaxContacts: async (maxContacts) => {
      await call('PUT', '/max-contacts', { body: { maxContacts } });
    },
    exportState: () => call<ServerSeed>('GET', '/state'),
    reset: () => call('POST', '/reset'),
    close: async () => {
      if (closed) return;
      closed = true;
      await control.call('DELETE', base).catch((error: { code?: string }) => {
        // Removed already (the fake was reset past it, or restarted): nothing is left to close.
        if (error.code !== 'UNKNOWN_SERVER') throw error;
      });
    },
    [Symbol.asyncDispose]() {
      return this.close();
    },
  };
}

function sendArguments(
  request: TenantRequest | string,
  authorization: string,
): [string, string, Record<string, string>, string | undefined] {
  const {
    method = 'GET',
    url,
    headers = {},
    payload,
  } = typeof request === 'string' ? { url: request } : request;
  const { body, type } = tenantPayload(payload);
  const all: Record<string, string> = { authorization };
  if (type !== undefined) all['content-type'] = type;
  for (const [name, value] of Object.entries(headers)) all[name.toLowerCase()] = value;
  return [method, tenantPath(url), all, body];
}

function toResponse(answer: Answer): TenantResponse {
  return {
    statusCode: answer.status,
    headers: answer.headers,
    body: answer.text,
    json: <T>() => JSON.parse(answer.text) as T,
  };
}
