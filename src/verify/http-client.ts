import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
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

/**
 * An HTTP answer that is not one verify and import can read: a `101 Switching Protocols` (Node's
 * client hands it over as an `upgrade`, never as a response). It is an answer, so import refuses
 * it as it refuses a bad status, and verify cannot judge the check that got it.
 */
export class UnusableAnswerError extends Error {
  override name = 'UnusableAnswerError';
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
    // A promise settles once: a later outcome (an error after the answer) changes nothing.
    const settle = (outcome: () => void) => {
      clearTimeout(deadline);
      outcome();
    };
    const fail = (error: Error) => settle(() => reject(error));
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
      },
      (res) => {
        answer = res;
        // A 1xx as the final answer (a 101 without Upgrade comes this way) is no HTTP answer to
        // judge either: the same as the upgrade below, never a status a check compares.
        if ((res.statusCode ?? 0) < 200) {
          res.destroy();
          fail(
            new UnusableAnswerError(
              `${call.method} ${call.path} answered ${res.statusCode} as its final answer, an interim status (1xx), which is no answer of the API`,
            ),
          );
          return;
        }
        readBounded(
          res,
          res.headers['content-length'],
          `the answer to ${call.method} ${call.path}`,
          'verify and import',
        ).then(
          (body) =>
            settle(() =>
              resolve({
                status: res.statusCode ?? 0,
                contentType: String(res.headers['content-type'] ?? ''),
                body: body.toString('utf8'),
              }),
            ),
          fail,
        );
      },
    );
    const limit = target.timeoutMs ?? 15_000;
    // The whole answer, not only each silence, must come within the time: a service that drips a
    // byte a second is never silent for long. (No idle time-out besides: this one, started first
    // with the same limit, always ends the request before a silence of that limit could.)
    let answer: IncomingMessage | undefined;
    const deadline = setTimeout(
      () => (answer ?? req).destroy(new Error(`no whole answer within ${limit} ms`)),
      limit,
    );
    req.on('error', fail);
    // A 101 comes as 'upgrade', not 'response'; with no listener Node closes the socket and
    // nothing else happens: the promise would never settle and the process would exit 0 with no
    // report. The status code is the service's only words worth repeating (the rest is its own).
    req.on('upgrade', (res: IncomingMessage, socket: Duplex) => {
      socket.destroy();
      fail(
        new UnusableAnswerError(
          `${call.method} ${call.path} answered ${res.statusCode} (Switching Protocols): it switched to another protocol, which is no answer of the API`,
        ),
      );
    });
    // Any other way the request ends without a response or an error (none known) is still an
    // end: no answer at all, said as a transport failure, never a promise left pending.
    req.on('close', () => {
      if (answer) return;
      fail(
        Object.assign(
          new Error(`the connection closed with no answer to ${call.method} ${call.path}`),
          {
            code: 'ERR_NO_ANSWER',
          },
        ),
      );
    });
    req.end(payload);
  });
}
