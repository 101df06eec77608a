import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { localhostCertificateOnce } from './certificate.js';
import { InvalidOptionError } from './domain/errors.js';

/** Options of `listen()`. */
export interface ListenOptions {
  /** Default 0: any free port. */
  port?: number;
  /** Default 127.0.0.1. A host that is not loopback needs `adminToken`. */
  host?: string;
  /** Default true: HTTPS, with a self-signed localhost certificate unless key/cert are given. */
  https?: boolean;
  key?: string | Buffer;
  cert?: string | Buffer;
  /**
   * How long a client may take to send a request's headers before its connection is cut off
   * (slow-header attacks, stuck clients). Default 10 000 ms.
   */
  headersTimeoutMs?: number;
  /**
   * Names (or addresses) the generated certificate also names besides localhost, 127.0.0.1 and
   * ::1, e.g. a Docker Compose service name; the control API answers them too.
   */
  tlsHostnames?: string[];
  /**
   * Listen on any host without an admin token, and serve the control API only to clients on this
   * machine (loopback peers): the emulated API for everyone, the controls for no one else. For
   * containers, where the fake must listen on every interface. Ignored when there is a token.
   */
  localControlOnly?: boolean;
}

const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** A request's whole body must arrive within this long (it is at most 64 MiB, on loopback). */
const REQUEST_TIMEOUT_MS = 60_000;

export interface Address {
  /** `https://127.0.0.1:PORT` */
  url: string;
  /** `url + '/marketing/v1'` */
  baseUrl: string;
  /** The PEM to trust, when the fake made its own certificate; undefined over plain HTTP. */
  ca: string | undefined;
}

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.test(host);
}

/** A peer address on this machine: 127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6. */
export function isLoopbackPeer(address: string | undefined): boolean {
  if (address === undefined) return false;
  return /^(127\.|::ffff:127\.)/.test(address) || address === '::1';
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * A listening HTTP or HTTPS server for `handler`. The fake's app never listens itself: the handle
 * owns the socket, so the same app serves inject() and any number of listen()/close() cycles.
 */
export async function startServer(
  handler: Handler,
  options: ListenOptions,
  apiPrefix: string,
): Promise<{ server: Server; address: Address }> {
  const { port = 0, host = '127.0.0.1', https = true } = options;
  const { headersTimeoutMs = DEFAULT_HEADERS_TIMEOUT_MS } = options;
  if (
    !Number.isSafeInteger(headersTimeoutMs) ||
    headersTimeoutMs < 100 ||
    headersTimeoutMs > REQUEST_TIMEOUT_MS
  ) {
    throw new InvalidOptionError(
      `headersTimeoutMs must be a whole number of milliseconds from 100 to ${REQUEST_TIMEOUT_MS}, got ${headersTimeoutMs}`,
    );
  }
  // Node checks these timeouts every connectionsCheckingInterval (30 s by default): often enough
  // that a slow-header connection ends close to headersTimeoutMs.
  const timeouts = {
    headersTimeout: headersTimeoutMs,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
  };
  if ((options.key === undefined) !== (options.cert === undefined)) {
    throw new InvalidOptionError('Give both key and cert, or neither.');
  }
  let ca: string | undefined;
  let server: Server;
  if (https) {
    const own =
      options.key === undefined ? await localhostCertificateOnce(options.tlsHostnames) : undefined;
    ca = own?.cert;
    server = createHttpsServer(
      {
        key: own?.key ?? options.key,
        cert: own?.cert ?? options.cert,
        // A client that never finishes its TLS handshake (or never sends a ClientHello).
        handshakeTimeout: headersTimeoutMs,
        ...timeouts,
      },
      handler,
    );
    cutIdleConnections(server, 'secureConnection', headersTimeoutMs);
  } else {
    server = createHttpServer(timeouts, handler);
    cutIdleConnections(server, 'connection', headersTimeoutMs);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: boundPort } = server.address() as AddressInfo;
  const url = `${https ? 'https' : 'http'}://${urlHost(host)}:${boundPort}`;
  return { server, address: { url, baseUrl: url + apiPrefix, ca } };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Node's headersTimeout starts at a request's first byte, so a connection that sends nothing is
 * never cut (and keepAliveTimeout only starts after a first answer): each new connection that has
 * sent no byte after `timeoutMs` is closed. Once a byte has arrived, the connection is Node's:
 * a client dripping header bytes is answered 408 by headersTimeout (checked every second, see
 * `connectionsCheckingInterval`), and keep-alive between requests, long polls, held `no-response`
 * faults and delays are never cut by this. (A TLS socket counts application bytes only, after its
 * handshake, which `handshakeTimeout` bounds.) One timer per connection and nothing per request:
 * a listener on every request showed in profiles of the request path.
 */
function cutIdleConnections(
  server: Server,
  event: 'connection' | 'secureConnection',
  timeoutMs: number,
): void {
  server.on(event, (socket: Socket) => {
    const timer = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
    }, timeoutMs).unref();
    socket.once('close', () => clearTimeout(timer));
  });
}
