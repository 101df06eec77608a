import { randomBytes } from 'node:crypto';
import {
  Agent as HttpAgent,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { codingsListed } from '../content-codings.js';
import { HostAllowList, hostFieldCount } from '../http/host-allow-list.js';
import { startServer } from '../listen.js';
import { API_PREFIX } from '../paths.js';
import { Redactor } from '../redaction/redact.js';
import { hiddenWhole } from './clear-credentials.js';
import { cookiePairs, hiddenPair, mapSetCookiePairs } from './cookie-lines.js';
import { decodedBody } from './decoded-body.js';
import { recordedEntry } from './escaped-size.js';
import { ExchangeSlots } from './exchange-slots.js';
import {
  type Exchange,
  forward,
  parseUpstream,
  RefusedHereError,
  type Upstream,
} from './forward.js';
import { HarFile, HarWriteError } from './har-file.js';
import { LearnedSecrets, MAX_LEARNED_SECRETS } from './learned-secrets.js';
import { readPrevious } from './previous-har.js';
import { urlWithoutSecrets } from './recorded-url.js';
import { RecorderOptionError } from './recorder-error.js';
import {
  refuseBusy,
  refuseControlApi,
  refuseHost,
  refuseLate,
  refuseTarget,
  refuseUnwritable,
} from './refusals.js';

export { RecorderOptionError };

/** Options of {@link startRecorder}. */
export interface RecorderOptions {
  /** The service to record, e.g. `https://api.example.com` or `.../marketing/v1`. */
  upstream: string;
  /** The HAR file to write; an existing HAR is continued. */
  out: string;
  /** Default true: serve HTTPS with the generated localhost certificate. */
  https?: boolean;
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A PEM to trust for the upstream besides the system's (a private CA, a fake's certificate). */
  ca?: string;
  /** How long the upstream may take to answer; default 30 000 ms. */
  upstreamTimeoutMs?: number;
  /**
   * Secrets to redact from the first exchange on, besides the keys learned from the traffic
   * (`verify --har` passes its key: an answer can echo it before any request carried it).
   */
  secrets?: readonly string[];
  /**
   * How many exchanges are forwarded at once; default 8. Each holds up to two bodies of 32 MiB,
   * so this bounds the recorder's memory; more requests wait their turn, their bodies unread, up
   * to {@link MAX_WAITING}; past that one gets 503 at once.
   */
  maxInFlight?: number;
  /**
   * How long a request may wait its turn; default 45 000 ms. Past it, it is answered 504 saying
   * so, neither forwarded nor recorded (its unread body would soon be cut by the server's own
   * 60 s bound with a bare 408).
   */
  queueWaitMs?: number;
}

/** The most requests that wait for their turn while {@link RecorderOptions.maxInFlight} are forwarded. */
export const MAX_WAITING = 256;

/** A running recording proxy. */
export interface Recorder {
  /** `https://127.0.0.1:PORT` */
  readonly url: string;
  /** The base URL for clients: `url + '/marketing/v1'`. */
  readonly baseUrl: string;
  /** The PEM clients must trust (HTTPS with the generated certificate); undefined over HTTP. */
  readonly ca: string | undefined;
  /** The HAR file being written. */
  readonly out: string;
  /** Exchanges in the file so far (a continued file's included). */
  readonly entries: number;
  /** Stops accepting, lets exchanges in flight finish, writes the file: it is whole after this. */
  close(): Promise<void>;
}

const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_IN_FLIGHT = 8;
/**
 * How long a request may wait for its turn. Its body is unread meanwhile, and the server cuts a
 * request whose body has not arrived within 60 s with a bare 408 (see listen.ts): under that, the
 * recorder answers it itself, saying why, with time left to forward one whose turn comes late.
 */
const DEFAULT_QUEUE_WAIT_MS = 45_000;

