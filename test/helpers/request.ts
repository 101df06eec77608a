import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One real request over a socket, trusting only `ca` (TLS verification stays on). */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    ca?: string;
    /** Give up after this many ms of silence, failing with a timeout error. */
    timeoutMs?: number;
    /** The name the certificate is checked against, when a Host header names something else. */
    servername?: string;
  } = {},
): Promise<RawResponse> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ca: options.ca,
        agent: false,
        ...(options.servername ? { servername: options.servername } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () =>
        req.destroy(Object.assign(new Error('client timeout'), { code: 'ETIMEDOUT' })),
      );
    }
    req.end(options.body);
  });
}
