import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';
import { respond } from './context.js';
import { ERROR } from './representations.js';

/** Largest request body of the emulated API. */
export const BODY_LIMIT = 1024 * 1024;
const AUTH_CHALLENGE = 'Basic realm="marketing"';

/** Maps fastify's own errors (parsing, body limits, auth plugin) onto the service's table. */
export function toApiError(error: Partial<FastifyError>, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', {
        type: request.headers['content-type'] ?? 'none',
      });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('BODY_TOO_LARGE', { limit: BODY_LIMIT });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_BODY', {
        detail: 'The body is empty but Content-Type is JSON; send a JSON object.',
      });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('MALFORMED_JSON', { detail: error.message ?? 'cannot be parsed' });
    case 'FST_ERR_BAD_URL':
      return new ApiError('BAD_REQUEST', { detail: `The URL ${request.url} is malformed.` });
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

/** The one place errors become responses: status, headers and the `{ message }` envelope. */
export function sendError(
  error: Partial<FastifyError>,
  request: FastifyRequest,
  reply: FastifyReply,
): string | object {
  const apiError = toApiError(error, request);
  if (apiError.status >= 500) request.log.error({ err: error }, 'unexpected error');
  reply.code(apiError.status);
  if (apiError.status === 401) reply.header('www-authenticate', AUTH_CHALLENGE);
  for (const [name, value] of Object.entries(apiError.headers)) reply.header(name, value);
  return respond(request, reply, ERROR, apiError.message);
}
