import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { readBounded } from '../answer-limit.js';

/** Where and how to reach an implementation of the Marketing API. */
export interface Target {
  /** The base URL, e.g. `https://api.example.com/marketing/v1`. */
  readonly baseUrl: string;
  readonly serverId: number;
  /** The server's key: sent as the Basic password, never printed. */
  readonly key: string;
  /** A PEM to trust besides the system's (a fake's generated certificate). */
  readonly ca?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

export interface Call {
  readonly method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** After the base URL, e.g. `/lists`. */
  readonly path: string;
  readonly accept?: 'application/json' | 'text/xml';
  readonly body?: unknown;
  /** Send this key instead of the target's (the authentication check). */
  readonly key?: string;
}

export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** One request, as the check report shows it: never with credentials. */
export function describeCall(call: Call): string {
  const accept = call.accept ? ` (Accept: ${call.accept})` : '';
  const body = call.body === undefined ? '' : ` ${JSON.stringify(call.body)}`;
  return `${call.method} ${call.path}${accept}${body}`;
}

/**
 * Sends one call with Basic authentication; answers with the status and the body as text. An
 * answer past MAX_ANSWER_BYTES rejects with AnswerTooLargeError (reading it stops there).
 */
export function send(target: Target, call: Call): Promise<Answer> {
  const url = new URL(target.baseUrl.replace(/\/$/, '') + call.path);
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  const credentials = Buffer.from(`${target.serverId}:${call.key ?? target.key}`).toString(
    'base64',
  );
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: call.method,
        ...(target.ca ? { ca: target.ca } : {}),
        headers: {
          authorization: `Basic ${credentials}`,
          accept: call.accept ?? 'application/json',
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
        timeout: target.timeoutMs ?? 15_000,
      },
      (res) => {
        answer = res;
        res.once('close', () => clearTimeout(deadline));
        readBounded(
          res,
          res.headers['content-length'],
          `the answer to ${call.method} ${call.path}`,
          'verify and import',
        ).then(
          (body) =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: body.toString('utf8'),
            }),
          reject,
        );
      },
    );
    const limit = target.timeoutMs ?? 15_000;
    // The whole answer, not only each silence, must come within the time: a service that drips a
    // byte a second is never silent for long.
    let answer: IncomingMessage | undefined;
    const deadline = setTimeout(
      () => (answer ?? req).destroy(new Error(`no whole answer within ${limit} ms`)),
      limit,
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${limit} ms`)));
    req.on('error', (error) => {
      clearTimeout(deadline);
      reject(error);
    });
    req.end(payload);
  });
}
