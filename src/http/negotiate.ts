import type { FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';

/** The two response formats of the service. */
export type Format = 'json' | 'xml';

export interface MediaType {
  readonly format: Format;
  readonly contentType: string;
}

export const JSON_TYPE: MediaType = {
  format: 'json',
  contentType: 'application/json; charset=utf-8',
};
const TEXT_XML: MediaType = { format: 'xml', contentType: 'text/xml; charset=utf-8' };
const APPLICATION_XML: MediaType = { format: 'xml', contentType: 'application/xml; charset=utf-8' };

// JSON first: where `*/*` (or `text/*`) is the best match, the order breaks the tie toward JSON.
const OFFERED = ['application/json', 'text/json', 'text/xml', 'application/xml'];
const BY_OFFER: Record<string, MediaType> = {
  'application/json': JSON_TYPE,
  'text/json': JSON_TYPE,
  'text/xml': TEXT_XML,
  'application/xml': APPLICATION_XML,
};
const CACHE_LIMIT = 256;

/** Chooses JSON or XML from an Accept header, with q-values honoured; JSON when nothing fits. */
export function negotiate(accept: string | undefined): MediaType {
  if (accept === undefined || accept === '' || accept === 'application/json') return JSON_TYPE;
  const chosen = new Negotiator({ headers: { accept } }).mediaType(OFFERED);
  return (chosen && BY_OFFER[chosen]) || JSON_TYPE;
}

/**
 * {@link negotiate}, remembering its answers: clients send the same few Accept headers over and
 * over. Bounded, and one per app, so fakes never share it.
 */
export function createNegotiator(): (accept: string | undefined) => MediaType {
  const cache = new Map<string, MediaType>();
  return (accept) => {
    if (accept === undefined) return JSON_TYPE;
    let mediaType = cache.get(accept);
    if (mediaType) return mediaType;
    mediaType = negotiate(accept);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(accept, mediaType);
    return mediaType;
  };
}

declare module 'fastify' {
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
