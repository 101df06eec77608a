import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Core } from '../core.js';
import { StateError } from '../domain/errors.js';
import type { TenantSeed } from '../domain/seed-types.js';
import type { FaultHandle } from '../faults/faults.js';
import { toHar } from '../journal/har.js';
import type { ServerView } from '../server-view.js';
import {
  basicAuthorization,
  type LocalTenant,
  type TenantFaultHandle,
  type TenantFaults,
  type TenantRequest,
  type TenantResponse,
  tenantPath,
  tenantPayload,
} from './tenant.js';

/** What an in-process tenant needs of its fake. */
export interface LocalTenantParts {
  readonly core: Core;
  readonly inject: (options: InjectOptions) => Promise<LightMyRequestResponse>;
  /** The fake's baseUrl; throws before it listens. */
  readonly baseUrl: () => string;
}

/**
 * Creates a tenant of an in-process fake. Its methods return promises, as a remote tenant's do,
 * though each settles at once: a bad argument rejects with the same typed error the handle throws.
 */
export function createLocalTenant(parts: LocalTenantParts, seed?: TenantSeed): LocalTenant {
  const { core } = parts;
  const controls = core.tenants;
  const { serverId, key, generation } = controls.create(seed);
  const authorization = basicAuthorization(serverId, key);
  let closed = false;
  const view = core.server(serverId);
  // The view answers while this tenant holds its server: a newcomer with the same id is not it.
  const held =
    <A extends unknown[], R>(read: (...args: A) => R) =>
    (...args: A): R => {
      if (closed || !controls.isCurrent(serverId, generation)) {
        throw new StateError(`Tenant ${serverId} is closed: its server view reads nothing more.`);
      }
      return read(...args);
    };
  const server: ServerView = {
    serverId,
    key: held(view.key),
    maxContacts: held(view.maxContacts),
    lists: held(view.lists),
    contacts: held(view.contacts),
    contact: held(view.contact),
    customFields: held(view.customFields),
    content: held(view.content),
    listMembers: held(view.listMembers),
  };

  // Settles with what `work` returns, or rejects with what it throws: one shape for both fakes.
  const run = <T>(work: () => T | Promise<T>): Promise<T> => {
    try {
      if (closed) {
        throw new StateError(`Tenant ${serverId} is closed: create another with fake.tenant().`);
      }
      if (!controls.isCurrent(serverId, generation)) {
        throw new StateError(
          `Tenant ${serverId} was removed (by the fake's close, DELETE /__admin/tenants/${serverId} or removeServer): this handle no longer controls server ${serverId}, even if it was made again.`,
        );
      }
      return Promise.resolve(work());
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const handle = (made: FaultHandle): TenantFaultHandle => ({
    id: made.id,
    remove: () => run(() => void controls.removeFault(serverId, made.id)),
  });
  const faults: TenantFaults = {
    add: (rule) => run(() => handle(controls.addFault(serverId, rule))),
    list: () => run(() => controls.listFaults(serverId)),
    remove: (id) => run(() => controls.removeFault(serverId, id)),
    clear: () => run(() => controls.clearFaults(serverId)),
  };

  return {
    serverId,
    key,
    authorization,
    server,
    faults,
    get baseUrl() {
      return parts.baseUrl();
    },
    inject: (request) =>
      run(() => injectOptions(request, authorization)).then(async (options) =>
        toResponse(await parts.inject(options)),
      ),
    requests: (filter) => run(() => core.journal.entries(controls.journalFilter(serverId, filter))),
    waitForRequest: (filter, options) =>
      run(() =>
        core.waitForChecked(
          controls.journalFilter(serverId, filter),
          options,
          controls.scope(serverId),
        ),
      ),
    requestsHar: (filter) =>
      run(() => toHar(core.journal.entries(controls.journalFilter(serverId, filter)))),
    maintenance: (options) => run(() => handle(controls.maintenance(serverId, options))),
    setMaxContacts: (maxContacts) => run(() => core.setMaxContacts(serverId, maxContacts)),
    exportState: () => run(() => controls.exportState(serverId)),
    reset: () => run(() => controls.reset(serverId)),
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      // Removed already by another caller: nothing of its own is left to remove.
      if (controls.isCurrent(serverId, generation)) controls.remove(serverId);
      return Promise.resolve();
    },
    [Symbol.asyncDispose]() {
      return this.close();
    },
  };
}

function injectOptions(request: TenantRequest | string, authorization: string): InjectOptions {
  const {
    method = 'GET',
    url,
    headers = {},
    payload,
  } = typeof request === 'string' ? { url: request } : request;
  const { body, type } = tenantPayload(payload);
  return {
    method: method as InjectOptions['method'],
    url: tenantPath(url),
    headers: {
      authorization,
      ...(type === undefined ? {} : { 'content-type': type }),
      ...lowerCased(headers),
    },
    ...(body === undefined ? {} : { payload: body }),
  };
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
}

function toResponse(response: LightMyRequestResponse): TenantResponse {
  return {
    statusCode: response.statusCode,
    headers: response.headers,
    body: response.body,
    json: <T>() => JSON.parse(response.body) as T,
  };
}
