import type { FastifyReply, FastifyRequest } from 'fastify';
import { answer } from '../answer.js';
import { JSON_TYPE, responseTypeOf } from '../negotiate.js';
import type { Representation } from '../representations.js';
import { type AppServices, Rendered, type Route } from '../route.js';
import { controlBody, NO_BODY, requireObjectBody } from '../routes/admin-bodies.js';
import { sharedSerializer } from '../serializers.js';

/**
 * The one fastify handler: the route's handler calls the domain, then the answer takes the
 * route's representation (JSON or XML by Accept), or is JSON (control API), or is sent as
 * rendered (pages, images, cached answers).
 */
export function dispatch(services: AppServices) {
  const { core, thumbnails, openApi, listAnswers } = services;
  return function dispatch(request: FastifyRequest, reply: FastifyReply) {
    const route = request.operation!;
    if (route.auth === 'admin') requireObjectBody(request.body, route.body);
    // A control route that takes no body still refuses one with names: a typo is caught.
    if (route.body === NO_BODY) controlBody(request.body, NO_BODY);
    // Every property spelled out: a spread here made the object slow to build on every request.
    const value = route.handle({
      core,
      thumbnails,
      openApi,
      listAnswers,
      request,
      reply,
      params: request.pathParams as never,
      tenant: request.tenant!,
    });
    if (value instanceof Promise) {
      return value.then((resolved) => represent(route, resolved, request, reply));
    }
    // Nothing returned: fastify would wait on the reply (it is thenable) only to learn it is sent.
    represent(route, value, request, reply);
  };
}

function represent(route: Route, value: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (route.status !== 200) reply.code(route.status);
  if (value instanceof Rendered) return answer(reply, value.contentType, value.body);
  if (value === undefined) return answer(reply, undefined);
  const { representation } = route;
  if (!representation) return answer(reply, JSON_TYPE.contentType, JSON.stringify(value));
  const { format, contentType } = responseTypeOf(request);
  if (format === 'xml') return answer(reply, contentType, representation.xml(value));
  return answer(reply, contentType, serializerOf(representation)(representation.json(value)));
}

function serializerOf(representation: Representation<unknown>) {
  return sharedSerializer({ schema: representation.schema });
}
