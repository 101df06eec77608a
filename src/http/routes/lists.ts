import type { FastifyInstance } from 'fastify';
import type { Tenant } from '../../domain/tenant.js';
import { queryEmailAddress, readAddByEmail } from '../bodies.js';
import { pathId, respond, responseTypeOf, tenantOf } from '../context.js';
import { LISTS, MEMBERSHIP } from '../representations.js';
import { ROUTE_DOCS } from '../route-docs.js';
import { LISTS_RESPONSE } from '../schemas.js';
import { sharedSerializer } from '../serializers.js';

interface ListParams {
  Params: { listId: string };
}
interface MemberParams {
  Params: { listId: string; contactId: string };
}

/** GET /lists and list membership: add by id, add by email, remove by id or by email. */
export function listRoutes(app: FastifyInstance, prefix: string): void {
  // The service has no call that changes lists, so GET /lists is answered from a cache that only
  // seeding (a new listsRevision) or reset (a new Tenant) invalidates.
  const answers = new WeakMap<Tenant, { revision: number; json?: string; xml?: string }>();
  const serializeLists = sharedSerializer({ schema: LISTS_RESPONSE[200] });
  app.get(`${prefix}/lists`, { schema: ROUTE_DOCS.getLists }, (request, reply) => {
    const tenant = tenantOf(request);
    let cached = answers.get(tenant);
    if (cached?.revision !== tenant.listsRevision) {
      cached = { revision: tenant.listsRevision };
      answers.set(tenant, cached);
    }
    const { format, contentType } = responseTypeOf(request);
    const lists = { serverId: tenant.serverId, items: tenant.lists.values() };
    reply.header('content-type', contentType);
    if (format === 'xml') {
      cached.xml ??= LISTS.xml(lists);
      return cached.xml;
    }
    cached.json ??= serializeLists(LISTS.json(lists));
    return cached.json;
  });

  app.put<MemberParams>(
    `${prefix}/lists/:listId/contacts/:contactId`,
    { schema: ROUTE_DOCS.addById },
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
    { schema: ROUTE_DOCS.addByEmail },
    (request, reply) => {
      const listId = pathId(request, request.params.listId);
      const membership = tenantOf(request).addToListByEmail(listId, readAddByEmail(request.body));
      return respond(request, reply, MEMBERSHIP, membership);
    },
  );

  app.delete<MemberParams>(
    `${prefix}/lists/:listId/contacts/:contactId`,
    { schema: ROUTE_DOCS.removeById },
    (request, reply) => {
      const { listId, contactId } = request.params;
      tenantOf(request).removeFromList(pathId(request, listId), pathId(request, contactId));
      return reply.code(204).send();
    },
  );

  app.delete<ListParams>(
    `${prefix}/lists/:listId/contacts`,
    { schema: ROUTE_DOCS.removeByEmail },
    (request, reply) => {
      const listId = pathId(request, request.params.listId);
      tenantOf(request).removeFromListByEmail(listId, queryEmailAddress(request.query));
      return reply.code(204).send();
    },
  );
}
