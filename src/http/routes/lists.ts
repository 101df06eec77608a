import { flatText } from '../../flat-text.js';
import { API_PREFIX } from '../../paths.js';
import { ADD_BY_EMAIL_BODY, EMAIL_QUERY, queryEmailAddress, readAddByEmail } from '../bodies.js';
import { responseTypeOf } from '../negotiate.js';
import { LISTS, MEMBERSHIP } from '../representations.js';
import { API_BODY_LIMIT, ID, Rendered, type Route, route } from '../route.js';
import { sharedSerializer } from '../serializers.js';

const serializeLists = sharedSerializer({ schema: LISTS.schema });
const tags = ['lists'];
const common = { auth: 'basic', tags, bodyLimit: API_BODY_LIMIT } as const;
const member = { listId: ID, contactId: ID };

/** GET /lists and list membership: add by id, add by email, remove by id or by email. */
export const LIST_ROUTES: readonly Route[] = [
  route({
    ...common,
    operationId: 'getLists',
    method: 'GET',
    path: `${API_PREFIX}/lists`,
    summary: "The server's contact lists.",
    status: 200,
    representation: LISTS,
    // The service has no call that changes lists, so the answer is cached until seeding (a new
    // listsRevision) or reset (a new Tenant) invalidates it.
    handle: ({ request, tenant, listAnswers }) => {
      let cached = listAnswers.get(tenant);
      if (cached?.revision !== tenant.listsRevision) {
        cached = { revision: tenant.listsRevision };
        listAnswers.set(tenant, cached);
      }
      const { format, contentType } = responseTypeOf(request);
      const lists = { serverId: tenant.serverId, items: tenant.lists.values() };
      // Kept in one piece: sent on every read, a rope would be copied piece by piece each time.
      if (format === 'xml') {
        cached.xml ??= flatText(LISTS.xml(lists));
        return new Rendered(contentType, cached.xml);
      }
      cached.json ??= flatText(serializeLists(LISTS.json(lists)));
      return new Rendered(contentType, cached.json);
    },
  }),
  route({
    ...common,
    operationId: 'addToListById',
    method: 'PUT',
    path: `${API_PREFIX}/lists/:listId/contacts/:contactId`,
    params: member,
    summary: 'Adds an existing contact to a list (re-adding is not an error).',
    status: 200,
    representation: MEMBERSHIP,
    errors: [404],
    handle: ({ tenant, params }) => tenant.addToListById(params.listId, params.contactId),
  }),
  route({
    ...common,
    operationId: 'addToListByEmail',
    method: 'PUT',
    path: `${API_PREFIX}/lists/:listId/contacts`,
    params: { listId: ID },
    body: ADD_BY_EMAIL_BODY,
    summary: 'Adds a contact by email address to a list, creating it when new.',
    status: 200,
    representation: MEMBERSHIP,
    errors: [400, 403, 404, 413, 415],
    handle: ({ tenant, params, request }) =>
      tenant.addToListByEmail(params.listId, readAddByEmail(request.body)),
  }),
  route({
    ...common,
    operationId: 'removeFromList',
    method: 'DELETE',
    path: `${API_PREFIX}/lists/:listId/contacts/:contactId`,
    params: member,
    summary: 'Removes a contact from one list; it stays on its other lists.',
    status: 204,
    errors: [404],
    handle: ({ tenant, params }) => tenant.removeFromList(params.listId, params.contactId),
  }),
  route({
    ...common,
    operationId: 'removeFromListByEmail',
    method: 'DELETE',
    path: `${API_PREFIX}/lists/:listId/contacts`,
    params: { listId: ID },
    query: EMAIL_QUERY,
    summary: 'Removes the contact with this email address from one list.',
    status: 204,
    errors: [400, 404],
    handle: ({ tenant, params, request }) =>
      tenant.removeFromListByEmail(params.listId, queryEmailAddress(request.query)),
  }),
];
