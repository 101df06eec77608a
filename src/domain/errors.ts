/**
 * Every error the package raises, thrown by the handle or answered over HTTP, in one table: a
 * stable code, the HTTP status it is answered with, and the message. Messages quoted by the
 * service description are kept to the letter; the others are ours (see docs/emulated-api.md, "Behaviour
 * where the service is unspecified"). `{name}` placeholders are filled from the error's params.
 */
export const API_ERRORS = {
  // The emulated service.
  INVALID_EMAIL: { status: 400, message: 'The email address is missing or poorly formatted.' },
  UNKNOWN_CUSTOM_FIELD: { status: 400, message: "The custom field '{name}' does not exist." },
  FIELD_NAME_CHARACTERS: {
    status: 400,
    message: 'The field Name contains characters that are not allowed.',
  },
  INVALID_BODY: { status: 400, message: '{detail}' },
  MALFORMED_JSON: { status: 400, message: 'The request body is not valid JSON: {detail}' },
  BAD_REQUEST: { status: 400, message: '{detail}' },
  // Ours: the service's host refuses a URL it cannot decode with a bare 400 of its own.
  MALFORMED_URL: { status: 400, message: 'The URL {url} is malformed.' },
  DUPLICATE_HOST: {
    status: 400,
    message: 'The request has more than one Host header; HTTP/1.1 (RFC 9112) allows exactly one.',
  },
  UNAUTHORIZED: {
    status: 401,
    message: 'Invalid credentials: use Basic authentication with the server id and its key.',
    headers: { 'www-authenticate': 'Basic realm="marketing"' },
  },
  // Ours: a fake created without a seed answers every request 401; this says why and what to do.
  NO_SERVERS: {
    status: 401,
    message:
      'Invalid credentials: this fake holds no server yet, so no key is valid. Seed one: the seed option of createFakeMarketingServer() or useFakeMarketingServer(), fake.seed(), fake.addServer(), or POST /__admin/seed.',
    headers: { 'www-authenticate': 'Basic realm="marketing"' },
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
  // Ours: ids are 32-bit and never reused, so a server that has given out the last one is full.
  ID_LIMIT: {
    status: 409,
    message:
      'No {kind} id is left on this server: ids go up to {max} and are never reused. Reset the server, or seed one with lower ids.',
  },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is larger than {limit} bytes.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: "Request bodies must be JSON: send 'Content-Type: application/json', not '{type}'.",
  },
  TOO_MANY_HEADERS: {
    status: 431,
    message: 'The request has more than {max} header fields, the most accepted.',
  },
  INTERNAL: { status: 500, message: 'Internal error: {detail}' },
  // Injected faults: what a client sees during an outage, or from a `status` rule. The status of
  // INJECTED_STATUS is the rule's own (any 200 to 599), given when the error is made.
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is temporarily unavailable for maintenance. Please try again later.',
  },
  INJECTED_STATUS: { status: 'the rule', message: 'Injected fault: {status} {reason}.' },
  // The control API.
  ADMIN_UNAUTHORIZED: {
    status: 401,
    message:
      "The control API needs 'Authorization: Bearer <admin token>' with the fake's admin token.",
    headers: { 'www-authenticate': 'Bearer realm="fake-marketing-server"' },
  },
  ADMIN_BAD_REQUEST: { status: 400, message: '{detail}' },
  HOST_NOT_ALLOWED: {
    status: 403,
    message:
      "Host '{host}' is not allowed on the control API, which guards against DNS rebinding: add it with the allowedHosts option (CLI: --allowed-hosts).",
  },
  LOCAL_CONTROL_ONLY: {
    status: 403,
    message:
      'The control API answers only clients connecting over loopback (localhost, 127.0.0.1, ::1): set an admin token (adminToken, --admin-token, FMS_ADMIN_TOKEN) to use it from elsewhere.',
  },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    message:
      'A control call from another site or origin ({origin}) is refused, reads included: the control API takes calls only from its own pages and from clients that are not browsers.',
  },
  ADMIN_NOT_FOUND: { status: 404, message: '{detail}' },
  // Thrown by the handle (and answered by the control API with the same status).
  SEED_INVALID: { status: 400, message: '{detail}' },
  FAULT_RULE_INVALID: { status: 400, message: '{detail}' },
  INVALID_OPTION: { status: 400, message: '{detail}' },
  UNKNOWN_SERVER: {
    status: 404,
    message: 'Server {serverId} does not exist in this fake; create it with addServer() or a seed.',
  },
  STATE_CONFLICT: { status: 409, message: '{detail}' },
  // 503: the server is going away, as for any request a stopping server turns away.
  FAKE_CLOSED: { status: 503, message: 'The fake was closed while waiting for a request.' },
  // 507 Insufficient Storage (RFC 4918): the fake could not store what it was asked to.
  STATE_NOT_SAVED: {
    status: 507,
    message:
      'Could not write the state file {file}: {reason}. The state is still in memory: fix that and save again.',
  },
  SERVER_EXISTS: {
    status: 409,
    message: 'Server {serverId} already exists; pick another serverId or omit it.',
  },
  REQUEST_NOT_RECEIVED: { status: 404, message: '{detail}' },
  TOO_MANY_WAITS: {
    status: 429,
    message:
      '{max} waits for a request (GET /__admin/requests/wait, waitForRequest) are already pending, the most at once: let one end first, or use shorter timeouts.',
  },
} as const satisfies Record<string, ErrorDefinition>;

