import type { Har } from '../../src/index.js';

type Header = { name: string; value: string };

/** One entry of a browser-style HAR: `Authorization` kept in clear, bodies as text or base64. */
export type BrowserEntry = {
  method: string;
  requestBody?: string;
  status: number;
  responseBody: string;
  responseHeaders?: Header[];
  /**
   * The response's media type, as its `Content-Type` header (unless `responseHeaders` are given)
   * and `content.mimeType`: JSON when not given. Replay reads an XML answer by it.
   */
  contentType?: string;
  /** The response body's text is base64 (of possibly compressed bytes). */
  base64?: boolean;
} & (
  | {
      /** The path under https://api.example.com/marketing/v1. */
      path: string;
      url?: never;
    }
  | {
      /** The whole URL: for an entry outside the API, a query, or a URL that is no URL. */
      url: string;
      path?: never;
    }
) &
  (
    | { authorization: string; requestHeaders?: never }
    | {
        /**
         * The request's headers, whole and in order, nothing added: for credentials spelt or
         * placed oddly, several of them, or none.
         */
        requestHeaders: Header[];
        authorization?: never;
      }
  );

/** A HAR as a browser or Playwright writes it (the credentials in clear), of `entries`. */
export function browserHar(entries: BrowserEntry[]): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'browser', version: '1' },
      entries: entries.map((entry) => ({
        startedDateTime: '2026-11-23T10:00:00.000Z',
        time: 1,
        request: {
          method: entry.method,
          url: entry.url ?? `https://api.example.com/marketing/v1${entry.path}`,
          httpVersion: 'HTTP/1.1',
          headers: entry.requestHeaders ?? [
            { name: 'Authorization', value: entry.authorization },
            { name: 'Content-Type', value: 'application/json' },
          ],
          queryString: [],
          cookies: [],
          headersSize: -1,
          bodySize: -1,
          ...(entry.requestBody === undefined
            ? {}
            : { postData: { mimeType: 'application/json', text: entry.requestBody } }),
        },
        response: {
          status: entry.status,
          statusText: '',
          httpVersion: 'HTTP/1.1',
          headers: entry.responseHeaders ?? [
            {
              name: 'Content-Type',
              value: entry.contentType ?? 'application/json; charset=utf-8',
            },
          ],
          cookies: [],
          content: {
            size: entry.responseBody.length,
            mimeType: entry.contentType ?? 'application/json',
            text: entry.responseBody,
            ...(entry.base64 ? { encoding: 'base64' } : {}),
          },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
        cache: {},
        timings: { send: 0, wait: 1, receive: 0 },
      })),
    },
  } as unknown as Har;
}
