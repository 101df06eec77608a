import { API_PREFIX } from '../../paths.js';
import { CUSTOM_FIELD, CUSTOM_FIELDS } from '../representations.js';
import { API_BODY_LIMIT, ID, type Route, route, TEXT } from '../route.js';

const common = { auth: 'basic', tags: ['custom fields'], bodyLimit: API_BODY_LIMIT } as const;
const CREATE_SUMMARY =
  'Creates a custom field (at most 20; 1 to 50 characters; not EmailAddress, ContactId or Id).';

/** Listing, creating and deleting custom fields. */
export const CUSTOM_FIELD_ROUTES: readonly Route[] = [
  route({
    ...common,
    operationId: 'getCustomFields',
    method: 'GET',
    path: `${API_PREFIX}/customfields`,
    summary: "The server's custom fields.",
    status: 200,
    representation: CUSTOM_FIELDS,
    handle: ({ tenant }) => ({ serverId: tenant.serverId, items: tenant.fields.values() }),
  }),
  route({
    ...common,
    operationId: 'createCustomField',
    method: 'POST',
    path: `${API_PREFIX}/customfields/:name`,
    params: { name: TEXT },
    summary: CREATE_SUMMARY,
    status: 200,
    representation: CUSTOM_FIELD,
    errors: [400, 409],
    handle: ({ tenant, params }) => ({
      serverId: tenant.serverId,
      field: tenant.createField(params.name),
    }),
  }),
  // No name at all is a name of length 0: the service's length message, not a 404.
  route({
    ...common,
    operationId: 'createCustomFieldWithoutName',
    method: 'POST',
    path: `${API_PREFIX}/customfields`,
    summary: `${CREATE_SUMMARY} Without a name: the length error.`,
    status: 200,
    representation: CUSTOM_FIELD,
    errors: [400, 409],
    handle: ({ tenant }) => ({ serverId: tenant.serverId, field: tenant.createField('') }),
  }),
  route({
    ...common,
    operationId: 'deleteCustomField',
    method: 'DELETE',
    path: `${API_PREFIX}/customfields/:customFieldNameId`,
    params: { customFieldNameId: ID },
    summary: 'Deletes a custom field and every value stored under it.',
    status: 204,
    errors: [404],
    handle: ({ tenant, params }) => tenant.deleteField(params.customFieldNameId),
  }),
];
