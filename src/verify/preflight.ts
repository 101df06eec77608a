import { AnswerTooLargeError } from '../answer-limit.js';
import { type Answer, send, type Target, UnusableAnswerError } from './http-client.js';

/** Why nothing could be judged, said once, with what to fix. */
export interface CouldNotRun {
  /** What happened, e.g. `connection refused by 127.0.0.1:8443`. */
  readonly problem: string;
  /** What the user should change. */
  readonly fix: string;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** A transport failure (no HTTP answer at all) in words, with what to fix. */
export function transportProblem(target: Target, error: unknown): CouldNotRun {
  const { code, message } = error as { code?: string; message?: string };
  const where = new URL(target.baseUrl).host;
  if (code && TLS_CODES.has(code)) {
    return {
      problem: `the TLS connection to ${where} failed: ${code} (${message})`,
      fix:
        code === 'ERR_SSL_WRONG_VERSION_NUMBER'
          ? 'the server does not speak HTTPS on that port: use an http:// base URL, or the HTTPS port'
          : 'trust its certificate: pass --ca <the PEM of its CA> (a fake prints its CA file at start)',
    };
  }
  return {
    problem: `cannot reach ${where}: ${code ?? ''} ${message ?? String(error)}`.replace(
      /\s+/g,
      ' ',
    ),
    fix: 'check --base-url (scheme, host, port) and that the service is up',
  };
}

/** Judges the first answer: is this the API, and are the credentials accepted? */
function answerProblem(target: Target, answer: Answer): CouldNotRun | undefined {
  if (answer.status === 401 || answer.status === 403) {
    return {
      problem: `GET ${target.baseUrl}/lists answered ${answer.status}: the credentials are refused`,
      fix: 'check --server-id (the Basic username) and the key (--key or FMS_VERIFY_KEY)',
    };
  }
  if ([404, 405].includes(answer.status) || (answer.status >= 300 && answer.status < 400)) {
    return {
      problem: `GET ${target.baseUrl}/lists answered ${answer.status}: that base URL is not the API`,
      fix: '--base-url must be the API base, ending in the version segment: https://<host>/marketing/v1',
    };
  }
  if (answer.status === 200 && /^text\/html\b/i.test(answer.contentType)) {
    return {
      problem: `GET ${target.baseUrl}/lists answered a web page (text/html): that base URL is not the API`,
      fix: '--base-url must be the API base, ending in the version segment: https://<host>/marketing/v1',
    };
  }
  if ([502, 503, 504].includes(answer.status)) {
    return {
      problem: `GET ${target.baseUrl}/lists answered ${answer.status}: the service is unavailable`,
      fix: 'try again later (the description allows maintenance outages)',
    };
  }
  return undefined;
}

/**
 * One request before the checks: an unreachable host, an untrusted certificate, refused
 * credentials or a base URL that is not the API make every check meaningless, so they are
 * reported once instead of as one failure per check.
 */
export async function preflight(target: Target): Promise<CouldNotRun | undefined> {
  try {
    const answer = await send(target, {
      method: 'GET',
      path: '/lists',
      accept: 'application/json',
    });
    return answerProblem(target, answer);
  } catch (error) {
    if (error instanceof AnswerTooLargeError)
      return {
        problem: error.message,
        fix: 'check --base-url: the API answers a list in far less (an endless or hostile answer?)',
      };
    if (error instanceof UnusableAnswerError)
      return {
        problem: error.message,
        fix: '--base-url must be the API base, ending in the version segment: https://<host>/marketing/v1',
      };
    return transportProblem(target, error);
  }
}
