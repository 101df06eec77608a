import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { localhostCertificateOnce } from '../../src/certificate.js';

/** A request as the proxy received it; a drift may change it before it goes upstream. */
export interface ProxiedRequest {
  readonly method: string;
  /** The whole path with the query, e.g. `/marketing/v1/lists`. */
  readonly path: string;
  /** The path after `/marketing/v1` (e.g. `/lists`), or the whole path outside the API. */
  readonly apiPath: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** An answer as the upstream gave it (or as a drift makes it). */
export interface ProxiedAnswer {
  readonly status: number;
  /** Header names in lower case; content-length is recomputed, transfer-encoding dropped. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Memory a stateful drift keeps between exchanges; emptied each time a drift is switched on. */
export type DriftState = Map<string, unknown>;

/**
 * One way an implementation can differ from the service description, as data: which
 * requirement it breaks and how it changes requests or answers. A harmless variation has an
 * empty `caughtBy`: every check must still pass.
 */
export interface Drift {
  /** Stable id, e.g. `content.created-not-iso-json`. */
  readonly id: string;
  /** What the drifted implementation does, in a sentence. */
  readonly description: string;
  /** The section of /work/shared/spec/marketing-api.md (docs: spec) it breaks, e.g. `2 Content`. */
  readonly section: string;
  /** The requirement id in docs/fidelity.md, e.g. `R07`; empty for a harmless variation. */
  readonly requirement: string;
  /** The `verify` checks that must fail with this drift on, and only they. */
  readonly caughtBy: readonly string[];
  /** The checks that must skip (saying why) with this drift on; default none. */
  readonly skips?: readonly string[];
  /** Changes the request before it goes upstream; an answer returned here is sent instead. */
  readonly request?: (request: ProxiedRequest, state: DriftState) => ProxiedRequest | ProxiedAnswer;
  /** Changes the upstream answer before the client sees it. */
  readonly answer?: (
    answer: ProxiedAnswer,
    request: ProxiedRequest,
    state: DriftState,
  ) => ProxiedAnswer;
}

/** Options of {@link startDriftProxy}. */
export interface DriftProxyOptions {
  /** Where the fake listens: its `url` or `baseUrl` (only the origin is used). */
  readonly upstream: string;
  /** A PEM to trust for an HTTPS upstream (the fake's `ca`). */
  readonly upstreamCa?: string | undefined;
  /** Serve HTTPS with the localhost certificate (its PEM is `ca`); default plain HTTP. */
  readonly https?: boolean;
  /** The drift on from the start; default none (a faithful pass-through). */
  readonly drift?: Drift | undefined;
}

/** A running drift proxy. */
export interface DriftProxy {
  /** `http(s)://127.0.0.1:PORT` */
  readonly url: string;
  /** `url + '/marketing/v1'`: what a client uses as its base URL. */
  readonly baseUrl: string;
  /** The PEM a client must trust when `https` is on; undefined over plain HTTP. */
  readonly ca: string | undefined;
  /** The drift in force, or undefined for a pass-through. */
  readonly drift: Drift | undefined;
  /** Switches to another drift (or none) for the next exchanges; empties its state. */
  use(drift: Drift | undefined): void;
  /** How many exchanges went through. */
  readonly exchanges: number;
  close(): Promise<void>;
}

const API_PREFIX = '/marketing/v1';

function isAnswer(value: ProxiedRequest | ProxiedAnswer): value is ProxiedAnswer {
  return 'status' in value;
}

function flatHeaders(headers: NodeJS.Dict<string | string[]>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined)
      flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function readBody(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

function forward(
  origin: URL,
  ca: string | undefined,
  request: ProxiedRequest,
): Promise<ProxiedAnswer> {
  const send = origin.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { ...request.headers, host: origin.host };
  delete headers['content-length'];
  delete headers['transfer-encoding'];
  if (request.body !== '') headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    const upstream = send(
      origin,
      { method: request.method, path: request.path, headers, ...(ca ? { ca } : {}) },
      (answer) => {
        readBody(answer).then(
          (body) =>
            resolve({
              status: answer.statusCode ?? 502,
              headers: flatHeaders(answer.headers),
              body,
            }),
          reject,
        );
      },
    );
    upstream.on('error', reject);
    upstream.end(request.body === '' ? undefined : request.body);
  });
}

/**
 * An HTTP(S) proxy in front of a fake that applies one named drift at a time: the deliberately
 * broken "real service" that proves `verify` (and `replay`) notice each difference. Starts on a
 * free port of 127.0.0.1.
 */
export async function startDriftProxy(options: DriftProxyOptions): Promise<DriftProxy> {
  const origin = new URL(new URL(options.upstream).origin);
  let drift = options.drift;
  let state: DriftState = new Map();
  let exchanges = 0;
  const handle = async (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => {
    exchanges += 1;
    const path = req.url ?? '/';
    const received: ProxiedRequest = {
      method: req.method ?? 'GET',
      path,
      apiPath: path.startsWith(`${API_PREFIX}/`) ? path.slice(API_PREFIX.length) : path,
      headers: flatHeaders(req.headers),
      body: await readBody(req),
    };
    const active = drift;
    const activeState = state;
    let answer: ProxiedAnswer;
    try {
      const changed = active?.request ? active.request(received, activeState) : received;
      answer = isAnswer(changed) ? changed : await forward(origin, options.upstreamCa, changed);
      if (active?.answer) answer = active.answer(answer, received, activeState);
    } catch (error) {
      answer = {
        status: 502,
        headers: { 'content-type': 'text/plain' },
        body: `drift proxy: ${(error as Error).message}`,
      };
    }
    const headers: Record<string, string> = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    delete headers['keep-alive'];
    headers['content-length'] = String(Buffer.byteLength(answer.body));
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };
  const listener = (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  };
  let server: Server;
  let ca: string | undefined;
  if (options.https) {
    const certificate = await localhostCertificateOnce();
    ca = certificate.cert;
    server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, listener);
  } else {
    server = createHttpServer(listener);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    ca,
    get drift() {
      return drift;
    },
    use(next) {
      drift = next;
      state = new Map();
    },
    get exchanges() {
      return exchanges;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export { DRIFTS, HARMLESS } from './drifts/index.js';