interface ErrorDefinition {
  /** The HTTP status; 'the rule' for the one error whose status an injected fault chooses. */
  readonly status: number | 'the rule';
  readonly message: string;
  /** Headers that always go with this error (challenges). */
  readonly headers?: Readonly<Record<string, string>>;
}

export type ApiErrorCode = keyof typeof API_ERRORS;
type Params = Readonly<Record<string, string | number>>;

/** What every error of the package carries, so one sender can answer any of them. */
export interface PackageError extends Error {
  readonly code: ApiErrorCode;
  readonly status: number;
  /** Headers to send with the answer: the table's own, then the error's (Allow, Retry-After). */
  readonly headers: Readonly<Record<string, string>>;
}

export function fillTemplate(template: string, params: Params): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in params ? String(params[key]) : whole,
  );
}

function statusOf(code: ApiErrorCode, given: number | undefined): number {
  const { status } = API_ERRORS[code];
  if (typeof status === 'number') return status;
  if (given === undefined) throw new TypeError(`${code} needs its status`);
  return given;
}

function headersOf(code: ApiErrorCode, extra: Readonly<Record<string, string>> | undefined) {
  const own = (API_ERRORS[code] as ErrorDefinition).headers;
  return own && extra ? { ...own, ...extra } : (own ?? extra ?? {});
}

/** An error the emulated service answers with: `status` and `message` go on the wire as they are. */
export class ApiError extends Error implements PackageError {
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    code: ApiErrorCode,
    params: Params = {},
    options: { headers?: Readonly<Record<string, string>>; status?: number } = {},
  ) {
    super(fillTemplate(API_ERRORS[code].message, params));
    this.name = 'ApiError';
    this.code = code;
    this.status = statusOf(code, options.status);
    this.headers = headersOf(code, options.headers);
  }

  /** fastify reads `statusCode` from errors raised while it reads a body. */
  get statusCode(): number {
    return this.status;
  }
}

/** Base class of every error the handle throws, so callers can catch them as one family. */
export class FakeMarketingServerError extends Error implements PackageError {
  override name = 'FakeMarketingServerError';
  readonly code: ApiErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>> = {};

  constructor(message: string, code: ApiErrorCode = 'INVALID_OPTION') {
    super(message);
    this.code = code;
    this.status = statusOf(code, undefined);
  }
}

