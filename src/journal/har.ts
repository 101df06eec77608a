import { STATUS_CODES } from 'node:http';
import { PACKAGE_VERSION } from '../version.js';
import type { JournalEntry, RecordedBody } from './journal-entry.js';

/** An HTTP Archive (HAR 1.2) document; entries follow the HAR 1.2 specification. */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
  };
}

export interface NameValue {
  name: string;
  value: string;
}

/** One exchange; `_id`, `_operation`, `_fault` and `_serverId` are this fake's own fields. */
export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: NameValue[];
    queryString: NameValue[];
    postData?: { mimeType: string; text: string; _encoding?: 'base64' };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: NameValue[];
    content: { size: number; mimeType: string; text?: string; encoding?: 'base64' };
    redirectURL: '';
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _id: number;
  _operation?: string;
  _fault?: string;
  _serverId?: number;
  /** HAR 1.2's free comment: the recorder says here why an exchange had no upstream answer. */
  comment?: string;
  /** Set by the recorder when the upstream could not be reached (the client got a 502). */
  _unreachable?: string;
}

/** The journal as HAR 1.2, oldest first: keys stay redacted, as in the journal itself. */
export function toHar(entries: readonly JournalEntry[]): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'fake-marketing-server', version: PACKAGE_VERSION },
      entries: entries.map((entry) => toHarEntry(entry)),
    },
  };
}

/**
 * The text of a HAR document before its first entry and after its last, so that a writer can
 * put the entries between them one at a time: the same bytes as `JSON.stringify(toHar(...))`.
 */
export function harFrame(): { head: string; tail: string } {
  const empty = JSON.stringify(toHar([]));
  const at = empty.lastIndexOf('[]');
  return { head: empty.slice(0, at + 1), tail: empty.slice(at + 1) };
}

/** One journal entry as a HAR 1.2 entry (the journal's and the recorder's one builder). */
export function toHarEntry(entry: JournalEntry): HarEntry {
  const { request, response } = entry;
  const requestType = header(request.headers, 'content-type');
  const requestText = textOf(request);
  const responseText = textOf(response);
  const harEntry: HarEntry = {
    startedDateTime: entry.time,
    time: entry.durationMs,
    request: {
      method: entry.method,
      url: entry.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: pairs(entry.query),
      ...(requestText === undefined
        ? {}
        : {
            postData: {
              mimeType: requestType ?? '',
              text: requestText,
              ...(request.bodyEncoding ? { _encoding: request.bodyEncoding } : {}),
            },
          }),
      headersSize: -1,
      bodySize: request.bodySize ?? 0,
    },
    response: {
      status: response.status,
      statusText: STATUS_CODES[response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response.headers),
      content: {
        size: response.bodySize ?? 0,
        mimeType: header(response.headers, 'content-type') ?? '',
        ...(responseText === undefined ? {} : { text: responseText }),
        ...(response.bodyEncoding ? { encoding: response.bodyEncoding } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: response.bodySize ?? (response.status === 0 ? -1 : 0),
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    _id: entry.id,
  };
  if (entry.operation !== undefined) harEntry._operation = entry.operation;
  if (entry.fault !== undefined) harEntry._fault = entry.fault;
  if (entry.serverId !== undefined) harEntry._serverId = entry.serverId;
  return harEntry;
}

function textOf(message: RecordedBody): string | undefined {
  const { body } = message;
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function header(headers: Record<string, string | string[]>, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function pairs(values: Record<string, string | string[]>): NameValue[] {
  return Object.entries(values).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((one) => ({ name, value: one })),
  );
}
