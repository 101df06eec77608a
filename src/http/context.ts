import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import type { Tenant } from '../domain/tenant.js';
import { type MediaType, negotiate } from './negotiate.js';
import { ERROR, type Representation } from './representations.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The server the Basic credentials opened; set by the auth hook. */
    tenant: Tenant | null;
  }
  interface FastifyInstance {
    /** This app's Accept negotiation, remembered per Accept value. */
    readonly negotiate: (accept: string | undefined) => MediaType;
  }
}

/** JSON or XML, as negotiated from the request's Accept header. */
export function responseTypeOf(request: FastifyRequest): MediaType {
  // Requests rejected before routing (a malformed URL) may not reach the app's negotiator.
  const negotiator = request.server?.negotiate ?? negotiate;
  return negotiator(request.headers.accept);
}

/** Answers with `value` in the negotiated format. */
export function respond<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  representation: Representation<T>,
  value: T,
): string | object {
  const { format, contentType } = responseTypeOf(request);
  reply.header('content-type', contentType);
  return format === 'xml' ? representation.xml(value) : representation.json(value);
}

/**
 * The error envelope as a finished string, for answers sent outside a route's schema (injected
 * faults): the route's schema describes its success body, not this.
 */
export function errorBody(request: FastifyRequest, message: string) {
  const { format, contentType } = responseTypeOf(request);
  const body = format === 'xml' ? ERROR.xml(message) : JSON.stringify(ERROR.json(message));
  return { contentType, body };
}

/** The authenticated tenant: routes behind the auth hook always have one. */
export function tenantOf(request: FastifyRequest): Tenant {
  if (!request.tenant) throw new ApiError('UNAUTHORIZED');
  return request.tenant;
}

const ID = /^\d{1,15}$/;

/** A path id; anything but a positive integer means the route does not match (404). */
export function pathId(request: FastifyRequest, raw: string): number {
  const id = ID.test(raw) ? Number(raw) : 0;
  if (id < 1) throw new ApiError('ROUTE_NOT_FOUND', { method: request.method, path: request.url });
  return id;
}
