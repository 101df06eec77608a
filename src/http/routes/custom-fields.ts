import type { FastifyInstance } from 'fastify';
import { pathId, respond, tenantOf } from '../context.js';
import { CUSTOM_FIELD, CUSTOM_FIELDS } from '../representations.js';
import { ROUTE_DOCS } from '../route-docs.js';

/** Listing, creating and deleting custom fields. */
export function customFieldRoutes(app: FastifyInstance, prefix: string): void {
  app.get(`${prefix}/customfields`, { schema: ROUTE_DOCS.getCustomFields }, (request, reply) => {
    const tenant = tenantOf(request);
    return respond(request, reply, CUSTOM_FIELDS, {
      serverId: tenant.serverId,
      items: tenant.fields.values(),
    });
  });

  const create = { schema: ROUTE_DOCS.createCustomField };
  app.post<{ Params: { name: string } }>(
    `${prefix}/customfields/:name`,
    create,
    (request, reply) => {
      const tenant = tenantOf(request);
      const field = tenant.createField(request.params.name);
      return respond(request, reply, CUSTOM_FIELD, { serverId: tenant.serverId, field });
    },
  );

  // No name at all is a name of length 0: the service's length message, not a 404.
  app.post(`${prefix}/customfields`, create, (request, reply) => {
    const tenant = tenantOf(request);
    const field = tenant.createField('');
    return respond(request, reply, CUSTOM_FIELD, { serverId: tenant.serverId, field });
  });

  app.delete<{ Params: { customFieldNameId: string } }>(
    `${prefix}/customfields/:customFieldNameId`,
    { schema: ROUTE_DOCS.deleteCustomField },
    (request, reply) => {
      tenantOf(request).deleteField(pathId(request, request.params.customFieldNameId));
      return reply.code(204).send();
    },
  );
}
