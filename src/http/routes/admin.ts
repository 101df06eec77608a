import { ApiError } from '../../domain/errors.js';
import { FAULT_RULE_SCHEMA, MAINTENANCE_SCHEMA } from '../../faults/fault-rule.js';
import { harFrame, toHarEntry } from '../../journal/har.js';
import { MAX_WAITS } from '../../journal/journal.js';
import { ADMIN_PREFIX } from '../../paths.js';
import { stateJson } from '../../state-json.js';
import { jsonStream, textStream } from '../json-stream.js';
import { JSON_TYPE } from '../negotiate.js';
import { CONTENTS } from '../representations.js';
import { ID, Rendered, type Route, route, SERVER_ID, TEXT } from '../route.js';
import {
  CONTROL_BODY_LIMIT,
  controlBody,
  MAX_CONTACTS_BODY,
  NO_BODY,
  SEED_BODY,
  SEED_BODY_LIMIT,
  SERVER_BODY,
} from './admin-bodies.js';
import {
  DEFAULT_HTTP_WAIT_MS,
  FILTER_QUERY,
  JOURNAL_OLDEST_ID,
  journalFilter,
  journalRead,
  longPoll,
  MAX_HTTP_WAIT_MS,
  READ_QUERY,
  WAIT_QUERY,
} from './admin-query.js';
import { contentWithThumbnails, selfOrigin } from './content.js';

const common = { auth: 'admin', tags: ['control'], bodyLimit: CONTROL_BODY_LIMIT } as const;
const server = { serverId: SERVER_ID };

/**
 * The control API under /__admin (WireMock's AdminRoutes in spirit): JSON only, never journaled and
 * never faulted. With an admin token set, every call needs `Authorization: Bearer <token>`.
 */
