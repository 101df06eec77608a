import type { Core } from '../../core.js';
import { ApiError } from '../../domain/errors.js';
import { FAULT_RULE_SCHEMA, MAINTENANCE_SCHEMA } from '../../faults/fault-rule.js';
import { harFrame, toHarEntry } from '../../journal/har.js';
import { ADMIN_PREFIX } from '../../paths.js';
import { basicAuthorization } from '../../tenants/tenant.js';
import { jsonStream } from '../json-stream.js';
import { JSON_TYPE } from '../negotiate.js';
import { Rendered, type Route, route, SERVER_ID, TEXT } from '../route.js';
import {
  CONTROL_BODY_LIMIT,
  controlBody,
  MAX_CONTACTS_BODY,
  NO_BODY,
  requireObjectBody,
  SEED_BODY_LIMIT,
  TENANT_BODY,
} from './admin-bodies.js';
import {
  badFilter,
  FILTER_QUERY,
  filterInput,
  journalRead,
  longPoll,
  READ_QUERY,
  WAIT_QUERY,
} from './admin-query.js';

const common = {
  auth: 'admin',
  tags: ['tenants'],
  bodyLimit: CONTROL_BODY_LIMIT,
  params: { serverId: SERVER_ID },
} as const;
const TENANT = `${ADMIN_PREFIX}/tenants/:serverId`;

/** A tenant's journal filter from the query: narrowed to its server, since its last reset. */
function tenantFilter(core: Core, serverId: number, query: unknown) {
  return core.tenants.journalFilter(serverId, filterInput(query), badFilter);
}

/**
 * The control API of tenants, what a test in another process needs to own one server of a shared
 * fake: create it with its seed in one call, then everything scoped to it (its journal, faults,
 * outage, reset and removal), as the in-process `Tenant` offers. Any server id works, a seeded
 * server's too; its rules are those whose match names its id.
 */
