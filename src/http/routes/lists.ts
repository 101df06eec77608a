import type { FastifyInstance } from 'fastify';
import { queryEmailAddress, readAddByEmail } from '../bodies.js';
import { pathId, respond, tenantOf } from '../context.js';
import { LISTS, MEMBERSHIP } from '../representations.js';
import { EMPTY_RESPONSE, LISTS_RESPONSE, MEMBERSHIP_RESPONSE } from '../schemas.js';

interface ListParams {
  Params: { listId: string };
}
interface MemberParams {
  Params: { listId: string; contactId: string };
}

/** GET /lists and list membership: add by id, add by email, remove by id or by email. */
export function listRoutes(app: FastifyInstance, prefix: string): void {
  app.get(`${prefix}/lists`, { schema: { response: LISTS_RESPONSE } }, (request, reply) => {
    const tenant = tenantOf(request);
    return respond(request, reply, LISTS, {
      serverId: tenant.serverId,
      items: tenant.lists.values(),
    });
  });

  app.put<MemberParams>(
    `${prefix}/lists/:listId/contacts/:contactId`,
    { schema: { response: MEMBERSHIP_RESPONSE } },
    (request, reply) => {
      const { listId, contactId } = request.params;
      const membership = tenantOf(request).addToListById(
        pathId(request, listId),
        pathId(request, contactId),
      );
      return respond(request, reply, MEMBERSHIP, membership);
    },
  );

  app.put<ListParams>(
    `${prefix}/lists/:listId/contacts`,
    { schema: { response: MEMBERSHIP_RESPONSE } },
    (request, reply) => {
      const listId = pathId(request, request.params.listId);
      const membership = tenantOf(request).addToListByEmail(listId, readAddByEmail(request.body));
      return respond(request, reply, MEMBERSHIP, membership);
    },
  );

  app.delete<MemberParams>(
    `${prefix}/lists/:listId/contacts/:contactId`,
    { schema: { response: EMPTY_RESPONSE } },
    (request, reply) => {
      const { listId, contactId } = request.params;
      tenantOf(request).removeFromList(pathId(request, listId), pathId(request, contactId));
      return reply.code(204).send();
    },
  );

  app.delete<ListParams>(
    `${prefix}/lists/:listId/contacts`,
    { schema: { response: EMPTY_RESPONSE } },
    (request, reply) => {
      const listId = pathId(request, request.params.listId);
      tenantOf(request).removeFromListByEmail(listId, queryEmailAddress(request.query));
      return reply.code(204).send();
    },
  );
}