export const ADMIN_ROUTES: readonly Route[] = [
  route({
    ...common,
    operationId: 'health',
    method: 'GET',
    path: `${ADMIN_PREFIX}/health`,
    summary: 'Is the fake up?',
    status: 200,
    handle: () => ({ status: 'ok' }),
  }),
  route({
    ...common,
    operationId: 'certificate',
    method: 'GET',
    path: `${ADMIN_PREFIX}/ca.pem`,
    summary:
      'The certificate the fake made and serves, to trust (404 over HTTP or with your own certificate).',
    status: 200,
    renders: 'application/x-pem-file',
    handle: ({ core }) => {
      if (core.certificate === undefined) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail:
            'This fake made no certificate: it serves plain HTTP, or a certificate you gave it.',
        });
      }
      return new Rendered('application/x-pem-file', core.certificate);
    },
  }),
  route({
    ...common,
    operationId: 'openApi',
    method: 'GET',
    path: `${ADMIN_PREFIX}/openapi.json`,
    summary: 'This document.',
    status: 200,
    handle: ({ openApi }) => openApi(),
  }),
  route({
    ...common,
    operationId: 'exportState',
    method: 'GET',
    path: `${ADMIN_PREFIX}/state`,
    summary: 'The whole state, as a seed.',
    status: 200,
    // Streamed: a state past the longest string V8 holds (about 512 MiB) is never one string.
    handle: ({ core }) =>
      new Rendered(JSON_TYPE.contentType, textStream(stateJson(core.exportState()))),
  }),
  route({
    ...common,
    operationId: 'saveState',
    body: NO_BODY,
    method: 'POST',
    path: `${ADMIN_PREFIX}/save`,
    summary: 'Writes the state file (409 without one; 507 when it cannot be written).',
    status: 200,
    errors: [507],
    handle: ({ core }) => ({ stateFile: core.saveState() }),
  }),
  route({
    ...common,
    operationId: 'reset',
    body: NO_BODY,
    method: 'POST',
    path: `${ADMIN_PREFIX}/reset`,
    summary: 'Back to the state after creation; journal and faults cleared.',
    status: 204,
    handle: ({ core }) => core.reset(),
  }),
  route({
    ...common,
    operationId: 'seed',
    method: 'POST',
    path: `${ADMIN_PREFIX}/seed`,
    bodyLimit: SEED_BODY_LIMIT,
    body: SEED_BODY,
    summary: 'Adds servers and data (a seed), atomically.',
    status: 200,
    handle: ({ core, request }) => core.seed(request.body as never),
  }),
  route({
    ...common,
    operationId: 'addServer',
    method: 'POST',
    path: `${ADMIN_PREFIX}/servers`,
    body: SERVER_BODY,
    summary: 'Adds a tenant.',
    status: 201,
    handle: ({ core, request }) => core.addServer(controlBody(request.body, SERVER_BODY)),
  }),
  route({
    ...common,
    operationId: 'resetServer',
    body: NO_BODY,
    method: 'POST',
    path: `${ADMIN_PREFIX}/servers/:serverId/reset`,
    params: server,
    summary: 'Resets one tenant.',
    status: 204,
    handle: ({ core, params }) => core.resetServer(params.serverId),
  }),
  route({
    ...common,
    operationId: 'serverContent',
    method: 'GET',
    path: `${ADMIN_PREFIX}/servers/:serverId/content`,
    params: server,
    summary:
      "One tenant's content with thumbnail URLs, as GET /content answers it, without going through the emulated API (nothing is journaled).",
    status: 200,
    handle: ({ core, params, request, thumbnails }) =>
      CONTENTS.json(
        contentWithThumbnails(
          core.store.requireTenant(params.serverId),
          selfOrigin(request),
          thumbnails,
          core.now(),
        ),
      ),
  }),
  route({
    ...common,
    operationId: 'regenerateKey',
    body: NO_BODY,
    method: 'POST',
    path: `${ADMIN_PREFIX}/servers/:serverId/regenerate-key`,
    params: server,
    summary: 'A new key; the old one gets 401.',
    status: 200,
    handle: ({ core, params: { serverId } }) => ({ serverId, key: core.regenerateKey(serverId) }),
  }),
  route({
    ...common,
    operationId: 'setMaxContacts',
    method: 'PUT',
    path: `${ADMIN_PREFIX}/servers/:serverId/max-contacts`,
    params: server,
    body: MAX_CONTACTS_BODY,
    summary: 'Sets the contact cap.',
    status: 200,
    handle: ({ core, params: { serverId }, request }) => {
      const { maxContacts } = controlBody(request.body, MAX_CONTACTS_BODY);
      core.setMaxContacts(serverId, maxContacts as number);
      return { serverId, maxContacts };
    },
  }),
  route({
    ...common,
    operationId: 'requests',
    method: 'GET',
    path: `${ADMIN_PREFIX}/requests`,
    query: READ_QUERY,
    summary:
      'The request journal, oldest first, with whole exchanges; filtered by the query, the newest `last` only, without bodies with `bodies=none`. The Journal-Oldest-Id header gives the id of the oldest entry held (one past the newest when none is): a reader polling with sinceId drops what it holds below it.',
    status: 200,
    handle: ({ core, request, reply }) => {
      const { filter, read } = journalRead(request.query, (rest) => journalFilter(core, rest));
      reply.header(JOURNAL_OLDEST_ID, String(core.journal.oldestId));
      return new Rendered(
        JSON_TYPE.contentType,
        jsonStream('[', core.selectRequests(filter, read), ']'),
      );
    },
  }),
  route({
    ...common,
    operationId: 'request',
    method: 'GET',
    path: `${ADMIN_PREFIX}/requests/:id`,
    params: { id: ID },
    summary: 'One journal entry, whole, by its id; 404 once the journal no longer holds it.',
    status: 200,
    handle: ({ core, params }) => {
      const entry = core.journal.entry(params.id);
      if (entry === undefined) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail: `The journal holds no entry ${params.id} (cleared, or dropped for newer ones).`,
        });
      }
      return entry;
    },
  }),
  route({
    ...common,
    operationId: 'waitForRequest',
    method: 'GET',
    path: `${ADMIN_PREFIX}/requests/wait`,
    query: WAIT_QUERY,
    summary: `The first request that matches, recorded or arriving within timeoutMs (default ${DEFAULT_HTTP_WAIT_MS}, at most ${MAX_HTTP_WAIT_MS}); 404 listing the closest ones on time-out; 429 when ${MAX_WAITS} waits are already pending; 503 when the fake stops while waiting.`,
    status: 200,
    handle: ({ core, request, reply }) =>
      longPoll(core, request, reply, (filter) => journalFilter(core, filter)),
  }),
  route({
    ...common,
    operationId: 'requestsHar',
    method: 'GET',
    path: `${ADMIN_PREFIX}/requests.har`,
    query: FILTER_QUERY,
    summary: 'The journal as an HTTP Archive (HAR 1.2), filtered like GET /requests.',
    status: 200,
    handle: ({ core, request }) => {
      const { head, tail } = harFrame();
      const entries = core.selectRequests(journalFilter(core, request.query));
      return new Rendered(JSON_TYPE.contentType, jsonStream(head, entries, tail, toHarEntry));
    },
  }),
  route({
    ...common,
    operationId: 'clearRequests',
    body: NO_BODY,
    method: 'DELETE',
    path: `${ADMIN_PREFIX}/requests`,
    summary: 'Clears the journal.',
    status: 204,
    handle: ({ core }) => core.clearRequests(),
  }),
  route({
    ...common,
    operationId: 'listFaults',
    method: 'GET',
    path: `${ADMIN_PREFIX}/faults`,
    summary: 'The fault rules.',
    status: 200,
    handle: ({ core }) => core.faults.list(),
  }),
  route({
    ...common,
    operationId: 'addFault',
    method: 'POST',
    path: `${ADMIN_PREFIX}/faults`,
    body: FAULT_RULE_SCHEMA,
    summary: 'Adds a fault rule.',
    status: 201,
    handle: ({ core, request }) => {
      const { id } = core.faults.add(request.body as never);
      return core.faults.list().find((fault) => fault.id === id);
    },
  }),
  route({
    ...common,
    operationId: 'maintenance',
    method: 'POST',
    path: `${ADMIN_PREFIX}/maintenance`,
    body: MAINTENANCE_SCHEMA,
    summary: 'An outage of the whole public API.',
    status: 201,
    handle: ({ core, request }) => {
      const { id } = core.maintenance(request.body as never);
      return core.faults.list().find((fault) => fault.id === id);
    },
  }),
  route({
    ...common,
    operationId: 'clearFaults',
    body: NO_BODY,
    method: 'DELETE',
    path: `${ADMIN_PREFIX}/faults`,
    summary: 'Ends every fault rule.',
    status: 204,
    handle: ({ core }) => core.faults.clear(),
  }),
  route({
    ...common,
    operationId: 'removeFault',
    body: NO_BODY,
    method: 'DELETE',
    path: `${ADMIN_PREFIX}/faults/:id`,
    params: { id: TEXT },
    summary: 'Ends one fault rule.',
    status: 204,
    handle: ({ core, params }) => {
      if (!core.faults.remove(params.id)) {
        throw new ApiError('ADMIN_NOT_FOUND', {
          detail: `No fault rule has the id '${params.id}'.`,
        });
      }
    },
  }),
];
