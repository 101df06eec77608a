import type { FastifyInstance } from 'fastify';
import { readEmailAddress } from '../bodies.js';
import { pathId, tenantOf } from '../context.js';
import { ROUTE_DOCS } from '../route-docs.js';

/** Server-wide unsubscribe, by id in the path or by email address in the body. */
export function unsubscribeRoutes(app: FastifyInstance, prefix: string): void {
  app.post<{ Params: { contactId: string } }>(
    `${prefix}/contacts/unsubscribe/:contactId`,
    { schema: ROUTE_DOCS.unsubscribeById },
    (request, reply) => {
      tenantOf(request).unsubscribe(pathId(request, request.params.contactId));
      return reply.code(200).send();
    },
  );

  app.post(
    `${prefix}/contacts/unsubscribe`,
    { schema: ROUTE_DOCS.unsubscribeByEmail },
    (request, reply) => {
      tenantOf(request).unsubscribeByEmail(readEmailAddress(request.body));
      return reply.code(200).send();
    },
  );
}
