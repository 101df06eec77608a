import { isUtf8 } from 'node:buffer';
import { StateError, WaitTimeoutError } from '../domain/errors.js';
import { isoTime } from '../domain/rules.js';
import type { FaultKind } from './fault-rule.js';
import {
  type CompiledFilter,
  compileFilter,
  describeNearest,
  nearest,
  type RequestFilter,
} from './journal-filter.js';
import { basicUsername } from './request-match.js';

/** Header values as Node gives them: lower-case names, repeated headers as arrays. */
export type Headers = Record<string, string | string[] | number | undefined>;

/**
 * A body as the journal keeps it: the parsed JSON (request bodies that were whole, valid JSON),
 * else the text, else base64 (binary or invalid UTF-8). Past `journalBodyLimit` bytes, only the
 * first bytes are kept, as text ending with a marker.
 */
export interface RecordedBody {
  body?: unknown;
  /** `base64` when the bytes were not UTF-8 text. */
  bodyEncoding?: 'base64';
  /** The body's whole length in bytes, as received or sent. */
  bodySize?: number;
  /** True when only the first `journalBodyLimit` bytes were kept. */
  bodyTruncated?: boolean;
}

/** The request as the client sent it; `Authorization` keeps the Basic username only. */
export interface RecordedRequest extends RecordedBody {
  headers: Record<string, string | string[]>;
}

/** The answer as the client received it (for a fault: what it saw; nothing for `reset`). */
export interface RecordedResponse extends RecordedBody {
  /** 0 when no response was sent (`reset`, `no-response`). */
  status: number;
  headers: Record<string, string | string[]>;
}

/** One request the fake received under `/marketing/`, with what it answered. */
export interface JournalEntry {
  /** Increases by one per request, from 1; survives the ring buffer dropping old entries. */
  id: number;
  /** ISO 8601, from the fake's clock, when the request arrived. */
  time: string;
  method: string;
  /** The path without the query string, e.g. `/marketing/v1/lists/3/contacts`. */
  path: string;
  /** The whole URL the client asked for: scheme, Host header, path and query string. */
  url: string;
  /** The query string as sent, without `?`; empty when there is none. */
  queryString: string;
  /** The query parameters; a repeated name gives an array. */
  query: Record<string, string | string[]>;
  /** Set when the request's Basic credentials were valid. */
  serverId?: number;
  /** The status sent; 0 when no response was sent (`reset`, `no-response`). */
  status: number;
  /** The fault kind that answered it, if any. */
  fault?: FaultKind;
  /** The emulated endpoint's operationId (as in the OpenAPI document); absent for unknown routes. */
  operation?: string;
  /** The format the Accept header chose for the answer. */
  format: 'json' | 'xml';
  /** Milliseconds from arrival until the answer was sent (or the connection cut). */
  durationMs: number;
  request: RecordedRequest;
  response: RecordedResponse;
}

/** What the HTTP layer hands the journal: references, converted only when someone reads. */
export interface JournalRecord {
  readonly arrived: number;
  readonly durationMs: number;
  readonly protocol: string;
  readonly method: string;
  /** Path and query string, as sent. */
  readonly url: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly serverId: number | undefined;
  readonly operation: string | undefined;
  readonly format: 'json' | 'xml';
  readonly status: number;
  readonly fault: FaultKind | undefined;
  readonly requestHeaders: Headers;
  readonly requestBody: Buffer | undefined;
  /** The headers as an object, or the header block exactly as Node wrote it (parsed on read). */
  readonly responseHeaders: Headers | string;
  readonly responseBody: string | Buffer | undefined;
}

/** A body over the limit: a copy of its first bytes, and what the whole was. */
class CutBody {
  constructor(
    readonly data: Buffer,
    readonly size: number,
    readonly binary: boolean,
  ) {}
}

/** A body within the limit is kept by reference, as it is; a longer one as a {@link CutBody}. */
type Kept = string | Buffer | CutBody | undefined;