/**
 * Starts a recording proxy: each request is forwarded to the upstream unchanged but for `Host`,
 * `Via` (and hop-by-hop headers), its answer is returned unchanged, and the exchange is appended
 * to a HAR 1.2 file with the journal's redaction (the Basic username, the server id, stays; the
 * key never). An upstream that cannot be reached, or whose answer is past 32 MiB, gets the client
 * a 502 saying why, recorded as such; a request that loops back to the recorder, a 508.
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const upstream = parseUpstream(options.upstream);
  const file = new HarFile(options.out, await readPrevious(options.out), (error) =>
    process.emitWarning(
      `record: ${error.message}; ${file.unwritten} exchanges wait in memory, tried again in a second.`,
    ),
  );
  const agentOptions = { keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) };
  const agent = upstream.https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
  const timeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const inFlight = new Set<Promise<void>>();
  const queueWaitMs = options.queueWaitMs ?? DEFAULT_QUEUE_WAIT_MS;
  const slots = new ExchangeSlots(options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT, MAX_WAITING);
  // Names this recorder in the Via header of what it forwards, to see its own requests come back.
  const hop = `fake-marketing-server-record-${randomBytes(8).toString('hex')}`;
  let nextId = file.entries;
  const secrets = new LearnedSecrets(options.secrets, MAX_LEARNED_SECRETS);
  // Whole bodies are recorded, so whole bodies are scanned.
  const redactor = new Redactor(secrets, Number.MAX_SAFE_INTEGER);

  // The recorder passes requests on with the upstream's Host: a DNS-rebinding page (a name of its
  // own that resolves to 127.0.0.1) would reach a fake's control API through it, which the fake
  // refuses when asked directly. So the recorder answers only its own names, as the fake does.
  const hosts = new HostAllowList([options.host ?? '127.0.0.1']);
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (hostFieldCount(req.rawHeaders) > 1 || !hosts.allowsHost(req.headers.host ?? '')) {
      return refuseHost(req, res);
    }
    if (!req.url?.startsWith('/')) return refuseTarget(req, res);
    if (namesControlApi(req.url)) return refuseControlApi(req, res);
    if (file.refusal) return refuseUnwritable(req, res, file.refusal);
    const turn = slots.take(queueWaitMs);
    if (turn === undefined) return refuseBusy(req, res, slots);
    let taken = false;
    const done = turn
      .then((came) => {
        if (!came) {
          refuseLate(req, res, queueWaitMs, slots.size);
          throw new RefusedHereError();
        }
        taken = true;
        // A request that waited its turn while the HAR became unwritable is refused too.
        if (file.refusal) {
          refuseUnwritable(req, res, file.refusal);
          throw new RefusedHereError();
        }
        return forward(req, res, { upstream, agent, timeoutMs, hop });
      })
      .then(
        async (exchange) => {
          // What is not yet on disk is bounded: past it, the turn waits for the next write.
          await file.room();
          nextId += 1;
          // The client's headers as it sent them: Proxy-Authorization is not forwarded, but its
          // credentials may come back in a query, a body or an answer.
          secrets.learn(everyValue(req.rawHeaders), exchange.responseHeaders);
          file.append(exchangeEntry(nextId, exchange, upstream, redactor));
        },
        // The client went away (before its request or its answer was whole), its body was past
        // the bound, or the recorder answered it itself: nothing was exchanged to record.
        (error: unknown) => {
          if (!(error instanceof RefusedHereError)) res.destroy();
        },
      )
      .finally(() => {
        if (taken) slots.release();
      });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  const { server, address } = await startServer(
    handler,
    { port: options.port ?? 0, host: options.host ?? '127.0.0.1', https: options.https ?? true },
    API_PREFIX,
  );
  try {
    await file.write();
  } catch (error) {
    // No file, no recorder: nothing may be left listening (an --out that cannot be written).
    await new Promise((resolve) => server.close(resolve));
    agent.destroy();
    if (error instanceof HarWriteError)
      throw new RecorderOptionError(
        `cannot write --out ${error.path}: ${error.reason}; give another --out.`,
      );
    throw error;
  }
  return {
    url: address.url,
    baseUrl: address.baseUrl,
    ca: address.ca,
    out: options.out,
    get entries() {
      return file.entries;
    },
    close: () => closeRecorder(server, inFlight, file, agent),
  };
}

/**
 * Whether a request target reaches a fake's control API (`/__admin/...`), however it is spelt:
 * dot segments (`/marketing/v1/../../__admin`), percent-escapes (`%2e%2e`, `%5f%5fadmin`), any
 * letter case. The recorder records a service's API; a fake's control API answers its keys
 * (`GET /__admin/state`) and resets it, which no recording may hold or do.
 */
export function namesControlApi(target: string): boolean {
  // Backslashes and runs of slashes are one slash to many servers and proxies (nginx merges them).
  let path = target.replace(/[\\/]+/g, '/');
  // Up to three times: an escape may hide a dot segment or another escape.
  for (let round = 0; round < 3; round += 1) {
    try {
      path = new URL(path, 'http://recorder.invalid').pathname;
    } catch {
      return true;
    }
    if (/(^|\/)__admin(\/|$)/i.test(path)) return true;
    let unescaped: string;
    try {
      unescaped = decodeURIComponent(path);
    } catch {
      return false;
    }
    if (unescaped === path) return false;
    path = unescaped.replace(/[\\/]+/g, '/');
  }
  return /__admin/i.test(path);
}

