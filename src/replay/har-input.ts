import { MAX_ANSWER_BYTES } from '../answer-limit.js';
import { codingsListed, looksLikeGzip, undoCodings } from '../content-codings.js';
import { MAX_SHOWN_DEPTH } from '../journal/journal-body.js';
import { jsonDepthExceeds } from '../json-depth.js';
import { readAs, xmlTooLarge } from './body.js';

/** A HAR that replay cannot read; the message says what is wrong and where (entry index). */
export class HarInputError extends Error {
  override name = 'HarInputError';
  /**
   * The credential headers read before the problem was found (see HarExchanges): replay hides
   * those keys in the message, which may quote an entry's URL.
   */
  readonly credentials: readonly string[];
  constructor(message: string, credentials: readonly string[] = []) {
    super(message);
    this.credentials = credentials;
  }
}

/** One recorded API exchange, decoded: what replay sends again and what it compares with. */
export interface RecordedExchange {
  /** The entry's index in `log.entries`, from 0: how reports and errors point at it. */
  readonly index: number;
  readonly method: string;
  /** `v1` or `beta`: the version segment the client used. */
  readonly version: 'v1' | 'beta';
  /** The path after `/marketing/v1` (or `beta`), e.g. `/lists/1/contacts`; `''` for the root. */
  readonly path: string;
  /** The query string with its `?`, or `''`. */
  readonly search: string;
  /** Request headers, names lower-cased, the first of repeated ones. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
  readonly bodyTruncated: boolean;
  readonly response: {
    readonly status: number;
    readonly contentType: string;
    /** The decoded body as text; undefined when the recording kept none. */
    readonly body: string | undefined;
    readonly truncated: boolean;
    /** Why the body was not read: it decodes to more than {@link MAX_DECODED_BODY_BYTES}. */
    readonly unreadable?: string;
  };
  /** An injected fault (the fake's own HAR) or the recorder's "upstream not reached". */
  readonly noAnswerReason: string | undefined;
}

