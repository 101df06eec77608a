import { API_PREFIX, BETA_PREFIX } from '../../paths.js';
import { EMAIL_BODY, readEmailAddress } from '../bodies.js';
import { API_BODY_LIMIT, ID, type Route, route } from '../route.js';

/** Server-wide unsubscribe, by id in the path or by email address in the body; v1 and beta alike. */
function unsubscribeRoutes(prefix: string, suffix: string): Route[] {
  const common = { auth: 'basic', tags: ['contacts'], bodyLimit: API_BODY_LIMIT } as const;
  return [
    route({
      ...common,
      operationId: `unsubscribeById${suffix}`,
      method: 'POST',
      path: `${prefix}/contacts/unsubscribe/:contactId`,
      params: { contactId: ID },
      summary: 'Unsubscribes a contact from the whole server.',
      status: 200,
      errors: [404],
      handle: ({ tenant, params }) => tenant.unsubscribe(params.contactId),
    }),
    route({
      ...common,
      operationId: `unsubscribeByEmail${suffix}`,
      method: 'POST',
      path: `${prefix}/contacts/unsubscribe`,
      body: EMAIL_BODY,
      summary: 'Unsubscribes the contact with this email address from the whole server.',
      status: 200,
      errors: [400, 404, 413, 415],
      handle: ({ tenant, request }) => tenant.unsubscribeByEmail(readEmailAddress(request.body)),
    }),
  ];
}

export const UNSUBSCRIBE_ROUTES: readonly Route[] = [
  ...unsubscribeRoutes(API_PREFIX, ''),
  // The service's own unsubscribe examples use `beta` for the version segment.
  ...unsubscribeRoutes(BETA_PREFIX, 'Beta'),
];
