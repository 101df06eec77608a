// What the journal holds and gives: its entries as readers see them, and the records the HTTP
// layer hands it. Types only, in a file of their own, so that the journal's parts (its ring, its
// filters, its HAR) and its readers share them without importing the journal itself.
import type { FaultKind } from '../faults/fault-rule.js';

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
  /** Why the body is shown as it is, when not as usual (JSON nested too deep to show parsed). */
  bodyNote?: string;
}

/**
 * The request as the client sent it, without secrets (redaction/redact.ts): `Authorization` keeps
 * the Basic username only, and every key and the admin token show as `<redacted>`.
 */
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
  /**
   * The server the request's Basic username names (claimed), whether or not its key was right:
   * set for every request that sends a number as its Basic username, faulted and refused ones
   * included. `authenticated` says whether the key opened that server.
   */
  serverId?: number;
  /** True when the Basic credentials opened a server (`serverId`); false when not checked or wrong. */
  authenticated: boolean;
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
  /** Set when the exchange could not be recorded whole: what is missing, and why. */
  note?: string;
  request: RecordedRequest;
  response: RecordedResponse;
}

/**
 * What the HTTP layer hands the journal besides the bodies: references, converted only when
 * someone reads; kept as it is, since nothing in it grows with a body.
 */
export interface JournalRecord {
  readonly arrived: number;
  readonly durationMs: number;
  readonly protocol: string;
  readonly method: string;
  /** Path and query string, as sent. */
  readonly url: string;
  /**
   * The query parameters, only when they differ from the URL's (redacted): else they are parsed
   * from `url` on read, so that an entry holds no object per parameter.
   */
  readonly query?: Readonly<Record<string, string | string[]>>;
  /** The Basic username as a server id, whether or not the key was right. */
  readonly serverId: number | undefined;
  /** True when the credentials opened that server; missing is false. */
  readonly authenticated?: boolean;
  readonly operation: string | undefined;
  readonly format: 'json' | 'xml';
  readonly status: number;
  readonly fault: FaultKind | undefined;
  readonly requestHeaders: Headers;
  /** The headers as an object, or the header block exactly as Node wrote it (parsed on read). */
  readonly responseHeaders: Headers | string;
  /** Why the record is partial, when it is. */
  readonly note?: string;
}
