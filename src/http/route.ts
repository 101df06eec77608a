import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../core.js';
import { parseServerId } from '../domain/rules.js';
import type { Tenant } from '../domain/tenant.js';
import type { Representation } from './representations.js';
import type { ThumbnailSigner } from './thumbnails.js';

/** Who may call a route: Basic credentials of a server, the admin token (when set), or anyone. */
export type AuthScope = 'basic' | 'admin' | 'none';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

/**
 * One kind of path parameter: how it is documented, and how its text becomes a value. A value
 * that does not parse means the route does not match (404), decided before authentication.
 */
export interface PathParam<T> {
  readonly schema: Readonly<Record<string, unknown>>;
  parse(text: string): T | undefined;
  /** What the text must be, for the control API's 404 message; the emulated API says "no route". */
  readonly what: string;
}

/** Largest request body of the emulated API. */
export const API_BODY_LIMIT = 1024 * 1024;

const ID_TEXT = /^\d{1,15}$/;

/** A positive integer id (lists, contacts, custom fields). */
export const ID: PathParam<number> = {
  schema: { type: 'integer', minimum: 1 },
  parse: (text) => (ID_TEXT.test(text) && Number(text) >= 1 ? Number(text) : undefined),
  what: 'an id (a whole number from 1, at most 15 digits)',
};

/** Any non-empty text: a custom field name, a fault rule id, a file name. */
export const TEXT: PathParam<string> = {
  schema: { type: 'string', minLength: 1 },
  parse: (text) => text,
  what: 'any text',
};

/** A server id in a control route. */
export const SERVER_ID: PathParam<number> = {
  schema: { type: 'integer', minimum: 1000, maximum: 99999 },
  parse: parseServerId,
  what: 'a server id (4 or 5 digits)',
};

type ParamValues<P> = { readonly [K in keyof P]: P[K] extends PathParam<infer T> ? T : never };

/** What the app offers every handler besides the request: per fake, built once. */
export interface AppServices {
  readonly core: Core;
  readonly thumbnails: ThumbnailSigner;
  /** The OpenAPI document of the whole app. */
  readonly openApi: () => Record<string, unknown>;
  /** Finished GET /lists answers per tenant (see routes/lists.ts). */
  readonly listAnswers: WeakMap<Tenant, { revision: number; json?: string; xml?: string }>;
}

export interface RouteContext<P> extends AppServices {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly params: ParamValues<P>;
  /** The server whose Basic credentials opened a `basic` route. */
  readonly tenant: Tenant;
}

/** A body a handler has already rendered (HTML, PNG, a cached answer, a stream), sent as it is. */
export class Rendered {
  constructor(
    readonly contentType: string,
    readonly body: string | Buffer | Readable,
  ) {}
}

/** One entry of the route table: everything registration, checks, docs and the journal need. */
export interface Route<P = Record<string, PathParam<unknown>>, V = unknown> {
  /** Stable name of the operation: the OpenAPI operationId and the journal's `operation`. */
  readonly operationId: string;
  readonly method: Method;
  /** The whole path, with `:name` parameters. */
  readonly path: string;
  readonly auth: AuthScope;
  readonly summary: string;
  readonly tags: readonly string[];
  /** The kind of each `:name` in the path. */
  readonly params?: P;
  /** Documented query parameters (read by the handler). */
  readonly query?: Readonly<Record<string, unknown>>;
  /** Documented request body (read by the handler: names are case-insensitive). */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Largest request body, in bytes. */
  readonly bodyLimit: number;
  /** The success status. */
  readonly status: number;
  /** JSON and XML by Accept; without one, the answer is JSON (or a {@link Rendered} body). */
  readonly representation?: Representation<V>;
  /** The media type of a {@link Rendered} answer, for the docs. */
  readonly renders?: string;
  /** Error statuses this route answers besides those every route can. */
  readonly errors?: readonly number[];
  /** For a page opened by a browser: the admin token may come as `?token=`. */
  readonly page?: boolean;
  readonly handle: (context: RouteContext<P>) => V | Rendered | undefined;
}

/** Declares a route; the generic makes `params` in the handler typed from the `params` kinds. */
export function route<
  P extends Record<string, PathParam<unknown>> = Record<never, never>,
  V = unknown,
>(definition: Route<P, V>): Route {
  return definition as unknown as Route;
}