async function closeRecorder(
  server: Server,
  inFlight: Set<Promise<void>>,
  file: HarFile,
  agent: HttpAgent,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await Promise.all([...inFlight]);
  server.closeAllConnections();
  // A keep-alive connection may have sent one more request meanwhile: it is cut off, and what
  // became of it is recorded before the last write.
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  await closed;
  agent.destroy();
  const unwritten = file.unwritten;
  try {
    await file.close();
  } catch (error) {
    if (!(error instanceof HarWriteError)) throw error;
    throw new HarWriteError(
      error.path,
      `${error.reason}; the last ${unwritten} exchanges are not in it (it holds the ${file.entries - unwritten} written before)`,
      { cause: error },
    );
  }
}

function exchangeEntry(id: number, exchange: Exchange, upstream: Upstream, redactor: Redactor) {
  const query = exchange.path.indexOf('?');
  const facts = redactor.record({
    arrived: exchange.arrived,
    durationMs: performance.now() - exchange.started,
    protocol: upstream.https ? 'https' : 'http',
    method: exchange.method,
    url: exchange.path,
    query: query === -1 ? {} : queryOf(exchange.path.slice(query + 1)),
    serverId: undefined,
    operation: undefined,
    format: 'json' as const,
    status: exchange.status,
    fault: undefined,
    requestHeaders: withoutCookieValues(exchange.requestHeaders),
    // An upstream (or a gateway) can echo the credentials in an answer's header: the answer's
    // headers get the request's redaction, `Authorization`-like ones included.
    responseHeaders: redactor.requestHeaders(withoutCookieValues(exchange.responseHeaders)),
  });
  const request = decodedBody(exchange.requestBody, codingsOf(exchange.requestHeaders), 'request');
  const response = decodedBody(
    exchange.responseBody,
    codingsOf(exchange.responseHeaders),
    'answer',
  );
  // The upstream's host (given on the command line) and the API's own words are no secrets: a
  // learned value that holds one (a cookie `app=marketing`, `ip=127.0.0.1`) must not take it out
  // of the URL, which replay reads.
  const { host } = exchange.requestHeaders;
  const entry = recordedEntry(
    id,
    {
      ...facts,
      url: urlWithoutSecrets(exchange.path, redactor),
      requestHeaders: { ...facts.requestHeaders, ...(host === undefined ? {} : { host }) },
    },
    redactor.body(request.body),
    redactor.body(response.body),
  );
  for (const side of [entry.request, entry.response]) side.headers = hiddenWhole(side.headers);
  const notes = [request.note, response.note].filter((note) => note !== undefined);
  if (exchange.unreachable !== undefined) {
    entry.comment = exchange.unreachable;
    entry._unreachable = exchange.unreachable;
  } else if (notes.length > 0) {
    entry.comment = notes.join(' ');
  }
  return entry;
}

/** The codings applied to a body, in order: its content codings, then its transfer codings. */
function codingsOf(headers: Record<string, string | string[] | number | undefined>): string[] {
  return codingsListed(headers['content-encoding'], headers['transfer-encoding']);
}

/**
 * Cookies are a session's credentials (the service's own, or a gateway's): the HAR keeps their
 * names, for what a client sent, and never their values. `Cookie: a=1; b=2` becomes
 * `a=<redacted>; b=<redacted>`; each cookie of a `Set-Cookie` line (several, folded by commas)
 * keeps its name and attributes (./cookie-lines.ts).
 */
function withoutCookieValues<H extends Record<string, string | string[] | number | undefined>>(
  headers: H,
): H {
  const { cookie, 'set-cookie': setCookie } = headers;
  if (cookie === undefined && setCookie === undefined) return headers;
  const copy: Record<string, unknown> = { ...headers };
  if (typeof cookie === 'string') copy.cookie = cookiePairs(cookie).map(hiddenPair).join('; ');
  if (setCookie !== undefined) {
    copy['set-cookie'] = [setCookie]
      .flat()
      .map((line) => mapSetCookiePairs(String(line), hiddenPair));
  }
  return copy as H;
}

/**
 * Each header's every field line, by lower-case name: Node's `req.headers` keeps only the first
 * of a repeated `Authorization` or `Proxy-Authorization`, and a server behind may read another.
 */
function everyValue(raw: readonly string[]): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (let at = 0; at + 1 < raw.length; at += 2) {
    const name = raw[at]!.toLowerCase();
    const values = headers[name];
    if (values) values.push(raw[at + 1]!);
    else headers[name] = [raw[at + 1]!];
  }
  return headers;
}

function queryOf(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = query[name];
    query[name] = previous === undefined ? value : [...[previous].flat(), value];
  }
  return query;
}
