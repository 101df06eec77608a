import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../core.js';
import { ApiError, StateError } from '../../domain/errors.js';
import type { JournalEntry, JournalScope, ReadOptions } from '../../journal/journal.js';
import type { RequestFilter } from '../../journal/journal-filter.js';

/**
 * The journal's query parameters on the control API (`GET /__admin/requests`, its wait and HAR,
 * and a tenant's own under `/__admin/tenants/{serverId}`): documented once, read once.
 */

export const DEFAULT_HTTP_WAIT_MS = 10_000;
/** A long poll is bounded: proxies and clients give up on silent connections. */
export const MAX_HTTP_WAIT_MS = 60_000;

/** The journal filters as query parameters (`body` is JSON). */
export const FILTER_QUERY = {
  method: { type: 'string' },
  path: { type: 'string', description: 'A glob on the path after /marketing/v1.' },
  serverId: { type: 'integer' },
  status: { type: 'string', description: 'A status such as 404, or a class such as 4xx.' },
  operation: { type: 'string', description: 'An operationId of the emulated API.' },
  fault: { type: 'string' },
  sinceId: { type: 'integer', minimum: 0 },
  body: {
    type: 'string',
    description:
      'JSON: a partial match on the request body, e.g. {"emailAddress":"ann@example.com"}.',
  },
} as const;

/**
 * What `GET /requests` takes besides the filter: how much of each matching entry, and of the
 * matches, to send. A page that polls reads the newest few, without bodies, since its last read.
 */
export const READ_QUERY = {
  ...FILTER_QUERY,
  last: {
    type: 'integer',
    minimum: 1,
    description: 'Only the newest `last` of the matching entries (still oldest first).',
  },
  bodies: {
    type: 'string',
    enum: ['whole', 'none'],
    description:
      '`none`: each entry without its bodies (`body`, `bodyEncoding`, `bodyNote`), with `bodySize` and `bodyTruncated`; `whole` (default): as recorded.',
  },
} as const;

/** The header of a journal read that says which entries the journal no longer holds. */
export const JOURNAL_OLDEST_ID = 'journal-oldest-id';

/** A journal read's filter and its {@link READ_QUERY} options, from the query. */
export function journalRead(
  query: unknown,
  filterOf: (filter: Record<string, unknown>) => RequestFilter,
): { filter: RequestFilter; read: ReadOptions } {
  const { last, bodies, ...rest } = (query ?? {}) as Record<string, unknown>;
  const read: { last?: number; bodies?: boolean } = {};
  if (last !== undefined) {
    if (typeof last !== 'string' || !/^\d{1,15}$/.test(last) || Number(last) < 1) {
      throw new ApiError('ADMIN_BAD_REQUEST', {
        detail: 'last must be a whole number of 1 or more: how many of the newest entries to read.',
      });
    }
    read.last = Number(last);
  }
  if (bodies !== undefined) {
    if (bodies !== 'whole' && bodies !== 'none') {
      throw new ApiError('ADMIN_BAD_REQUEST', {
        detail: "bodies must be 'whole' (the default) or 'none' (entries without their bodies).",
      });
    }
    read.bodies = bodies === 'whole';
  }
  return { filter: filterOf(rest), read };
}

export function badFilter(detail: string): never {
  throw new ApiError('ADMIN_BAD_REQUEST', { detail: `Bad filter: ${detail}` });
}

/** Query parameters arrive as text: numbers and the JSON body become values, then the checks. */
export function journalFilter(core: Core, query: unknown): RequestFilter {
  return core.checkFilter(filterInput(query), badFilter);
}

/** The filter's values from the query's text, before the checks. */
export function filterInput(query: unknown): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') badFilter(`'${name}' is given more than once.`);
    input[name] = parameter(name, value);
  }
  return input;
}

function parameter(name: string, text: string): unknown {
  if (['serverId', 'sinceId', 'status'].includes(name) && /^\d{1,15}$/.test(text))
    return Number(text);
  if (name !== 'body') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return badFilter('body must be JSON, such as body={"emailAddress":"ann@example.com"}.');
  }
}

export function waitTime(text: unknown): number {
  if (text === undefined) return DEFAULT_HTTP_WAIT_MS;
  if (typeof text !== 'string' || !/^\d{1,6}$/.test(text) || Number(text) > MAX_HTTP_WAIT_MS) {
    throw new ApiError('ADMIN_BAD_REQUEST', {
      detail: `timeoutMs must be a whole number of milliseconds from 0 to ${MAX_HTTP_WAIT_MS}.`,
    });
  }
  return Number(text);
}

/** The query of a wait: the filter, and its `timeoutMs`. */
export const WAIT_QUERY = {
  ...FILTER_QUERY,
  timeoutMs: { type: 'integer', minimum: 0, maximum: MAX_HTTP_WAIT_MS },
} as const;

/**
 * A long poll for the first entry matching `filter`; a client that goes away ends its wait, so
 * that it does not hold a place under the cap.
 */
export function longPoll(
  core: Core,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: (filter: Record<string, unknown>) => RequestFilter,
  journalScope?: JournalScope,
): Promise<JournalEntry> {
  const { timeoutMs, ...filter } = (request.query ?? {}) as Record<string, unknown>;
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) {
      gone.abort(new StateError('The client closed the connection while waiting.'));
    }
  });
  const checked = scope(filter);
  return core.waitForChecked(
    checked,
    { timeoutMs: waitTime(timeoutMs), signal: gone.signal },
    journalScope,
  );
}
