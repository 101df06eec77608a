import {
  type Agent as HttpAgent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import { AnswerTooLargeError, MAX_ANSWER_BYTES, readBounded } from '../answer-limit.js';
import { RecorderOptionError } from './recorder-error.js';
import { refuse } from './refusals.js';

/** Headers that describe one connection, not the message (RFC 9110, 7.6.1): never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authorization',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
]);
const MARKETING = /\/marketing\/(v1|beta)\/?$/;

/** Where the recorder forwards to. */
export interface Upstream {
  readonly https: boolean;
  readonly origin: string;
  readonly host: string;
  /** Path before `/marketing/v1` on the upstream (a gateway's prefix), without a final `/`. */
  readonly prefix: string;
}

/**
 * What a message may show of an `--upstream` that is no URL: the host part, never credentials
 * (all up to the last `@`), a path, a query or a fragment.
 */
export function shownText(text: string): string {
  const address = text.replace(/[?#][\s\S]*$/, '');
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(address)?.[0] ?? '';
  const rest = address.slice(scheme.length);
  return scheme + rest.slice(rest.lastIndexOf('@') + 1).replace(/[/\\][\s\S]*$/, '');
}

/**
 * The upstream of `--upstream`; throws RecorderOptionError for one that is not an http(s) URL,
 * or that holds credentials: the recorder forwards the client's own Authorization header, so
 * credentials in the upstream would be a second key, never sent and printed at start. Its
 * messages show the origin only (the scheme of another kind of URL), however the text is spelt.
 */
export function parseUpstream(text: string): Upstream {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RecorderOptionError(
      `--upstream must be a URL such as https://api.example.com, got '${shownText(text)}'.`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RecorderOptionError(
      `--upstream must be an http or https URL, got a '${url.protocol}' URL.`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new RecorderOptionError(
      `--upstream must not hold credentials (user:key@): the client under test sends its own key in its Authorization header, and record forwards it. Give the address alone, e.g. '${url.origin}'.`,
    );
  }
  const prefix = url.pathname.replace(MARKETING, '').replace(/\/$/, '');
  return { https: url.protocol === 'https:', origin: url.origin, host: url.host, prefix };
}

/** One exchange as the recorder saw it. */
export interface Exchange {
  readonly arrived: number;
  readonly started: number;
  readonly method: string;
  readonly path: string;
  readonly requestHeaders: IncomingHttpHeaders;
  readonly requestBody: Buffer;
  readonly status: number;
  readonly responseHeaders: IncomingHttpHeaders;
  readonly responseBody: Buffer;
  /** Why the upstream gave no answer (the client got a 502). */
  readonly unreachable?: string;
}

/** How to reach the upstream. */
export interface Route {
  readonly upstream: Upstream;
  readonly agent: HttpAgent;
  readonly timeoutMs: number;
  /**
   * This recorder's name in the `Via` header it adds to what it forwards (RFC 9110, 7.6.3):
   * a request that comes back with it went round a loop (`--upstream` is the recorder itself).
   */
  readonly hop: string;
}

/** The answer header by which a recorder tells its own loop's 508 from an upstream's. */
const LOOP_HEADER = 'x-fake-marketing-server-loop';

/**
 * Sends the request on to the upstream and passes its answer back unchanged; resolves with the
 * whole exchange. An upstream that cannot be reached, or whose answer is past MAX_ANSWER_BYTES,
 * gets the client a 502 saying why. Rejects when the client went away (its upstream request is
 * stopped).
 */
export async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  route: Route,
): Promise<Exchange> {
  const arrived = Date.now();
  const started = performance.now();
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > MAX_ANSWER_BYTES) {
    // Refused before a byte is read; a chunked body past the bound is cut below (the connection
    // with it). Either way nothing is recorded.
    refuse(
      res,
      413,
      `the request body is larger than ${MAX_ANSWER_BYTES} bytes (32 MiB), the most record reads`,
      {
        connection: 'close',
      },
    );
    throw new RefusedHereError();
  }
  const requestBody = await readBounded(req, undefined, 'the request body', 'record');
  const path = route.upstream.prefix + (req.url ?? '/');
  const requestHeaders = forwardedHeaders(req.headers);
  requestHeaders.host = route.upstream.host;
  const base = { arrived, started, method: req.method ?? 'GET', path, requestHeaders, requestBody };
  if (cameBack(req, route)) {
    // The loop's own turn: refused, never forwarded again, never recorded.
    refuse(res, 508, loopMessage(route), { [LOOP_HEADER]: route.hop });
    throw new RefusedHereError();
  }
  let answer: IncomingMessage | undefined;
  // A client that went away stops the reading of its answer: nothing more is fetched for it.
  const clientGone = () => answer?.destroy(new ClientGoneError());
  res.once('close', clientGone);
  try {
    answer = await send(route, base);
    if (res.destroyed) {
      answer.destroy();
      throw new ClientGoneError();
    }
    if ((answer.statusCode ?? 0) < 200) {
      // A 101 without `Upgrade` comes as a response (Node passes other 1xx by): passed on, it
      // left the client with a switch to nothing.
      answer.destroy();
      throw new SwitchedProtocolsError(switchedMessage(route));
    }
    if (answer.headers[LOOP_HEADER] === route.hop) {
      answer.resume();
      throw new LoopDetectedError(loopMessage(route));
    }
    // Kept whole before it is passed on, so that an answer past the bound gets the client a 502
    // rather than half of one.
    const body = await readBounded(
      answer,
      answer.headers['content-length'],
      `the upstream's answer to ${base.method} ${base.path.replace(/\?[\s\S]*$/, '')}`,
      'record',
    );
    res.writeHead(answer.statusCode ?? 502, forwardedHeaders(answer.headers));
    res.end(body);
    return {
      ...base,
      status: answer.statusCode ?? 0,
      responseHeaders: answer.headers,
      responseBody: body,
    };
  } catch (error) {
    if (error instanceof ClientGoneError || res.destroyed) throw new ClientGoneError();
    const reason =
      error instanceof AnswerTooLargeError ||
      error instanceof LoopDetectedError ||
      error instanceof SwitchedProtocolsError
        ? error.message
        : describeError(error as NodeJS.ErrnoException, route);
    const status = error instanceof LoopDetectedError ? 508 : 502;
    const body = Buffer.from(
      JSON.stringify({ message: `fake-marketing-server record: ${reason}` }),
    );
    const responseHeaders = {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
    };
    if (!res.headersSent) res.writeHead(status, responseHeaders).end(body);
    else res.destroy();
    return { ...base, status, responseHeaders, responseBody: body, unreachable: reason };
  } finally {
    res.off('close', clientGone);
  }
}

/** The client of the recorder went away before its answer was whole: nothing to record. */
class ClientGoneError extends Error {
  override name = 'ClientGoneError';
}

/**
 * The recorder answered the request itself (a loop's turn: 508; a body past the bound: 413):
 * nothing was exchanged with the upstream, nothing is recorded.
 */
export class RefusedHereError extends Error {
  override name = 'RefusedHereError';
}

/** The upstream answered with this recorder's own loop refusal. */
class LoopDetectedError extends Error {
  override name = 'LoopDetectedError';
}

/** The upstream answered 101 Switching Protocols: the client gets a 502 saying so. */
class SwitchedProtocolsError extends Error {
  override name = 'SwitchedProtocolsError';
}

function switchedMessage(route: Route): string {
  return `upstream ${route.upstream.origin} answered 101 Switching Protocols: record passes on and records HTTP exchanges only, not a switch to another protocol (the upstream's connection was closed)`;
}

function cameBack(req: IncomingMessage, route: Route): boolean {
  const via = req.headers.via;
  return typeof via === 'string' && via.split(',').some((one) => one.trim().endsWith(route.hop));
}

function loopMessage(route: Route): string {
  return `loop detected: --upstream ${route.upstream.origin} is this recorder itself, so each request would come back to it without end. Point --upstream at the service to record.`;
}

function send(
  route: Route,
  exchange: {
    method: string;
    path: string;
    requestHeaders: IncomingHttpHeaders;
    requestBody: Buffer;
  },
): Promise<IncomingMessage> {
  const request = route.upstream.https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const via = exchange.requestHeaders.via;
    const req = request(route.upstream.origin + exchange.path, {
      method: exchange.method,
      headers: {
        ...exchange.requestHeaders,
        via: `${via === undefined ? '' : `${via}, `}1.1 ${route.hop}`,
      },
      agent: route.agent,
      timeout: route.timeoutMs,
    });
    // The whole answer, not only each silence, must come within the time: an upstream that drips
    // a byte a second is never silent for long, and would hold the client for ever.
    let answer: IncomingMessage | undefined;
    const timeout = () => Object.assign(new Error('timeout'), { code: 'TIMEOUT' });
    const deadline = setTimeout(() => (answer ?? req).destroy(timeout()), route.timeoutMs);
    req.on('response', (response: IncomingMessage) => {
      answer = response;
      response.once('close', () => clearTimeout(deadline));
      resolve(response);
    });
    // A 101 is a switch to another protocol, no answer to pass on or record: Node hands it to an
    // 'upgrade' listener, never to 'response', and without one the client waited for ever.
    req.on('upgrade', (_answer: IncomingMessage, socket: Duplex) => {
      clearTimeout(deadline);
      socket.destroy();
      reject(new SwitchedProtocolsError(switchedMessage(route)));
    });
    req.on('timeout', () => req.destroy(timeout()));
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.end(exchange.requestBody.length > 0 ? exchange.requestBody : undefined);
  });
}

function describeError(error: NodeJS.ErrnoException, route: Route): string {
  const where = route.upstream.origin;
  if (error.code === 'TIMEOUT')
    return `upstream ${where} gave no whole answer within ${route.timeoutMs} ms`;
  return `upstream ${where} could not be reached: ${error.code ? `${error.code} ` : ''}${error.message}`;
}

/**
 * The headers a proxy passes on: not the hop-by-hop ones, nor those the message's own
 * `Connection` names (RFC 9110 7.6.1), nor the credentials meant for this proxy
 * (`Proxy-Authorization`, which the recorder never asks for).
 */
function forwardedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  );
  const copy: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (HOP_BY_HOP.has(name) || named.has(name) || value === undefined) continue;
    copy[name] = value;
  }
  return copy;
}