export const TENANT_ROUTES: readonly Route[] = [
  route({
    ...common,
    params: {},
    operationId: 'createTenant',
    method: 'POST',
    path: `${ADMIN_PREFIX}/tenants`,
    bodyLimit: SEED_BODY_LIMIT,
    body: TENANT_BODY,
    summary:
      'A new tenant from one server seed (serverId and key chosen when missing); its reset goes back to this seed. Answers its serverId, key and Authorization header value.',
    status: 201,
    handle: ({ core, request }) => {
      requireObjectBody(request.body, TENANT_BODY);
      const { serverId, key } = core.tenants.create((request.body ?? {}) as never);
      return { serverId, key, authorization: basicAuthorization(serverId, key) };
    },
  }),
  route({
    ...common,
    operationId: 'removeTenant',
    body: NO_BODY,
    method: 'DELETE',
    path: TENANT,
    summary: 'Removes the server: its key gets 401 from then on; its fault rules end.',
    status: 204,
    handle: ({ core, params, request }) => {
      controlBody(request.body, NO_BODY);
      core.tenants.remove(params.serverId);
    },
  }),
  route({
    ...common,
    operationId: 'resetTenant',
    body: NO_BODY,
    method: 'POST',
    path: `${TENANT}/reset`,
    summary:
      'Back to its seed; its fault rules end and its journal starts again. Other tenants are untouched.',
    status: 204,
    handle: ({ core, params, request }) => {
      controlBody(request.body, NO_BODY);
      core.tenants.reset(params.serverId);
    },
  }),
  route({
    ...common,
    operationId: 'tenantState',
    method: 'GET',
    path: `${TENANT}/state`,
    summary: 'The server as one server of a seed.',
    status: 200,
    handle: ({ core, params }) => core.tenants.exportState(params.serverId),
  }),
  route({
    ...common,
    operationId: 'tenantRequests',
    method: 'GET',
    path: `${TENANT}/requests`,
    query: READ_QUERY,
    summary:
      "The tenant's journal: every exchange that named its server since its last reset, filtered by the query (and `last`, `bodies`, as GET /__admin/requests takes them).",
    status: 200,
    handle: ({ core, params, request }) => {
      const { filter, read } = journalRead(request.query, (rest) =>
        tenantFilter(core, params.serverId, rest),
      );
      return new Rendered(
        JSON_TYPE.contentType,
        jsonStream('[', core.selectRequests(filter, read), ']'),
      );
    },
  }),
  route({
    ...common,
    operationId: 'tenantWaitForRequest',
    method: 'GET',
    path: `${TENANT}/requests/wait`,
    query: WAIT_QUERY,
    summary:
      "The first of the tenant's requests that matches, as GET /__admin/requests/wait answers.",
    status: 200,
    handle: ({ core, params, request, reply }) =>
      longPoll(
        core,
        request,
        reply,
        (filter) => tenantFilter(core, params.serverId, filter),
        core.tenants.scope(params.serverId),
      ),
  }),
  route({
    ...common,
    operationId: 'tenantRequestsHar',
    method: 'GET',
    path: `${TENANT}/requests.har`,
    query: FILTER_QUERY,
    summary: "The tenant's journal as HAR 1.2.",
    status: 200,
    handle: ({ core, params, request }) => {
      const { head, tail } = harFrame();
      const entries = core.selectRequests(tenantFilter(core, params.serverId, request.query));
      return new Rendered(JSON_TYPE.contentType, jsonStream(head, entries, tail, toHarEntry));
    },
  }),
  route({
    ...common,
    operationId: 'tenantFaults',
    method: 'GET',
    path: `${TENANT}/faults`,
    summary: "The tenant's fault rules (those whose match names its server).",
    status: 200,
    handle: ({ core, params }) => core.tenants.listFaults(params.serverId),
  }),
  route({
    ...common,
    operationId: 'addTenantFault',
    method: 'POST',
    path: `${TENANT}/faults`,
    body: FAULT_RULE_SCHEMA,
    summary:
      "Adds a fault rule that matches the tenant's requests only (match.serverId is set; another server's id is refused).",
    status: 201,
    handle: ({ core, params, request }) => {
      requireObjectBody(request.body, FAULT_RULE_SCHEMA);
      const { id } = core.tenants.addFault(params.serverId, request.body);
      return core.tenants.listFaults(params.serverId).find((fault) => fault.id === id);
    },
  }),
  route({
    ...common,
    operationId: 'tenantMaintenance',
    method: 'POST',
    path: `${TENANT}/maintenance`,
    body: MAINTENANCE_SCHEMA,
    summary: "An outage of the tenant's server alone.",
    status: 201,
    handle: ({ core, params, request }) => {
      requireObjectBody(request.body, MAINTENANCE_SCHEMA);
      const { id } = core.tenants.maintenance(params.serverId, request.body as never);
      return core.tenants.listFaults(params.serverId).find((fault) => fault.id === id);
    },
  }),
  route({
    ...common,
    operationId: 'clearTenantFaults',
    body: NO_BODY,
    method: 'DELETE',
    path: `${TENANT}/faults`,
    summary: "Ends the tenant's fault rules; other tenants' and global rules stay.",
    status: 204,
    handle: ({ core, params, request }) => {
      controlBody(request.body, NO_BODY);
      core.tenants.clearFaults(params.serverId);
    },
  }),
  route({
    ...common,
    operationId: 'removeTenantFault',
    body: NO_BODY,
    method: 'DELETE',
    path: `${TENANT}/faults/:id`,
    params: { serverId: SERVER_ID, id: TEXT },
    summary: 'Ends one of the tenant’s fault rules (404 for a rule that is not its own).',
    status: 204,
    handle: ({ core, params, request }) => {
      controlBody(request.body, NO_BODY);
      if (!core.tenants.removeFault(params.serverId, params.id)) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail: `No fault rule of server ${params.serverId} has the id '${params.id}'.`,
        });
      }
    },
  }),
  route({
    ...common,
    operationId: 'setTenantMaxContacts',
    method: 'PUT',
    path: `${TENANT}/max-contacts`,
    body: MAX_CONTACTS_BODY,
    summary: "Sets the tenant's contact cap.",
    status: 200,
    handle: ({ core, params: { serverId }, request }) => {
      const { maxContacts } = controlBody(request.body, MAX_CONTACTS_BODY);
      core.setMaxContacts(serverId, maxContacts as number);
      return { serverId, maxContacts };
    },
  }),
];
