import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeSlots } from '../../../src/record/exchange-slots.js';
import { HarWriteError } from '../../../src/record/har-file.js';
import {
  refuse,
  refuseBusy,
  refuseControlApi,
  refuseHost,
  refuseLate,
  refuseTarget,
  refuseUnwritable,
} from '../../../src/record/refusals.js';

/** The answers the recorder gives itself: status, headers and the exact message of each. */
const REFUSALS: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/plain': (_req, res) => refuse(res, 418, 'a plain refusal'),
  '/with-headers': (_req, res) => refuse(res, 508, 'looped', { 'x-extra': 'yes' }),
  '/host': refuseHost,
  '/target': refuseTarget,
  '/control': refuseControlApi,
  '/busy': (req, res) => refuseBusy(req, res, new ExchangeSlots(8, 256)),
  '/late': (req, res) => refuseLate(req, res, 45_000, 8),
  '/late-fraction': (req, res) => refuseLate(req, res, 1500, 2),
  '/unwritable': (req, res) =>
    refuseUnwritable(req, res, new HarWriteError('/tmp/out.har', 'the disk is full')),
};

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((req, res) => REFUSALS[req.url ?? '']!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly message: string;
}

/** Sends a request as written (Host fields included) and reads the answer whole. */
async function ask(
  path: string,
  hostLines = ['Host: 127.0.0.1'],
  version = '1.1',
  close = true,
): Promise<Answer> {
  const { status, headers, body } = await new Promise<{
    status: number;
    headers: Record<string, string>;
    body: string;
  }>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    const lines = [
      `GET ${path} HTTP/${version}`,
      ...hostLines,
      ...(close ? ['Connection: close'] : []),
    ];
    socket.end(`${lines.join('\r\n')}\r\n\r\n`);
  });
  const parsed = JSON.parse(body) as { message: string };
  expect(Object.keys(parsed)).toEqual(['message']);
  expect(headers['content-type']).toBe('application/json; charset=utf-8');
  expect(headers['content-length']).toBe(String(Buffer.byteLength(body)));
  return { status, headers, message: parsed.message };
}

const PREFIX = 'fake-marketing-server record: ';

describe('the answers the recorder gives itself', () => {
  it('are JSON with one message naming the recorder, the headers given added', async () => {
    expect(await ask('/plain')).toMatchObject({ status: 418, message: `${PREFIX}a plain refusal` });
    const answer = await ask('/with-headers');
    expect(answer).toMatchObject({ status: 508, message: `${PREFIX}looped` });
    expect(answer.headers['x-extra']).toBe('yes');
  });

  it("refuse a Host that is not the recorder's with a 403 showing it, escaped and cut at 200 characters", async () => {
    const shown = (host: string) =>
      `${PREFIX}Host '${host}' is not this recorder's (an IP address, localhost, or the --host it listens on): refused, not forwarded, as a guard against DNS rebinding.`;
    expect(await ask('/host', ['Host: evil.example'])).toMatchObject({
      status: 403,
      message: shown('evil.example'),
    });
    expect((await ask('/host', ['Host: a"b\\c'])).message).toBe(shown('a\\"b\\\\c'));
    expect((await ask('/host', [`Host: ${'h'.repeat(300)}`])).message).toBe(shown('h'.repeat(200)));
    // HTTP/1.0 needs no Host.
    expect((await ask('/host', [], '1.0')).message).toBe(shown(''));
  });

  it('refuse a request with two Host fields, whatever they say', async () => {
    expect(await ask('/host', ['Host: 127.0.0.1', 'host: 127.0.0.1'])).toMatchObject({
      status: 403,
      message: `${PREFIX}the request has more than one Host field, which a server or proxy may each read otherwise: refused, not forwarded.`,
    });
  });

  it('refuse a target that is not a path, and the control API', async () => {
    expect(await ask('/target')).toMatchObject({
      status: 400,
      message: `${PREFIX}the request target is not a path (an absolute URL, as a client sends to a forward proxy, or '*'): the recorder is not a forward proxy. Point the client at the recorder's base URL, not at it as a proxy (no HTTP_PROXY for it). Neither forwarded nor recorded.`,
    });
    expect(await ask('/control')).toMatchObject({
      status: 403,
      message: `${PREFIX}the path reaches a fake's control API (/__admin), which is no part of the service's API: refused, neither forwarded nor recorded (its answers hold keys). Call the control API on the fake itself.`,
    });
  });

  it('ask a client to retry a second later when busy or when the HAR cannot be written', async () => {
    const busy = await ask('/busy');
    expect(busy).toMatchObject({
      status: 503,
      message: `${PREFIX}busy: the exchanges it forwards at once (8) are under way and as many as may wait their turn (256) are waiting; this request was neither forwarded nor recorded: retry it.`,
    });
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.headers.connection).toBe('close');
    const unwritable = await ask('/unwritable');
    expect(unwritable).toMatchObject({
      status: 503,
      message: `${PREFIX}the HAR cannot be written: the disk is full (/tmp/out.har); the exchanges waiting to be written have reached their bound, so this request was neither forwarded nor recorded: retry it once the HAR can be written.`,
    });
    expect(unwritable.headers['retry-after']).toBe('1');
  });

  it('answer a request that waited too long for its turn with a 504 in seconds, closing the connection', async () => {
    // Asked on a connection the client would keep: the recorder closes it.
    const late = await ask('/late', undefined, undefined, false);
    expect(late).toMatchObject({
      status: 504,
      message: `${PREFIX}this request waited 45 s for its turn while the exchanges it forwards at once (8) were under way (the upstream is slow to answer): neither forwarded nor recorded; retry it.`,
    });
    expect(late.headers.connection).toBe('close');
    expect(late.headers['retry-after']).toBeUndefined();
    expect((await ask('/late-fraction')).message).toContain('waited 1.5 s for its turn');
  });
});
