import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import { API_PREFIX, THUMBNAILS_PREFIX } from '../../paths.js';
import { hostnameOf } from '../host-allow-list.js';
import { CONTENTS, type ContentView } from '../representations.js';
import { API_BODY_LIMIT, Rendered, type Route, route, TEXT } from '../route.js';
import { THUMBNAIL_LIFETIME_MS, THUMBNAIL_PNG, type ThumbnailSigner } from '../thumbnails.js';

/** GET /content, whose every call mints thumbnail URLs that work for an hour, and the thumbnails. */
export const CONTENT_ROUTES: readonly Route[] = [
  route({
    operationId: 'getContent',
    method: 'GET',
    path: `${API_PREFIX}/content`,
    auth: 'basic',
    tags: ['content'],
    bodyLimit: API_BODY_LIMIT,
    summary: 'Email content, with thumbnail URLs valid for an hour.',
    status: 200,
    representation: CONTENTS,
    handle: ({ request, tenant, thumbnails, core }) =>
      contentWithThumbnails(tenant, selfOrigin(request), thumbnails, core.now()),
  }),
  route({
    operationId: 'getThumbnail',
    method: 'GET',
    path: `${THUMBNAILS_PREFIX}/:file`,
    params: { file: TEXT },
    // No credentials: the signed URL is the ticket; 404 once it has expired.
    auth: 'none',
    tags: ['content'],
    bodyLimit: API_BODY_LIMIT,
    summary: 'A thumbnail image, from a URL that GET /content minted (valid for an hour).',
    status: 200,
    renders: 'image/png',
    errors: [404],
    handle: ({ params, thumbnails, core, reply }) => {
      const ticket = params.file.endsWith('.png')
        ? thumbnails.read(params.file.slice(0, -'.png'.length))
        : undefined;
      const exists = ticket && core.store.tenant(ticket.serverId)?.content.has(ticket.contentId);
      if (!ticket || !exists || core.now() >= ticket.expires) {
        throw new ApiError('THUMBNAIL_NOT_FOUND');
      }
      reply.header('cache-control', 'private, max-age=60');
      return new Rendered('image/png', THUMBNAIL_PNG);
    },
  }),
];

/**
 * The fake's own origin, for the URLs it mints: the request's Host when that is one host and an
 * optional port (what the client used to reach the fake), else the address the connection came
 * in on. A Host such as `localhost:80@evil.example` or `a"b<c>` must never become a URL that
 * points elsewhere, or no URL at all.
 */
export function selfOrigin(request: FastifyRequest): string {
  const { host } = request;
  const port = /:(\d*)$/.exec(host)?.[1];
  const validPort = port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
  if (validPort && hostnameOf(host) !== undefined) return `${request.protocol}://${host}`;
  const { localAddress, localPort } = request.socket;
  if (localAddress === undefined) return `${request.protocol}://localhost`;
  const address = isIP(localAddress) === 6 ? `[${localAddress}]` : localAddress;
  return `${request.protocol}://${address}${localPort ? `:${localPort}` : ''}`;
}

/**
 * A tenant's content with freshly minted thumbnail URLs on `origin`: what GET /content answers,
 * and what the inspector reads through the control API (its first `limit` items).
 */
export function contentWithThumbnails(
  tenant: Tenant,
  origin: string,
  thumbnails: ThumbnailSigner,
  now: number,
  limit = Number.POSITIVE_INFINITY,
): ContentView[] {
  const expires = now + THUMBNAIL_LIFETIME_MS;
  return first(tenant.content.values(), limit).map((item): ContentView => {
    const token = thumbnails.token({ serverId: tenant.serverId, contentId: item.id, expires });
    return {
      ...item,
      thumbnailUrl: `${origin}${THUMBNAILS_PREFIX}/${token}.png`,
      thumbnailExpiration: expires,
    };
  });
}

/** The first `count` items of `items`, taking no more of them than that. */
export function first<T>(items: Iterable<T>, count: number): T[] {
  const taken: T[] = [];
  if (count <= 0) return taken;
  for (const item of items) {
    taken.push(item);
    if (taken.length >= count) break;
  }
  return taken;
}
