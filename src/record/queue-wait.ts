import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long a request may wait for its turn. Its body is unread meanwhile, and the server cuts a
 * request whose body has not arrived within 60 s with a bare 408 (see listen.ts): under that, the
 * recorder answers it itself, saying why, with time left to forward one whose turn comes late.
 */
export const DEFAULT_QUEUE_WAIT_MS = 45_000;

/** 504 for a request that waited too long for its turn: neither forwarded nor recorded. */
export function refuseLate(
  req: IncomingMessage,
  res: ServerResponse,
  waitedMs: number,
  atOnce: number,
): void {
  const body = JSON.stringify({
    message: `fake-marketing-server record: this request waited ${waitedMs / 1000} s for its turn while the exchanges it forwards at once (${atOnce}) were under way (the upstream is slow to answer): neither forwarded nor recorded; retry it.`,
  });
  req.resume();
  res.writeHead(504, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  res.end(body);
}
