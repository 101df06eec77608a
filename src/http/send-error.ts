import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  FakeMarketingServerError,
  type PackageError,
  SeedError,
} from '../domain/errors.js';
import { isControlApi } from '../paths.js';
import { answer } from './answer.js';
import { JSON_TYPE, responseTypeOf } from './negotiate.js';
import { keepConnectionAfterRefusal } from './pipeline/body.js';
import { malformedUrl } from './pipeline/malformed-url.js';
import { ERROR } from './representations.js';
import { API_BODY_LIMIT } from './route.js';
import { sharedSerializer } from './serializers.js';

const serializeError = sharedSerializer({ schema: ERROR.schema });

/** Maps fastify's own errors (parsing, body limits, auth plugin) onto the error table. */
function toPackageError(error: Partial<FastifyError>, request: FastifyRequest): PackageError {
  if (error instanceof ApiError || error instanceof FakeMarketingServerError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', {
        type: request.headers['content-type'] ?? 'none',
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('BODY_TOO_LARGE', {
        limit: request.operation?.bodyLimit ?? API_BODY_LIMIT,
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_BODY', {
        detail: 'The body is empty but Content-Type is JSON; send a JSON object.',
      });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('MALFORMED_JSON', { detail: error.message ?? 'cannot be parsed' });
    case 'FST_ERR_BAD_URL':
      return malformedUrl(request.url);
  }
  if (error.statusCode === 401) return new ApiError('UNAUTHORIZED');
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new ApiError('MALFORMED_JSON', { detail: error.message ?? 'cannot be parsed' });
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('BAD_REQUEST', { detail: error.message ?? 'bad request' });
  }
  return new ApiError('INTERNAL', { detail: error.message ?? 'unknown' });
}

/**
 * The error envelope as a finished body: JSON or XML by Accept for the emulated API, always JSON
 * for the control API.
 */
export function renderError(request: FastifyRequest, message: string) {
  if (isControlApi(request.url)) {
    return { contentType: JSON_TYPE.contentType, body: serializeError(ERROR.json(message)) };
  }
  const { format, contentType } = responseTypeOf(request);
  const body = format === 'xml' ? ERROR.xml(message) : serializeError(ERROR.json(message));
  return { contentType, body };
}

/**
 * The one place errors become answers, for the emulated API, the control API and injected faults
 * alike: the error's status, its own headers (WWW-Authenticate, Allow, Retry-After), and the
 * `{ message }` envelope (plus `path` for a seed error on the control API).
 */
export function sendError(
  error: Partial<FastifyError>,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const packageError = toPackageError(error, request);
  if (packageError.status >= 500 && packageError.code === 'INTERNAL') {
    request.log.error({ err: error }, 'unexpected error');
  }
  reply.code(packageError.status).headers(packageError.headers);
  keepConnectionAfterRefusal(reply);
  if (packageError instanceof SeedError && isControlApi(request.url)) {
    const body = JSON.stringify({ message: packageError.message, path: packageError.path });
    return answer(reply, JSON_TYPE.contentType, body);
  }
  // HTTP gives these no content (RFC 9110 15.3.5, 15.3.6, 15.4.5): Node would drop a body, so
  // none is sent, and the journal records what the client got.
  if (BODILESS_STATUSES.has(packageError.status)) return answer(reply, undefined);
  const { contentType, body } = renderError(request, packageError.message);
  return answer(reply, contentType, body);
}

/** Statuses answered without a body: an injected `status` fault may use them. */
const BODILESS_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);
