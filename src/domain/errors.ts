/**
 * Every error the emulated API can answer with, in one table: a stable code, the HTTP status
 * and the message. Messages quoted by the service description are kept to the letter; the
 * others are ours (see the README's "Behaviour where the service is unspecified").
 */
export const API_ERRORS = {
  INVALID_EMAIL: { status: 400, message: 'The email address is missing or poorly formatted.' },
  UNKNOWN_CUSTOM_FIELD: { status: 400, message: "The custom field '{name}' does not exist." },
  FIELD_NAME_CHARACTERS: {
    status: 400,
    message: 'The field Name contains characters that are not allowed.',
  },
  INVALID_BODY: { status: 400, message: '{detail}' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON: {detail}' },
  BAD_REQUEST: { status: 400, message: '{detail}' },
  UNAUTHORIZED: {
    status: 401,
    message: 'Invalid credentials: use Basic authentication with the server id and its key.',
  },
  CONTACT_LIMIT: {
    status: 403,
    message: 'The maximum number of contacts ({max}) for this server has been reached.',
  },
  LIST_NOT_FOUND: { status: 404, message: 'List {id} does not exist.' },
  CONTACT_NOT_FOUND: { status: 404, message: 'Contact {id} does not exist.' },
  CONTACT_EMAIL_NOT_FOUND: { status: 404, message: "No contact has the email address '{email}'." },
  CUSTOM_FIELD_NOT_FOUND: { status: 404, message: 'Custom field {id} does not exist.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No route matches {method} {path}.' },
  THUMBNAIL_NOT_FOUND: { status: 404, message: 'This thumbnail does not exist or has expired.' },
  METHOD_NOT_ALLOWED: { status: 405, message: '{method} is not allowed on {path}; use {allow}.' },
  FIELD_RESERVED: { status: 409, message: 'That name is system reserved, please choose another.' },
  FIELD_EXISTS: {
    status: 409,
    message: "The field '{name}' can't be created because it already exists.",
  },
  FIELD_LIMIT: {
    status: 409,
    message: 'You have exceeded the maximum number of Custom Field Names allowed.',
  },
  FIELD_NAME_LENGTH: {
    status: 409,
    message: 'The field Name must be a string with a maximum length of 50.',
  },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is larger than {limit} bytes.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: "Request bodies must be JSON: send 'Content-Type: application/json', not '{type}'.",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is temporarily unavailable for maintenance. Please try again later.',
  },
  INJECTED_STATUS: { status: 500, message: 'Injected fault: {status} {reason}.' },
  ADMIN_UNAUTHORIZED: {
    status: 401,
    message:
      "The control API needs 'Authorization: Bearer <admin token>' with the fake's admin token.",
  },
  ADMIN_BAD_REQUEST: { status: 400, message: '{detail}' },
  ADMIN_NOT_FOUND: { status: 404, message: '{detail}' },
  INTERNAL: { status: 500, message: 'Internal error: {detail}' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** An error the emulated service answers with: `status` and `message` go on the wire as they are. */
export class ApiError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ApiErrorCode,
    params: Readonly<Record<string, string | number>> = {},
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(fillTemplate(API_ERRORS[code].message, params));
    this.name = 'ApiError';
    this.code = code;
    this.status = API_ERRORS[code].status;
    this.headers = headers;
  }
}

function fillTemplate(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

/** Base class of every error the handle throws, so callers can catch them as one family. */
export class FakeMarketingServerError extends Error {
  override name = 'FakeMarketingServerError';
}

/** A seed (object or file) is not valid; the message names the exact path, e.g. `servers[0].contacts[3].emailAddress`. */
export class SeedError extends FakeMarketingServerError {
  override name = 'SeedError';
  /** The path of the offending value, e.g. `servers[0].lists[1].id`; empty for the seed itself. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(path ? `${path}: ${problem}` : problem);
    this.path = path;
  }
}

/** A server id that this fake has never held. */
export class UnknownServerError extends FakeMarketingServerError {
  override name = 'UnknownServerError';
  readonly serverId: number;

  constructor(serverId: number) {
    super(`Server ${serverId} does not exist in this fake; create it with addServer() or a seed.`);
    this.serverId = serverId;
  }
}

/** An option or argument given to the handle is not valid. */
export class InvalidOptionError extends FakeMarketingServerError {
  override name = 'InvalidOptionError';
}

/** The handle was used in a way its current state does not allow (e.g. `url` before `listen()`). */
export class StateError extends FakeMarketingServerError {
  override name = 'StateError';
}
