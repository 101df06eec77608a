import type { FastifyRequest } from 'fastify';

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

interface Offer {
  readonly type: string;
  readonly subtype: string;
  readonly mediaType: MediaType;
}
// JSON first: where `*/*` (or `text/*`) is the best match, the order breaks the tie toward JSON.
const OFFERS: readonly Offer[] = [
  { type: 'application', subtype: 'json', mediaType: JSON_TYPE },
  { type: 'text', subtype: 'json', mediaType: JSON_TYPE },
  { type: 'text', subtype: 'xml', mediaType: TEXT_XML },
  { type: 'application', subtype: 'xml', mediaType: APPLICATION_XML },
];
const CACHE_LIMIT = 256;

/** One media range of an Accept header: its type and subtype (lower case) and its q. */
interface Range {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
// RFC 9110's qvalue, plus the leading-dot form (`q=.2`) Java's default Accept sends.
const QVALUE = /^(?:0(?:\.\d*)?|\.\d+|1(?:\.0*)?)$/;
const OWS = /^[ \t]+|[ \t]+$/g;

/**
 * Splits `text` at `separator` outside quoted strings (where a backslash escapes the next
 * character), so `charset="a,b"` stays one parameter of one range.
 */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '\\') i++;
      else if (char === '"') quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * One element of an Accept header as a range, or undefined when it is not one (no `type/subtype`,
 * or a q that is not a quality value): such an element is skipped, as a parser that refuses it
 * would. Parameters other than q are read past: ASP.NET Web API's formatters offer media types
 * without parameters, and those match a range whatever parameters it carries. What follows q is
 * an accept-extension, never a parameter of the range.
 */
function parseRange(element: string): Range | undefined {
  const [mediaRange = '', ...parameters] = splitOutsideQuotes(element, ';');
  const name = mediaRange.replace(OWS, '').toLowerCase();
  const slash = name.indexOf('/');
  const type = name.slice(0, slash);
  const subtype = name.slice(slash + 1);
  if (slash < 0 || !TOKEN.test(type) || !TOKEN.test(subtype)) return undefined;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals < 0 || parameter.slice(0, equals).replace(OWS, '').toLowerCase() !== 'q') continue;
    let value = parameter.slice(equals + 1).replace(OWS, '');
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"'))
      value = value.slice(1, -1);
    return QVALUE.test(value) ? { type, subtype, q: Number(value) } : undefined;
  }
  return { type, subtype, q: 1 };
}

// How closely a range names an offer: 2 exactly, 1 by type/*, 0 by */* (any type), -1 not at all.
function specificity(offer: Offer, range: Range): number {
  if (range.type === offer.type) {
    if (range.subtype === offer.subtype) return 2;
    return range.subtype === '*' ? 1 : -1;
  }
  return range.type === '*' && range.subtype === '*' ? 0 : -1;
}

/**
 * Chooses JSON or XML from an Accept header; JSON when nothing fits. Each offer takes its most
 * specific matching range (the higher q among equals, then the first); the offer whose range has
 * the highest q wins, then the more specific range, then the client's order, then JSON first. A
 * q of 0 refuses the offer.
 */
export function negotiate(accept: string | undefined): MediaType {
  if (accept === undefined || accept === '' || accept === 'application/json') return JSON_TYPE;
  const ranges: Range[] = [];
  for (const element of splitOutsideQuotes(accept, ',')) {
    const range = parseRange(element);
    if (range) ranges.push(range);
  }
  let best: MediaType = JSON_TYPE;
  let bestQ = 0;
  let bestSpecificity = -1;
  let bestIndex = -1;
  for (const offer of OFFERS) {
    let q = 0;
    let closest = -1;
    let index = -1;
    for (let i = 0; i < ranges.length; i++) {
      const range = ranges[i] as Range;
      const s = specificity(offer, range);
      if (s > closest || (s === closest && s >= 0 && range.q > q)) {
        closest = s;
        q = range.q;
        index = i;
      }
    }
    if (
      q > bestQ ||
      (q === bestQ &&
        q > 0 &&
        (closest > bestSpecificity || (closest === bestSpecificity && index < bestIndex)))
    ) {
      best = offer.mediaType;
      bestQ = q;
      bestSpecificity = closest;
      bestIndex = index;
    }
  }
  return best;
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
