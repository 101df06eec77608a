import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostFieldCount } from '../http/host-allow-list.js';
import type { ExchangeSlots } from './exchange-slots.js';
import type { HarWriteError } from './har-file.js';

/**
 * The answers the recorder gives itself, in JSON, each saying why: nothing of them is forwarded
 * nor recorded. One shape for all, so that a client reads every refusal the same way.
 */
export function refuse(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(JSON.stringify({ message: `fake-marketing-server record: ${message}` }));
  res
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(body.length),
      ...headers,
    })
    .end(body);
}

/** {@link refuse} for a request whose body is left unread: it is drained, so the answer is read. */
function refuseUnread(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  req.resume();
  refuse(res, status, message, headers);
}

/** Answers that ask the client to come back: the connection is not kept for it meanwhile. */
const RETRY = { 'retry-after': '1', connection: 'close' };

/** 403 for a Host that is not the recorder's own, or two of them (a guard against DNS rebinding). */
export function refuseHost(req: IncomingMessage, res: ServerResponse): void {
  const host = JSON.stringify(req.headers.host ?? '')
    .slice(1, -1)
    .slice(0, 200);
  refuseUnread(
    req,
    res,
    403,
    hostFieldCount(req.rawHeaders) > 1
      ? 'the request has more than one Host field, which a server or proxy may each read otherwise: refused, not forwarded.'
      : `Host '${host}' is not this recorder's (an IP address, localhost, or the --host it listens on): refused, not forwarded, as a guard against DNS rebinding.`,
  );
}

/**
 * 400 for a request target that is not a path: an absolute URL (what a client sends to a forward
 * proxy, through HTTP_PROXY) or `*` (`OPTIONS *`). Forwarded, it made a URL no upstream takes and a
 * HAR entry replay refuses; the target is not shown, as it may hold credentials.
 */
export function refuseTarget(req: IncomingMessage, res: ServerResponse): void {
  refuseUnread(
    req,
    res,
    400,
    "the request target is not a path (an absolute URL, as a client sends to a forward proxy, or '*'): the recorder is not a forward proxy. Point the client at the recorder's base URL, not at it as a proxy (no HTTP_PROXY for it). Neither forwarded nor recorded.",
  );
}

/** 403 for a fake's control API, whose answers hold keys. */
export function refuseControlApi(req: IncomingMessage, res: ServerResponse): void {
  refuseUnread(
    req,
    res,
    403,
    "the path reaches a fake's control API (/__admin), which is no part of the service's API: refused, neither forwarded nor recorded (its answers hold keys). Call the control API on the fake itself.",
  );
}

/** 503 past the requests that may wait their turn. */
export function refuseBusy(req: IncomingMessage, res: ServerResponse, slots: ExchangeSlots): void {
  refuseUnread(
    req,
    res,
    503,
    `busy: the exchanges it forwards at once (${slots.size}) are under way and as many as may wait their turn (${slots.waiting}) are waiting; this request was neither forwarded nor recorded: retry it.`,
    RETRY,
  );
}

/** 504 for a request that waited too long for its turn. */
export function refuseLate(
  req: IncomingMessage,
  res: ServerResponse,
  waitedMs: number,
  atOnce: number,
): void {
  refuseUnread(
    req,
    res,
    504,
    `this request waited ${waitedMs / 1000} s for its turn while the exchanges it forwards at once (${atOnce}) were under way (the upstream is slow to answer): neither forwarded nor recorded; retry it.`,
    { connection: 'close' },
  );
}

/**
 * 503 while the HAR cannot be written and the entries waiting for it have reached their bound (an
 * exchange the recorder cannot keep must not reach the service, nor hang until the disk comes
 * back). Taken again once a write succeeds.
 */
export function refuseUnwritable(
  req: IncomingMessage,
  res: ServerResponse,
  failure: HarWriteError,
): void {
  refuseUnread(
    req,
    res,
    503,
    `the HAR cannot be written: ${failure.reason} (${failure.path}); the exchanges waiting to be written have reached their bound, so this request was neither forwarded nor recorded: retry it once the HAR can be written.`,
    RETRY,
  );
}