interface Slot {
  readonly id: number;
  readonly record: JournalRecord;
  readonly requestBody: Kept;
  readonly responseBody: Kept;
}

interface Waiter {
  readonly filter: CompiledFilter;
  readonly resolve: (entry: JournalEntry) => void;
  readonly reject: (error: Error) => void;
}

const REDACTED = '<redacted>';
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * The last `capacity` exchanges, oldest first, in a fixed-size ring buffer whose bodies are cut at
 * `bodyLimit` bytes: a sandbox that runs for days keeps the same memory. Recording stores
 * references (headers, the body bytes fastify read, the body the fake sent); entries are built
 * only when read.
 */
export class Journal {
  private readonly slots: Slot[] = [];
  private readonly capacity: number;
  private readonly bodyLimit: number;
  private readonly waiters = new Set<Waiter>();
  private next = 0;
  private lastId = 0;

  constructor(capacity: number, bodyLimit: number) {
    this.capacity = capacity;
    this.bodyLimit = bodyLimit;
  }

  /** False when the journal keeps nothing (`journalSize: 0`): callers skip gathering a record. */
  get enabled(): boolean {
    return this.capacity > 0;
  }

  record(record: JournalRecord): void {
    if (this.capacity === 0) return;
    this.lastId += 1;
    const slot: Slot = {
      id: this.lastId,
      record,
      requestBody: keepBody(record.requestBody, this.bodyLimit),
      responseBody: keepBody(record.responseBody, this.bodyLimit),
    };
    this.slots[this.next] = slot;
    this.next = (this.next + 1) % this.capacity;
    if (this.waiters.size > 0) this.notify(toEntry(slot));
  }

  entries(filter?: RequestFilter): JournalEntry[] {
    const ordered =
      this.slots.length < this.capacity
        ? this.slots
        : [...this.slots.slice(this.next), ...this.slots.slice(0, this.next)];
    const entries = ordered.map(toEntry);
    if (!filter) return entries;
    const compiled = compileFilter(filter);
    return entries.filter(compiled.matches);
  }

