import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE, responseTypeOf } from '../negotiate.js';
import type { Representation } from '../representations.js';
import { type AppServices, Rendered, type Route } from '../route.js';
import { sharedSerializer } from '../serializers.js';

/**
 * The one fastify handler: the route's handler calls the domain, then the answer takes the
 * route's representation (JSON or XML by Accept), or is JSON (control API), or is sent as
 * rendered (pages, images, cached answers).
 */
export function dispatch(services: AppServices) {
  return function dispatch(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const route = request.operation!;
    const value = route.handle({
      ...services,
      request,
      reply,
      params: request.pathParams as never,
      tenant: request.tenant!,
    });
    return represent(route, value, request, reply);
  };
}

function represent(route: Route, value: unknown, request: FastifyRequest, reply: FastifyReply) {
  reply.code(route.status);
  if (value instanceof Rendered) return reply.type(value.contentType).send(value.body);
  if (value === undefined) return reply.send();
  const { representation } = route;
  if (!representation) return reply.type(JSON_TYPE.contentType).send(JSON.stringify(value));
  const { format, contentType } = responseTypeOf(request);
  reply.type(contentType);
  if (format === 'xml') return reply.send(representation.xml(value));
  return reply.send(serializerOf(representation)(representation.json(value)));
}

function serializerOf(representation: Representation<unknown>) {
  return sharedSerializer({ schema: representation.schema });
}