/** The API exchanges of a HAR, in order, and how many other entries it held. */
export interface HarExchanges {
  readonly exchanges: RecordedExchange[];
  readonly entries: number;
  readonly ignored: number;
  /**
   * Every `Authorization` and `Proxy-Authorization` value of every entry, API or not, repeated
   * ones included: where the report learns the keys it must never show.
   */
  readonly credentials: string[];
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

const API_PATH = /\/marketing\/(v1|beta)(\/[^?#]*)?$/;
// The journal's marker for a body kept cut off at journalBodyLimit.
const TRUNCATED = /…\[truncated: \d+ bytes in all\]$/;
const MAX_PROBLEMS = 5;

/**
 * The most bytes a compressed body is decoded to. A few kilobytes of gzip can hold gigabytes (a
 * 1.5 MB HAR decoding to 1.1 GiB took replay to 2.3 GB of memory); no answer of the service comes
 * near this, and a body past it is reported as not comparable instead.
 */
export const MAX_DECODED_BODY_BYTES = MAX_ANSWER_BYTES;

/** The deepest a HAR may nest: the bound replay puts on a recorded JSON body too. */
const MAX_HAR_DEPTH = MAX_SHOWN_DEPTH;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a HAR 1.2 document (this fake's, the recorder's, a browser's): checks the fields replay
 * uses, keeps the API entries (under `/marketing/v1` or `/marketing/beta`) and counts the rest.
 * Throws HarInputError naming the entry index for anything it cannot use.
 */
export function readHarExchanges(text: string): HarExchanges {
  // Before JSON.parse, which builds every level: 30 MB of `[` took 1.5 GB. A HAR nests some 6
  // levels (a browser's call stacks in `_initiator` some 40); its bodies are strings.
  if (jsonDepthExceeds(text, MAX_HAR_DEPTH))
    throw new HarInputError(
      `not a HAR: its arrays and objects nest deeper than ${MAX_HAR_DEPTH} levels, far past any HAR's.`,
    );
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new HarInputError(`not JSON: ${(error as Error).message}`);
  }
  if (!isObject(document) || !isObject(document.log))
    throw new HarInputError('not a HAR: there is no "log" object at the top.');
  const { log } = document;
  if (log.version !== '1.2')
    throw new HarInputError(
      `not HAR 1.2: log.version is ${JSON.stringify(log.version) ?? 'missing'}, wanted "1.2".`,
    );
  if (!Array.isArray(log.entries))
    throw new HarInputError('not HAR 1.2: log.entries is not an array.');
  const problems: string[] = [];
  const exchanges: RecordedExchange[] = [];
  const credentials: string[] = [];
  let ignored = 0;
  log.entries.forEach((entry: unknown, index: number) => {
    credentials.push(...credentialsOf(entry));
    const problem = entryProblem(entry);
    if (problem !== undefined) {
      problems.push(`entry ${index}: ${problem}`);
      return;
    }
    const exchange = toExchange(entry as Json, index);
    if (exchange) exchanges.push(exchange);
    else ignored += 1;
  });
  if (problems.length > 0) {
    const more = problems.length > MAX_PROBLEMS ? `\n(${problems.length - MAX_PROBLEMS} more)` : '';
    throw new HarInputError(
      `not HAR 1.2: ${problems.length} entr${problems.length === 1 ? 'y is' : 'ies are'} malformed:\n${problems.slice(0, MAX_PROBLEMS).join('\n')}${more}`,
      credentials,
    );
  }
  if (exchanges.length === 0)
    throw new HarInputError(
      `no API entries: none of the ${log.entries.length} entries is under /marketing/v1 or /marketing/beta.`,
    );
  return { exchanges, entries: log.entries.length, ignored, credentials };
}

/** The credential header values of an entry's request, however malformed the entry. */
function credentialsOf(entry: unknown): string[] {
  const headers = isObject(entry) && isObject(entry.request) ? entry.request.headers : undefined;
  if (!Array.isArray(headers)) return [];
  return headers.flatMap((header: unknown) =>
    isObject(header) &&
    typeof header.name === 'string' &&
    CREDENTIAL_HEADERS.has(header.name.trim().toLowerCase()) &&
    typeof header.value === 'string'
      ? [header.value]
      : [],
  );
}

/** An HTTP method: a token (RFC 9110, 9.1), as the fake and any server would take it. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** What replay needs of an entry and is missing, or undefined. */
function entryProblem(entry: unknown): string | undefined {
  if (!isObject(entry)) return 'is not an object';
  const { request, response } = entry;
  if (!isObject(request)) return 'request is missing';
  if (typeof request.method !== 'string' || request.method === '')
    return 'request.method is missing';
  if (!METHOD.test(request.method))
    return `request.method is not an HTTP method (${JSON.stringify(request.method.slice(0, 40))})`;
  if (typeof request.url !== 'string' || !URL.canParse(request.url))
    return `request.url is not an absolute URL (${JSON.stringify(request.url)})`;
  if (!Array.isArray(request.headers)) return 'request.headers is not an array';
  if (request.postData !== undefined && !isObject(request.postData))
    return 'request.postData is not an object';
  if (!isObject(response)) return 'response is missing';
  if (typeof response.status !== 'number') return 'response.status is not a number';
  if (!Array.isArray(response.headers)) return 'response.headers is not an array';
  if (!isObject(response.content)) return 'response.content is missing';
  if (response.content.text !== undefined && typeof response.content.text !== 'string')
    return 'response.content.text is not a string';
  return undefined;
}

function toExchange(entry: Json, index: number): RecordedExchange | undefined {
  const request = entry.request as Json;
  const response = entry.response as Json;
  const url = new URL(request.url as string);
  const api = API_PATH.exec(url.pathname);
  if (!api) return undefined;
  const headers = headerMap(request.headers as unknown[]);
  const responseHeaders = headerMap(response.headers as unknown[]);
  const postData = request.postData as Json | undefined;
  const requestText = typeof postData?.text === 'string' ? postData.text : undefined;
  const requestBase64 = postData?._encoding === 'base64' || postData?.encoding === 'base64';
  const content = response.content as Json;
  const read = decodeBody(
    content.text as string | undefined,
    content.encoding === 'base64',
    responseHeaders['content-encoding'],
  );
  const contentType =
    responseHeaders['content-type'] ??
    (typeof content.mimeType === 'string' ? content.mimeType : '');
  // XML too large to read is never read: neither compared nor taken into the inferred state.
  const tooLarge =
    typeof read === 'string' && readAs(contentType, read) === 'xml' ? xmlTooLarge(read) : undefined;
  const decoded = tooLarge === undefined ? read : { unreadable: tooLarge };
  const responseBody = typeof decoded === 'object' ? undefined : decoded;
  const fault =
    typeof entry._fault === 'string'
      ? `an injected fault (${entry._fault}) answered it`
      : undefined;
  const unreachable =
    typeof entry._unreachable === 'string'
      ? `the recorder could not reach the upstream: ${entry._unreachable}`
      : undefined;
  const noAnswer =
    (response.status as number) <= 0 ? 'the recording holds no answer (status 0)' : undefined;
  return {
    index,
    method: (request.method as string).toUpperCase(),
    version: api[1] as 'v1' | 'beta',
    path: api[2] ?? '',
    search: url.search,
    headers,
    body:
      requestText === undefined || requestText === ''
        ? undefined
        : Buffer.from(requestText, requestBase64 ? 'base64' : 'utf8'),
    bodyTruncated: requestText !== undefined && TRUNCATED.test(requestText),
    response: {
      status: response.status as number,
      contentType:
        responseHeaders['content-type'] ??
        (typeof content.mimeType === 'string' && responseBody ? content.mimeType : ''),
      body: responseBody,
      truncated: responseBody !== undefined && TRUNCATED.test(responseBody),
      ...(typeof decoded === 'object' ? { unreadable: decoded.unreadable } : {}),
    },
    noAnswerReason: unreachable ?? fault ?? noAnswer,
  };
}

function headerMap(headers: readonly unknown[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const header of headers) {
    if (!isObject(header) || typeof header.name !== 'string') continue;
    const name = header.name.toLowerCase();
    if (map[name] === undefined) map[name] = String(header.value ?? '');
  }
  return map;
}

/**
 * HAR 1.2 stores bodies decoded, but not every tool does: a base64 body whose bytes are still
 * compressed (as Content-Encoding says, or by the gzip magic number) is inflated here. Every
 * coding the header lists is undone, the last applied first (`gzip, br` is brotli of gzip), each
 * to {@link MAX_DECODED_BODY_BYTES} at most (zlib stops there): past it, why it was not read. The
 * bound holds for base64 that is not compressed too.
 */
function decodeBody(
  text: string | undefined,
  base64: boolean,
  contentEncoding: string | undefined,
): string | undefined | { unreadable: string } {
  if (text === undefined) return undefined;
  if (!base64) return text;
  // Measured without decoding (the length alone says it): a body past the bound is never held twice.
  if (Buffer.byteLength(text, 'base64') > MAX_DECODED_BODY_BYTES)
    return { unreadable: tooLarge('base64') };
  const bytes = Buffer.from(text, 'base64');
  const listed = codingsListed(contentEncoding);
  const codings = listed.length === 0 && looksLikeGzip(bytes) ? ['gzip'] : listed;
  const undone = undoCodings(bytes, codings, MAX_DECODED_BODY_BYTES);
  if ('tooLarge' in undone) return { unreadable: tooLarge(codings.join(', ')) };
  // A coding it cannot undo: already decoded that far, as HAR 1.2 wants; the bytes as they are.
  return undone.bytes.toString('utf8');
}

/** Why a body past {@link MAX_DECODED_BODY_BYTES} is not compared. */
const tooLarge = (decoding: string) =>
  `the recorded answer body decodes (${decoding}) to more than ${MAX_DECODED_BODY_BYTES} bytes, the most replay reads`;