/** A seed (object or file) is not valid; the message names the exact path, e.g. `servers[0].contacts[3].emailAddress`. */
export class SeedError extends FakeMarketingServerError {
  override name = 'SeedError';
  /** The path of the offending value, e.g. `servers[0].lists[1].id`; empty for the seed itself. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(
      fillTemplate(API_ERRORS.SEED_INVALID.message, {
        detail: path ? `${path}: ${problem}` : problem,
      }),
      'SEED_INVALID',
    );
    this.path = path;
  }
}

/** A server id that this fake has never held. */
export class UnknownServerError extends FakeMarketingServerError {
  override name = 'UnknownServerError';
  readonly serverId: number;

  constructor(serverId: number) {
    super(fillTemplate(API_ERRORS.UNKNOWN_SERVER.message, { serverId }), 'UNKNOWN_SERVER');
    this.serverId = serverId;
  }
}

/** addServer() with the id of a server this fake already holds. */
export class ServerExistsError extends FakeMarketingServerError {
  override name = 'ServerExistsError';
  readonly serverId: number;

  constructor(serverId: number) {
    super(fillTemplate(API_ERRORS.SERVER_EXISTS.message, { serverId }), 'SERVER_EXISTS');
    this.serverId = serverId;
  }
}

/** An option or argument given to the handle is not valid. */
export class InvalidOptionError extends FakeMarketingServerError {
  override name = 'InvalidOptionError';

  constructor(message: string) {
    super(fillTemplate(API_ERRORS.INVALID_OPTION.message, { detail: message }), 'INVALID_OPTION');
  }
}

/** The handle was used in a way its current state does not allow (e.g. `url` before `listen()`). */
export class StateError extends FakeMarketingServerError {
  override name = 'StateError';

  constructor(message: string) {
    super(fillTemplate(API_ERRORS.STATE_CONFLICT.message, { detail: message }), 'STATE_CONFLICT');
  }
}

/**
 * A wait the fake's `close()` ended (`waitForRequest()`, `GET /__admin/requests/wait`): a
 * StateError, coded `FAKE_CLOSED` and answered 503 over HTTP, since the server is going away.
 */
export class FakeClosedError extends StateError {
  override name = 'FakeClosedError';
  override readonly code: ApiErrorCode = 'FAKE_CLOSED';
  override readonly status: number = API_ERRORS.FAKE_CLOSED.status;

  constructor() {
    super(API_ERRORS.FAKE_CLOSED.message);
  }
}

/**
 * `saveState()` (or `POST /__admin/save`, or the sandbox's stop) could not write the state file:
 * its folder is gone, the disk is full, no permission. The state is unchanged in memory.
 */
export class StateSaveError extends FakeMarketingServerError {
  override name = 'StateSaveError';
  /** The state file. */
  readonly file: string;
  /** Why the write failed, in words ("the disk is full"). */
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(fillTemplate(API_ERRORS.STATE_NOT_SAVED.message, { file, reason }), 'STATE_NOT_SAVED');
    this.file = file;
    this.reason = reason;
  }
}

/** A fault rule that is not valid; the message says which field and why. */
export class FaultRuleError extends FakeMarketingServerError {
  override name = 'FaultRuleError';

  constructor(detail: string) {
    super(fillTemplate(API_ERRORS.FAULT_RULE_INVALID.message, { detail }), 'FAULT_RULE_INVALID');
  }
}

/** A wait for a request was refused: the most waits the journal holds at once are pending. */
export class TooManyWaitsError extends FakeMarketingServerError {
  override name = 'TooManyWaitsError';
  /** How many waits may be pending at once. */
  readonly max: number;

  constructor(max: number) {
    super(fillTemplate(API_ERRORS.TOO_MANY_WAITS.message, { max }), 'TOO_MANY_WAITS');
    this.max = max;
  }
}
