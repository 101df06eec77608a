import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import type { Store } from '../../domain/store.js';
import { respond, tenantOf } from '../context.js';
import { CONTENTS, type ContentView } from '../representations.js';
import { ROUTE_DOCS } from '../route-docs.js';
import { THUMBNAIL_LIFETIME_MS, THUMBNAIL_PNG, type ThumbnailSigner } from '../thumbnails.js';

export interface ContentRouteOptions {
  readonly thumbnails: ThumbnailSigner;
  readonly now: () => number;
}

/** GET /content: each call mints thumbnail URLs that work for an hour. */
export function contentRoutes(
  app: FastifyInstance,
  prefix: string,
  options: ContentRouteOptions,
): void {
  const { thumbnails, now } = options;
  app.get(`${prefix}/content`, { schema: ROUTE_DOCS.getContent }, (request, reply) => {
    const tenant = tenantOf(request);
    const expires = now() + THUMBNAIL_LIFETIME_MS;
    const origin = `${request.protocol}://${request.host}`;
    const views = Array.from(tenant.content.values(), (item): ContentView => {
      const token = thumbnails.token({ serverId: tenant.serverId, contentId: item.id, expires });
      return {
        ...item,
        thumbnailUrl: `${origin}/thumbnails/${token}.png`,
        thumbnailExpiration: expires,
      };
    });
    return respond(request, reply, CONTENTS, views);
  });
}

export interface ThumbnailRouteOptions extends ContentRouteOptions {
  readonly store: Store;
}

/** The thumbnail images themselves: no credentials (the URL is the ticket), 404 once expired. */
export function thumbnailRoutes(app: FastifyInstance, options: ThumbnailRouteOptions): void {
  const { thumbnails, now, store } = options;
  app.get<{ Params: { file: string } }>('/thumbnails/:file', (request, reply) => {
    const ticket = request.params.file.endsWith('.png')
      ? thumbnails.read(request.params.file.slice(0, -'.png'.length))
      : undefined;
    const exists = ticket && store.tenant(ticket.serverId)?.content.has(ticket.contentId);
    if (!ticket || !exists || now() >= ticket.expires) throw new ApiError('THUMBNAIL_NOT_FOUND');
    return reply
      .header('content-type', 'image/png')
      .header('cache-control', 'private, max-age=60')
      .send(THUMBNAIL_PNG);
  });
}
