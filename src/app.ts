import basicAuth from '@fastify/basic-auth';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { Core } from './core.js';
import { ApiError } from './domain/errors.js';
import { createNegotiator } from './http/negotiate.js';
import { openApiDocument } from './http/openapi.js';
import { authenticate } from './http/pipeline/auth.js';
import { keepJsonBodies, limitBody } from './http/pipeline/body.js';
import { dispatch } from './http/pipeline/dispatch.js';
import { decideFaults } from './http/pipeline/faults.js';
import { checkHeaderFields, guardControlApi } from './http/pipeline/guard.js';
import { inOrder } from './http/pipeline/in-order.js';
import { journalHooks } from './http/pipeline/journal.js';
import { restoreUrl, routeAgain } from './http/pipeline/malformed-url.js';
import { resolveRoute } from './http/pipeline/route.js';
import type { AppServices } from './http/route.js';
import { ROUTES } from './http/routes/table.js';
import { sendError } from './http/send-error.js';
import { sharedSerializer } from './http/serializers.js';
import { ThumbnailSigner } from './http/thumbnails.js';

export interface AppOptions {
  readonly logger: FastifyServerOptions['logger'];
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
/** fastify reads bodies up to the largest route limit; each route's own is checked in `body`. */
const LARGEST_BODY = Math.max(...ROUTES.map((route) => route.bodyLimit));

function unusedValidatorCompiler(): never {
  throw new Error('fake-marketing-server: no fastify route has a validation schema');
}

/**
 * Builds the fastify app of one fake from its core. Never listens. Every request goes through:
 *
 * 1. journal (http/pipeline/journal.ts): notes when a /marketing/ request arrives;
 * 2. host (http/pipeline/guard.ts): more than 100 header fields get 431, two Host headers
 *    400, on every route (RFC 9112);
 * 3. faults (http/pipeline/faults.ts): an injected fault may answer, before anything else;
 * 4. route (http/pipeline/route.ts): the route table (http/routes/): 404, 405 with Allow, path
 *    parameters of the wrong kind, a URL that cannot be decoded 400 (http/pipeline/malformed-url.ts
 *    routes it again and puts its URL back as sent before step 1);
 * 5. guard (http/pipeline/guard.ts): the control API's Origin, Sec-Fetch-Site and Host checks;
 * 6. auth (http/pipeline/auth.ts): Basic credentials or the admin token, by the route's scope;
 * 7. body (http/pipeline/body.ts): the route's body limit; fastify parses JSON;
 * 8. domain (http/pipeline/dispatch.ts): the route's handler calls the core or the tenant;
 * 9. representation (http/pipeline/dispatch.ts): JSON or XML by Accept, or JSON, or rendered;
 * 10. journal (http/pipeline/journal.ts): records the exchange as http/answer.ts sends it, without
 *     secrets (redaction/redact.ts).
 *
 * An error at any step is answered by http/send-error.ts.
 */
/**
 * The logger options, with a request serializer that logs no secret: the URL and Host go through
 * the redactor (a key in the query string, the inspector's `?token=`); headers are never logged.
 */
function withRedactedRequests(logger: AppOptions['logger'], core: Core): AppOptions['logger'] {
  if (!logger) return logger;
  const own = (logger === true ? {} : logger) as Exclude<
    AppOptions['logger'],
    boolean | undefined
  > & {
    serializers?: Record<string, unknown>;
  };
  const { redactor } = core;
  return {
    ...own,
    serializers: {
      ...own.serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactor.url(request.url),
        host: redactor.url(request.host),
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  } as AppOptions['logger'];
}

export async function buildApp(core: Core, options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withRedactedRequests(options.logger, core),
    bodyLimit: LARGEST_BODY,
    // The table answers HEAD with 405 like any method the service does not list.
    exposeHeadRoutes: false,
    // No fastify route declares a schema (the route table validates and serializes itself), so
    // fastify's own ajv-based compilers would never run: not loading them shortens start-up.
    schemaController: {
      compilersFactory: {
        buildValidator: () => unusedValidatorCompiler,
        buildSerializer:
          () =>
          ({ schema }) =>
            sharedSerializer({ schema }),
      },
    },
    // A URL that cannot be decoded goes through the pipeline like any other (journal, faults);
    // what fastify refuses otherwise is answered in the service's error envelope too.
    frameworkErrors: (error, request, reply) => {
      if (error.code === 'FST_ERR_BAD_URL' && routeAgain(app, request, reply)) return;
      sendError(error, request, reply);
    },
  });
  // Request bodies are JSON only: every other type, text/plain included, gets 415.
  app.removeContentTypeParser('text/plain');
  keepJsonBodies(app);
  app.decorate('negotiate', createNegotiator());
  app.decorateRequest('arrived', 0);
  app.decorateRequest('started', 0);
  app.decorateRequest('journalPending', false);
  app.decorateRequest('fault', null);
  app.decorateRequest('operation', null);
  app.decorateRequest('pathParams', null);
  app.decorateRequest('routeError', null);
  app.decorateRequest('tenant', null);
  app.decorateRequest('rawBody', null);
  app.setSerializerCompiler(sharedSerializer);
  app.setErrorHandler(sendError);
  await app.register(basicAuth, {
    // The WWW-Authenticate challenge comes from the error table, on every 401 alike.
    authenticate: false,
    validate(username, password, request, _reply, done) {
      request.tenant = core.store.authenticate(username, password) ?? null;
      done(request.tenant ? undefined : new ApiError('UNAUTHORIZED'));
    },
  });

  const journal = journalHooks(core);
  app.decorate('journal', journal);
  // Steps 1 to 6 run as one fastify hook: fastify's runner cost about as much per hook as the
  // steps' own work (half a microsecond a request for the six, in profiles of GET /lists).
  app.addHook(
    'onRequest',
    inOrder([
      restoreUrl,
      journal.arrive,
      checkHeaderFields,
      decideFaults(core, journal),
      resolveRoute,
      guardControlApi(core),
      authenticate(app, core.store, core.adminToken),
    ]),
  );
  app.addHook('preParsing', limitBody);

  const services: AppServices = {
    core,
    thumbnails: new ThumbnailSigner(),
    openApi: openApiDocument,
    listAnswers: new WeakMap(),
  };
  // One fastify route for the whole table: the table is compiled once per process (routes/table.ts),
  // so creating a fake registers nothing per endpoint.
  app.route({ method: METHODS, url: '*', handler: dispatch(services) });
  await app.ready();
  return app;
}
