import { readFileSync } from 'node:fs';
import basicAuth from '@fastify/basic-auth';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyServerOptions,
} from 'fastify';
import type { ControlTarget } from './control/control-target.js';
import { ApiError } from './domain/errors.js';
import type { Store } from './domain/store.js';
import { BODY_LIMIT, sendError } from './http/error-handler.js';
import {
  installTestDoubleHooks,
  type PendingDelays,
  type TestDoubleOptions,
} from './http/faults-hook.js';
import { recordRouteShapes } from './http/method-not-allowed.js';
import { createNegotiator } from './http/negotiate.js';
import { buildOpenApi, recordRoutesForOpenApi } from './http/openapi.js';
import { ADMIN_PREFIX, adminRoutes } from './http/routes/admin.js';
import { contentRoutes, thumbnailRoutes } from './http/routes/content.js';
import { customFieldRoutes } from './http/routes/custom-fields.js';
import { listRoutes } from './http/routes/lists.js';
import { unsubscribeRoutes } from './http/routes/unsubscribe.js';
import { sharedSerializer } from './http/serializers.js';
import { ThumbnailSigner } from './http/thumbnails.js';

export const API_PREFIX = '/marketing/v1';
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
export const BETA_PREFIX = '/marketing/beta';

export interface AppOptions extends TestDoubleOptions {
  readonly store: Store;
  readonly control: ControlTarget;
  readonly adminToken: string | undefined;
  readonly logger: FastifyServerOptions['logger'];
}

export interface App {
  readonly app: FastifyInstance;
  readonly delays: PendingDelays;
}

/** Builds the fastify app of one fake: every route, hook and error handler. Never listens. */
export async function buildApp(options: AppOptions): Promise<App> {
  const { store, now } = options;
  const app = Fastify({
    logger: options.logger,
    bodyLimit: BODY_LIMIT,
    // The service lists no HEAD; an automatic HEAD per GET would also slow down every new fake.
    exposeHeadRoutes: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 },
    // Bad URLs and the like are answered in the service's error envelope too.
    frameworkErrors: (error, request, reply) => {
      (reply as FastifyReply).send(sendError(error, request, reply));
    },
  });

  // Request bodies are JSON only: every other type, text/plain included, gets 415.
  app.removeContentTypeParser('text/plain');
  app.decorateRequest('tenant', null);
  app.decorate('negotiate', createNegotiator());
  app.setSerializerCompiler(sharedSerializer);
  app.setErrorHandler(sendError);
  const allowedMethods = recordRouteShapes(app, '/marketing/');
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allow = allowedMethods(path);
    if (allow === undefined)
      throw new ApiError('ROUTE_NOT_FOUND', { method: request.method, path });
    reply.header('allow', allow);
    throw new ApiError('METHOD_NOT_ALLOWED', { method: request.method, path, allow });
  });

  // Before the API's own hooks: faults are decided before authentication.
  const delays = installTestDoubleHooks(app, options);

  app.register(basicAuth, {
    // The WWW-Authenticate challenge is set by the error handler, on every 401 alike.
    authenticate: false,
    validate(username, password, request, _reply, done) {
      request.tenant = store.authenticate(username, password) ?? null;
      done(request.tenant ? undefined : new ApiError('UNAUTHORIZED'));
    },
  });

  const openApiRoutes = recordRoutesForOpenApi(app);
  let openApi: Record<string, unknown> | undefined;
  const thumbnails = new ThumbnailSigner();
  // One scope for the whole emulated API, so Basic auth guards every route in it. Routes are
  // added directly rather than as plugins: each plugin costs time on every createFakeMarketingServer().
  app.register(async (api) => {
    api.addHook('onRequest', api.basicAuth);
    listRoutes(api, API_PREFIX);
    unsubscribeRoutes(api, API_PREFIX);
    customFieldRoutes(api, API_PREFIX);
    contentRoutes(api, API_PREFIX, { thumbnails, now });
    // The service's own unsubscribe examples use `beta` for the version segment.
    unsubscribeRoutes(api, BETA_PREFIX);
  });
  thumbnailRoutes(app, { thumbnails, now, store });
  app.register(adminRoutes, {
    prefix: ADMIN_PREFIX,
    control: options.control,
    adminToken: options.adminToken,
    openApi: () => {
      openApi ??= buildOpenApi(openApiRoutes, PACKAGE_VERSION);
      return openApi;
    },
  });

  await app.ready();
  return { app, delays };
}
