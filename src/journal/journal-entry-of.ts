// How an entry is built from what the journal keeps (a slot of its ring): its head for filters,
// the whole entry for readers, the entry without bodies for lists; only when someone reads.
import { isUtf8 } from 'node:buffer';
import querystring from 'fast-querystring';
import { parseJsonText } from '../domain/json-body.js';
import { isoTime } from '../domain/rules.js';
import { jsonDepthExceeds } from '../json-depth.js';
import { CutBody, type Kept, keep, MAX_SHOWN_DEPTH } from './journal-body.js';
import type { Headers, JournalEntry, JournalRecord, RecordedBody } from './journal-entry.js';
import type { EntryHead } from './journal-filter.js';
import type { Slot } from './journal-ring.js';

/**
 * One exchange as the journal shows it, for recorders outside the fake (the recording proxy):
 * the same entry, and so the same HAR, as the journal's own. The caller redacts first
 * (redaction/redact.ts), as the journal's own pipeline step does.
 */
export function journalEntryOf(
  id: number,
  facts: JournalRecord,
  requestBody: string | Buffer | undefined,
  responseBody: string | Buffer | undefined,
  bodyLimit = Number.POSITIVE_INFINITY,
): JournalEntry {
  return toEntry({
    id,
    facts,
    requestBody: keep(requestBody, bodyLimit),
    responseBody: keep(responseBody, bodyLimit),
  });
}

/**
 * What a filter reads of an entry: its head and its request body, without the rest (headers, the
 * response), which a read builds only for the entries that match.
 */
export function testedOf(slot: Slot, head: EntryHead): JournalEntry {
  const request = { headers: {}, ...bodyOf(slot.requestBody, true) };
  return { ...head, request } as JournalEntry;
}

/** What a filter reads of an entry besides its body, without building the entry. */
export function headOf({ id, facts }: Slot): EntryHead {
  const query = facts.url.indexOf('?');
  return {
    id,
    method: facts.method,
    path: query === -1 ? facts.url : facts.url.slice(0, query),
    serverId: facts.serverId,
    status: facts.status,
    operation: facts.operation,
    fault: facts.fault,
  };
}

/**
 * The entry with its bodies' sizes but not the bodies: what a list of exchanges shows (the
 * inspector's journal), without decoding or sending up to two cut bodies per entry.
 */
export function toEntryWithoutBodies(slot: Slot): JournalEntry {
  const entry = toEntry({ ...slot, requestBody: undefined, responseBody: undefined });
  Object.assign(entry.request, sizeOf(slot.requestBody));
  Object.assign(entry.response, sizeOf(slot.responseBody));
  return entry;
}

function sizeOf(kept: Kept): RecordedBody {
  if (kept === undefined) return {};
  if (kept instanceof CutBody) return { bodySize: kept.size, bodyTruncated: true };
  return { bodySize: Buffer.byteLength(kept) };
}

export function toEntry({ id, facts: record, requestBody, responseBody }: Slot): JournalEntry {
  const query = record.url.indexOf('?');
  const entry: JournalEntry = {
    id,
    time: isoTime(record.arrived),
    method: record.method,
    path: query === -1 ? record.url : record.url.slice(0, query),
    url: `${record.protocol}://${record.requestHeaders.host ?? 'localhost'}${record.url}`,
    queryString: query === -1 ? '' : record.url.slice(query + 1),
    query: record.query ? { ...record.query } : queryOf(record.url, query),
    authenticated: record.authenticated === true,
    status: record.status,
    format: record.format,
    durationMs: record.durationMs,
    request: { headers: headersOf(record.requestHeaders), ...bodyOf(requestBody, true) },
    response: {
      status: record.status,
      headers:
        typeof record.responseHeaders === 'string'
          ? parseHeaderBlock(record.responseHeaders)
          : headersOf(record.responseHeaders),
      ...bodyOf(responseBody, false),
    },
  };
  if (record.serverId !== undefined) entry.serverId = record.serverId;
  if (record.fault !== undefined) entry.fault = record.fault;
  if (record.operation !== undefined) entry.operation = record.operation;
  if (record.note !== undefined) entry.note = record.note;
  return entry;
}

/**
 * The URL's query parameters (a repeated name gives an array), parsed on read by the parser
 * fastify used for the request, so the entry shows what the API read.
 */
function queryOf(url: string, mark: number): Record<string, string | string[]> {
  return mark === -1 ? {} : { ...querystring.parse(url.slice(mark + 1)) };
}

function headersOf(headers: Headers): Record<string, string | string[]> {
  const copy: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    copy[name] = typeof value === 'number' ? String(value) : value;
  }
  return copy;
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

const DEEP_JSON_NOTE = `JSON nested deeper than ${MAX_SHOWN_DEPTH} levels: shown as text.`;

function bodyOf(kept: Kept, parseJson: boolean): RecordedBody {
  if (kept === undefined) return {};
  if (kept instanceof CutBody) return cutBodyOf(kept);
  // A string's UTF-8 bytes, a Buffer's length.
  const size = Buffer.byteLength(kept);
  if (typeof kept !== 'string' && !isUtf8(kept)) {
    return { body: kept.toString('base64'), bodyEncoding: 'base64', bodySize: size };
  }
  // UTF-8 for a Buffer, the string itself for a string.
  const text = kept.toString();
  if (parseJson && jsonDepthExceeds(text, MAX_SHOWN_DEPTH)) {
    // Parsed, it would overflow the stack of every reader (JSON.stringify, filters, HAR).
    return { body: text, bodySize: size, bodyNote: DEEP_JSON_NOTE };
  }
  if (parseJson) {
    try {
      // The API's own reader: a body it refused (a name given twice...) is not shown as JSON.
      return { body: parseJsonText(text), bodySize: size };
    } catch {
      // Not JSON by the API's rules: the text as it came.
    }
  }
  return { body: text, bodySize: size };
}

/** A body over the limit: its first bytes, as base64 or as text ending with a marker. */
function cutBodyOf({ data, size, binary }: CutBody): RecordedBody {
  if (binary) {
    return {
      body: data.toString('base64'),
      bodyEncoding: 'base64',
      bodySize: size,
      bodyTruncated: true,
    };
  }
  return {
    body: `${data.toString()}…[truncated: ${size} bytes in all]`,
    bodySize: size,
    bodyTruncated: true,
  };
}
