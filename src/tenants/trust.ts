/**
 * Clients that trust one fake's certificate and nothing global: an undici dispatcher for Node's
 * `fetch`, and a node:https agent for node:https, axios and got. Made once per handle, on first
 * use, and closed with it. `NODE_EXTRA_CA_CERTS` cannot serve an in-process fake (Node reads it
 * at start, before `listen()` makes the certificate), and changing the global dispatcher would
 * trust the fake in every other test too.
 */
import { Agent as HttpsAgent } from 'node:https';
import { createRequire } from 'node:module';
import type { Agent, Dispatcher } from 'undici';

/**
 * undici is loaded when a dispatcher is first made: the CLI and the tests that never ask for one
 * do not pay its start-up.
 */
const loadUndici = () => createRequire(import.meta.url)('undici') as typeof import('undici');

/**
 * The dispatcher type the global `fetch` takes (Node's types name undici's types of their own
 * bundled copy): `fetch(url, { dispatcher: fake.dispatcher })` type-checks as it runs.
 */
export type FetchDispatcher = RequestInit extends { dispatcher?: infer D }
  ? NonNullable<D>
  : Dispatcher;

/** The clients of one handle; `ca` is read when a client is first made. */
export class TrustedClients {
  private readonly ca: () => string | undefined;
  private madeDispatcher: Agent | undefined;
  private madeHttpsAgent: HttpsAgent | undefined;

  constructor(ca: () => string | undefined) {
    this.ca = ca;
  }

  /** The undici package, loaded on first use. */
  undici(): typeof import('undici') {
    return loadUndici();
  }

  /** An undici Agent trusting the fake's CA (and the usual roots when there is none). */
  agent(): Agent {
    if (!this.madeDispatcher) {
      const ca = this.ca();
      const { Agent: UndiciAgent } = loadUndici();
      this.madeDispatcher = new UndiciAgent(ca === undefined ? {} : { connect: { ca } });
    }
    return this.madeDispatcher;
  }

  /** {@link agent}, typed as the dispatcher the global `fetch` takes. */
  get dispatcher(): FetchDispatcher {
    return this.agent() as unknown as FetchDispatcher;
  }

  /** A keep-alive node:https Agent trusting the fake's CA. */
  get httpsAgent(): HttpsAgent {
    if (!this.madeHttpsAgent) {
      const ca = this.ca();
      this.madeHttpsAgent = new HttpsAgent({
        keepAlive: true,
        ...(ca === undefined ? {} : { ca }),
      });
    }
    return this.madeHttpsAgent;
  }

  /**
   * Node's global `fetch` through {@link dispatcher}. A string that starts with `/` is resolved
   * against `origin` (the fake's URL).
   */
  fetch(
    origin: () => string,
    input: string | URL | Request,
    init?: RequestInit,
  ): Promise<Response> {
    const target =
      typeof input === 'string' && input.startsWith('/') ? `${origin()}${input}` : input;
    // Node's RequestInit names undici's dispatcher type of its own bundled copy: the same shape.
    return fetch(target, { ...init, dispatcher: this.dispatcher });
  }

  /** Closes the clients' idle connections; they are made again if used later. */
  async close(): Promise<void> {
    const dispatcher = this.madeDispatcher;
    const agent = this.madeHttpsAgent;
    this.madeDispatcher = undefined;
    this.madeHttpsAgent = undefined;
    agent?.destroy();
    await dispatcher?.close();
  }
}