  /** The first entry that matches, recorded already or arriving within `timeoutMs`. */
  waitFor(filter: RequestFilter, timeoutMs: number): Promise<JournalEntry> {
    const compiled = compileFilter(filter);
    const found = this.entries().find(compiled.matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter: Waiter = {
        filter: compiled,
        resolve: (entry) => {
          settle();
          resolve(entry);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        const recorded = this.entries();
        const closest = nearest(recorded, compiled);
        const message = `No request matching ${compiled.describe()} arrived within ${timeoutMs} ms. ${describeNearest(closest, recorded.length)}`;
        waiter.reject(new WaitTimeoutError(message, closest));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** Ends every wait: the fake is closing. */
  cancelWaits(): void {
    for (const waiter of [...this.waiters]) {
      waiter.reject(new StateError('The fake was closed while waiting for a request.'));
    }
  }

  clear(): void {
    this.slots.length = 0;
    this.next = 0;
  }

  private notify(entry: JournalEntry): void {
    for (const waiter of [...this.waiters]) {
      if (waiter.filter.matches(entry)) waiter.resolve(entry);
    }
  }
}

/**
 * The body as it is kept: the reference itself when within the limit (recording allocates
 * nothing for it), else a copy of its first bytes, so the journal never holds on to a large body
 * through a view of it.
 */
function keepBody(data: string | Buffer | undefined, bodyLimit: number): Kept {
  if (data === undefined || data.length === 0) return undefined;
  const isText = typeof data === 'string';
  // A string's length in bytes is at most three times its length in UTF-16 units.
  if (isText ? data.length * 3 <= bodyLimit : data.length <= bodyLimit) return data;
  const bytes = isText ? Buffer.from(data) : data;
  if (bytes.length <= bodyLimit) return data;
  return new CutBody(Buffer.from(bytes.subarray(0, bodyLimit)), bytes.length, !isUtf8(bytes));
}

/**
 * One exchange as the journal shows it, with the journal's redaction, for recorders outside the
 * fake (the recording proxy): the same entry, and so the same HAR, as the journal's own.
 */
export function journalEntryOf(
  id: number,
  record: JournalRecord,
  bodyLimit = Number.POSITIVE_INFINITY,
): JournalEntry {
  return toEntry({
    id,
    record,
    requestBody: keepBody(record.requestBody, bodyLimit),
    responseBody: keepBody(record.responseBody, bodyLimit),
  });
}

function toEntry({ id, record, requestBody, responseBody }: Slot): JournalEntry {
  const query = record.url.indexOf('?');
  const entry: JournalEntry = {
    id,
    time: isoTime(record.arrived),
    method: record.method,
    path: query === -1 ? record.url : record.url.slice(0, query),
    url: `${record.protocol}://${record.requestHeaders.host ?? 'localhost'}${record.url}`,
    queryString: query === -1 ? '' : record.url.slice(query + 1),
    query: { ...record.query },
    status: record.status,
    format: record.format,
    durationMs: record.durationMs,
    request: { headers: headersOf(record.requestHeaders, true), ...bodyOf(requestBody, true) },
    response: {
      status: record.status,
      headers:
        typeof record.responseHeaders === 'string'
          ? parseHeaderBlock(record.responseHeaders)
          : headersOf(record.responseHeaders, false),
      ...bodyOf(responseBody, false),
    },
  };
  if (record.serverId !== undefined) entry.serverId = record.serverId;
  if (record.fault !== undefined) entry.fault = record.fault;
  if (record.operation !== undefined) entry.operation = record.operation;
  return entry;
}

function headersOf(headers: Headers, redact: boolean): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = typeof value === 'number' ? String(value) : value;
    copy[name] = redact && SECRET_HEADERS.has(name) ? redactCredentials(text) : text;
  }
  return copy;
}

/** `Basic <base64>` becomes `Basic 12345:<redacted>`: the username helps, the key never shows. */
function redactCredentials(value: string | string[]): string | string[] {
  if (Array.isArray(value)) return value.map((one) => redactCredentials(one) as string);
  const space = value.indexOf(' ');
  const scheme = space === -1 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'basic') return space === -1 ? REDACTED : `${scheme} ${REDACTED}`;
  const decoded = basicUsername(value);
  // Only a plain username is shown: anything odd in it could be part of a key.
  const username = decoded !== undefined && /^[\w.-]{1,64}$/.test(decoded) ? decoded : '';
  return `${scheme} ${username ? `${username}:` : ''}${REDACTED}`;
}

/** `HTTP/1.1 200 OK\r\nname: value\r\n...` as `{ name: value }`, names lower-cased. */
function parseHeaderBlock(block: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const line of block.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const previous = headers[name];
    headers[name] = previous === undefined ? value : [...[previous].flat(), value];
  }
  return headers;
}

function bodyOf(kept: Kept, parseJson: boolean): RecordedBody {
  if (kept === undefined) return {};
  const cut = kept instanceof CutBody;
  const data = cut ? kept.data : kept;
  const size = cut ? kept.size : typeof kept === 'string' ? Buffer.byteLength(kept) : kept.length;
  const truncated = cut;
  const binary = cut ? kept.binary : typeof kept !== 'string' && !isUtf8(kept);
  if (binary) {
    const base64 = (typeof data === 'string' ? Buffer.from(data) : data).toString('base64');
    return {
      body: base64,
      bodyEncoding: 'base64',
      bodySize: size,
      ...(truncated ? { bodyTruncated: true } : {}),
    };
  }
  const text = typeof data === 'string' ? data : data.toString('utf8');
  if (truncated) {
    return {
      body: `${text}…[truncated: ${size} bytes in all]`,
      bodySize: size,
      bodyTruncated: true,
    };
  }
  if (parseJson) {
    try {
      return { body: JSON.parse(text) as unknown, bodySize: size };
    } catch {
      // Not JSON: the text as it came.
    }
  }
  return { body: text, bodySize: size };
}
