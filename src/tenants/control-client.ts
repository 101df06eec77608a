import { readFileSync } from 'node:fs';
import {
  FakeMarketingServerError,
  FaultRuleError,
  InvalidOptionError,
  SeedError,
  ServerExistsError,
  StateError,
  TooManyWaitsError,
  UnknownServerError,
  WaitTimeoutError,
} from '../domain/errors.js';
import type { TrustedClients } from './trust.js';

/** What a call to the control API may fail with, besides a status: how to read its 4xx. */
export type ErrorKind = 'seed' | 'fault' | 'filter' | 'wait' | 'option';

/** One answer of the emulated API or the control API, read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/**
 * The control API of a fake in another process (the CLI, a container), called the way the
 * in-process handle is: a refusal rejects with the same typed error the handle throws
 * (SeedError, FaultRuleError, UnknownServerError, WaitTimeoutError, ...), its message the fake's.
 */
export class ControlClient {
  readonly origin: string;
  private readonly token: string | undefined;
  private readonly clients: TrustedClients;

  constructor(origin: string, token: string | undefined, clients: TrustedClients) {
    this.origin = origin;
    this.token = token;
    this.clients = clients;
  }

  /** Sends a request to the fake, through the client that trusts its certificate. */
  async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<Answer> {
    const { request } = this.clients.undici();
    const response = await request(`${this.origin}${path}`, {
      method: method as 'GET',
      headers,
      ...(body === undefined ? {} : { body }),
      dispatcher: this.clients.agent(),
    });
    return {
      status: response.statusCode,
      headers: response.headers as Answer['headers'],
      text: await response.body.text(),
    };
  }

  /** A control call: JSON in and out; a 4xx or 5xx rejects with the matching typed error. */
  async call<T>(
    method: string,
    path: string,
    options: { body?: unknown; query?: Record<string, unknown>; errors?: ErrorKind } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const answer = await this.send(method, `${path}${queryString(options.query)}`, headers, body);
    if (answer.status >= 400) throw refusal(answer, options.errors ?? 'option', path);
    if (answer.status === 204 || answer.text === '') return undefined as T;
    return JSON.parse(answer.text) as T;
  }
}

/** A journal filter as the control API's query: numbers as text, `body` as JSON. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parameters.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = parameters.toString();
  return text === '' ? '' : `?${text}`;
}

/** The typed error of a refused control call, with the fake's own message. */
function refusal(answer: Answer, kind: ErrorKind, path: string): Error {
  const message = messageOf(answer.text) ?? `${answer.status} from ${path}`;
  const serverId = /\/(?:tenants|servers)\/(\d+)/.exec(path)?.[1];
  switch (answer.status) {
    case 400:
      if (kind === 'seed') return new SeedError('', message);
      if (kind === 'fault') return new FaultRuleError(message);
      return new InvalidOptionError(message);
    case 404:
      if (kind === 'wait' && !message.startsWith('Server '))
        return new WaitTimeoutError(message, []);
      if (serverId !== undefined && message.startsWith(`Server ${serverId} `)) {
        return new UnknownServerError(Number(serverId));
      }
      return new FakeMarketingServerError(message, 'ADMIN_NOT_FOUND');
    case 409:
      return kind === 'seed' && /^Server (\d+) /.test(message)
        ? new ServerExistsError(Number(/^Server (\d+) /.exec(message)![1]))
        : new StateError(message);
    case 429:
      return new TooManyWaitsError(Number(/(\d+) waits/.exec(message)?.[1] ?? 100));
    default:
      return new FakeMarketingServerError(`${answer.status}: ${message}`, 'INTERNAL');
  }
}

function messageOf(text: string): string | undefined {
  try {
    const { message } = JSON.parse(text) as { message?: unknown };
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A CA given as PEM text, or as the path of a PEM file. */
export function caText(ca: string | undefined): string | undefined {
  if (ca === undefined || ca.includes('-----BEGIN')) return ca;
  try {
    return readFileSync(ca, 'utf8');
  } catch (error) {
    throw new InvalidOptionError(
      `ca must be PEM text or the path of a PEM file; ${ca} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
}
