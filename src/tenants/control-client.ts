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
} from '../domain/errors.js';
import { WaitTimeoutError } from '../journal/wait-timeout-error.js';
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

  /** How long a call waits for the fake's answer. */
  readonly timeoutMs: number;

  constructor(
    origin: string,
    token: string | undefined,
    clients: TrustedClients,
    timeoutMs = CALL_TIMEOUT_MS,
  ) {
    this.origin = origin;
    this.timeoutMs = timeoutMs;
    this.token = token;
    this.clients = clients;
  }

  /**
   * Sends a request to the fake, through the client that trusts its certificate. A fake that
   * does not answer within `timeoutMs` (headers, or between two parts of the body) is given up on.
   */
  async send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
    timeoutMs = this.timeoutMs,
  ): Promise<Answer> {
    const { request } = this.clients.undici();
    // The whole answer within the time, not only each part of it: a server that drips its answer
    // is given up on all the same.
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(`${this.origin}${path}`, {
        method: method as 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        dispatcher: this.clients.agent(),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: deadline,
      });
      return {
        status: response.statusCode,
        headers: response.headers as Answer['headers'],
        text: await boundedText(response.body, `${method} ${path}`, this.origin),
      };
    } catch (error) {
      if (deadline.aborted) {
        throw new StateError(
          `${this.origin} gave no whole answer to ${method} ${path} within ${timeoutMs} ms.`,
        );
      }
      throw error;
    }
  }

  /** A control call: JSON in and out; a 4xx or 5xx rejects with the matching typed error. */
  async call<T>(
    method: string,
    path: string,
    options: {
      body?: unknown;
      query?: Record<string, unknown>;
      errors?: ErrorKind;
      /** How long the fake may take to answer: a long poll's own time-out and more. */
      timeoutMs?: number;
      /** What the answer's JSON must be; default an object. */
      shape?: 'object' | 'array';
    } = {},
  ): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const answer = await this.send(
      method,
      `${path}${queryString(options.query)}`,
      headers,
      body,
      options.timeoutMs,
    );
    if (answer.status >= 400) throw refusal(answer, options.errors ?? 'option', path);
    if (answer.status < 200 || answer.status >= 300) {
      throw notTheFake(this.origin, `${method} ${path} answered ${answer.status}`);
    }
    if (answer.status === 204) return undefined as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      throw notTheFake(
        this.origin,
        `${method} ${path} answered ${answer.status} with a body that is not JSON`,
      );
    }
    const shape = options.shape ?? 'object';
    if (shape === 'array' ? !Array.isArray(parsed) : !isObject(parsed)) {
      throw notTheFake(
        this.origin,
        `${method} ${path} answered ${shape === 'array' ? 'no list' : 'no object'}`,
      );
    }
    return parsed as T;
  }
}

/**
 * The longest answer read: a journal of 1,000 exchanges with two 64 KiB bodies each, as JSON, is
 * far below it; a server that sends more is not a fake's control API.
 */
const MAX_ANSWER_BYTES = 512 * 1024 * 1024;

async function boundedText(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  what: string,
  origin: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw notTheFake(origin, `${what} answered more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How long a control call may wait for the fake's answer, but a long poll. */
export const CALL_TIMEOUT_MS = 30_000;

/** An answer no fake-marketing-server gives: whatever answers at `origin` is something else. */
export function notTheFake(origin: string, what: string): StateError {
  return new StateError(
    `${origin} does not answer as a fake-marketing-server control API (${what}): check the url.`,
  );
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
    case 401:
      return new FakeMarketingServerError(message, 'ADMIN_UNAUTHORIZED');
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
    // A fake's messages are a line or two: a longer one is cut, never held whole in an error.
    return typeof message === 'string' ? message.slice(0, 2000) : undefined;
  } catch {
    return undefined;
  }
}

/** A CA given as PEM text, or as the path of a PEM file. */
export function caText(ca: string | undefined): string | undefined {
  if (ca === undefined) return undefined;
  if (typeof ca !== 'string')
    throw new InvalidOptionError('ca must be PEM text or the path of a PEM file');
  if (ca.includes('-----BEGIN CERTIFICATE-----')) return ca;
  let text: string;
  try {
    text = readFileSync(ca, 'utf8');
  } catch (error) {
    throw new InvalidOptionError(
      `ca must be PEM text or the path of a PEM file; ${ca.slice(0, 200)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) {
    throw new InvalidOptionError(
      `ca must be PEM text or the path of a PEM file; ${ca.slice(0, 200)} holds no '-----BEGIN CERTIFICATE-----' block.`,
    );
  }
  return text;
}
