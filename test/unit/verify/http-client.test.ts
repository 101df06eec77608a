import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerTooLargeError } from '../../../src/answer-limit.js';
import {
  type Answer,
  describeCall,
  send,
  UnusableAnswerError,
} from '../../../src/verify/http-client.js';
import { KEY, makeFake, SERVER_ID } from '../../helpers/fake.js';
import { type RawHttpService, rawHttpService, rawReply } from '../../helpers/raw-http-service.js';

describe('describeCall', () => {
  it('shows the method, the path, the Accept asked for and the JSON body', () => {
    expect(describeCall({ method: 'GET', path: '/lists' })).toBe('GET /lists');
    expect(describeCall({ method: 'GET', path: '/lists', accept: 'text/xml' })).toBe(
      'GET /lists (Accept: text/xml)',
    );
    expect(
      describeCall({
        method: 'PUT',
        path: '/lists/1/contacts',
        accept: 'application/json',
        body: { emailAddress: 'a@example.com' },
        key: 'never-shown',
      }),
    ).toBe('PUT /lists/1/contacts (Accept: application/json) {"emailAddress":"a@example.com"}');
    expect(describeCall({ method: 'POST', path: '/x', body: null })).toBe('POST /x null');
  });
});

const services: RawHttpService[] = [];

afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

async function rawService(answer: (socket: Socket, head: string) => void) {
  const service = await rawHttpService(answer);
  services.push(service);
  return service;
}

const ok = (socket: Socket) =>
  socket.end(
    rawReply(['HTTP/1.1 200 OK', 'Content-Type: application/json', 'Content-Length: 2'], '[]'),
  );

const target = (service: RawHttpService, extra: { timeoutMs?: number; baseUrl?: string } = {}) => ({
  baseUrl: service.baseUrl,
  serverId: 1234,
  key: 'the-key',
  ...extra,
});

/** What a promise rejects with. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error & { code?: string },
  );

const headerOf = (head: string, name: string) =>
  new RegExp(`\r\n${name}: ([^\r]*)`, 'i').exec(head)?.[1];

describe('send', () => {
  it('sends Basic credentials, Accept JSON unless told, and answers status, Content-Type and body', async () => {
    const service = await rawService(ok);
    const answer = await send(target(service), { method: 'GET', path: '/lists' });
    expect(answer).toEqual<Answer>({ status: 200, contentType: 'application/json', body: '[]' });
    const head = service.heads[0] ?? '';
    expect(head.startsWith('GET /marketing/v1/lists HTTP/1.1\r\n')).toBe(true);
    expect(headerOf(head, 'authorization')).toBe(
      `Basic ${Buffer.from('1234:the-key').toString('base64')}`,
    );
    expect(headerOf(head, 'accept')).toBe('application/json');
    expect(headerOf(head, 'content-type')).toBeUndefined();
  });

  it('sends the key of the call instead of the target, the Accept asked for, and a JSON body', async () => {
    const service = await rawService(ok);
    await send(target(service), {
      method: 'PUT',
      path: '/lists/1/contacts',
      accept: 'text/xml',
      body: { emailAddress: 'é@example.com' },
      key: 'other',
    });
    const head = service.heads[0] ?? '';
    expect(head.startsWith('PUT /marketing/v1/lists/1/contacts HTTP/1.1\r\n')).toBe(true);
    expect(headerOf(head, 'authorization')).toBe(
      `Basic ${Buffer.from('1234:other').toString('base64')}`,
    );
    expect(headerOf(head, 'accept')).toBe('text/xml');
    expect(headerOf(head, 'content-type')).toBe('application/json');
    // Bytes, not characters: é is two.
    expect(headerOf(head, 'content-length')).toBe('33');
  });

  it('joins a base URL that ends in a slash without doubling it', async () => {
    const service = await rawService(ok);
    await send(target(service, { baseUrl: `${service.baseUrl}/` }), {
      method: 'GET',
      path: '/lists',
    });
    expect(service.heads[0]?.startsWith('GET /marketing/v1/lists HTTP/1.1\r\n')).toBe(true);
  });

  it('speaks TLS to an https base URL, trusting the CA it is given besides the system', async () => {
    await using fake = await makeFake();
    const { baseUrl, ca } = await fake.listen();
    expect(baseUrl.startsWith('https:')).toBe(true);
    const call = { method: 'GET', path: '/lists' } as const;
    const answer = await send({ baseUrl, serverId: SERVER_ID, key: KEY, ca }, call);
    expect(answer.status).toBe(200);
    const untrusted = await rejection(send({ baseUrl, serverId: SERVER_ID, key: KEY }, call));
    expect(untrusted?.code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
  });

  it('answers an empty Content-Type when the service sends none', async () => {
    const service = await rawService((socket) =>
      socket.end(rawReply(['HTTP/1.1 404 Not Found', 'Content-Length: 0'])),
    );
    expect(await send(target(service), { method: 'GET', path: '/lists' })).toEqual({
      status: 404,
      contentType: '',
      body: '',
    });
  });

  it('refuses an answer that declares more than the bound before reading it, naming the request and the readers', async () => {
    const service = await rawService((socket) =>
      socket.write(rawReply(['HTTP/1.1 200 OK', `Content-Length: ${2 ** 40}`], '[')),
    );
    const error = await rejection(
      send(target(service, { timeoutMs: 5000 }), { method: 'GET', path: '/lists' }),
    );
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(error?.message).toMatch(
      /^the answer to GET \/lists is larger than \d+ bytes \(32 MiB\), the limit of one answer for verify and import: /,
    );
  });

  it('gives up on a service that never answers, within the time', async () => {
    const service = await rawService(() => {});
    const error = await rejection(
      send(target(service, { timeoutMs: 300 }), { method: 'GET', path: '/lists' }),
    );
    expect(error?.message).toBe('no whole answer within 300 ms');
  });

  it('gives up on an answer that drips, within the time for the whole answer', async () => {
    const service = await rawService((socket) => {
      socket.write(rawReply(['HTTP/1.1 200 OK', 'Content-Length: 10'], 'a'));
      const drip = setInterval(() => socket.write('b'), 100);
      socket.on('close', () => clearInterval(drip));
      setTimeout(() => clearInterval(drip), 700);
    });
    const error = await rejection(
      send(target(service, { timeoutMs: 400 }), { method: 'GET', path: '/lists' }),
    );
    expect(error?.message).toBe('no whole answer within 400 ms');
  });

  it('refuses a 101 that switches protocols as no answer of the API', async () => {
    const service = await rawService((socket) =>
      socket.write(
        rawReply(['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: websocket']),
      ),
    );
    const error = await rejection(send(target(service), { method: 'GET', path: '/lists' }));
    expect(error).toBeInstanceOf(UnusableAnswerError);
    expect(error?.name).toBe('UnusableAnswerError');
    expect(error?.message).toBe(
      'GET /lists answered 101 (Switching Protocols): it switched to another protocol, which is no answer of the API',
    );
  });

  it('refuses an interim status given as the final answer as no answer of the API', async () => {
    const service = await rawService((socket) =>
      socket.write(rawReply(['HTTP/1.1 101 Switching Protocols', 'Content-Length: 0'])),
    );
    const error = await rejection(send(target(service), { method: 'GET', path: '/lists' }));
    expect(error).toBeInstanceOf(UnusableAnswerError);
    expect(error?.message).toBe(
      'GET /lists answered 101 as its final answer, an interim status (1xx), which is no answer of the API',
    );
  });

  it('rejects with the socket error when the connection is refused', async () => {
    const service = await rawService(ok);
    await service.close();
    const error = await rejection(send(target(service), { method: 'GET', path: '/lists' }));
    expect(error?.code).toBe('ECONNREFUSED');
  });
});

describe('send, when the request ends with neither an answer nor an error', () => {
  it('rejects as a transport failure with the code ERR_NO_ANSWER, never left pending', async () => {
    vi.resetModules();
    vi.doMock('node:http', async (importOriginal) => ({
      ...(await importOriginal<typeof import('node:http')>()),
      // A request that only closes: Node's own always errs first, so this is the only way here.
      request: () => {
        const closing = new EventEmitter();
        return Object.assign(closing, {
          end: () => queueMicrotask(() => closing.emit('close')),
          destroy: () => {},
        });
      },
    }));
    try {
      const { send: sendClosing } = await import('../../../src/verify/http-client.js');
      const error = await rejection(
        sendClosing(
          { baseUrl: 'http://127.0.0.1:9/marketing/v1', serverId: 1, key: 'k' },
          { method: 'DELETE', path: '/lists/1' },
        ),
      );
      expect(error?.message).toBe('the connection closed with no answer to DELETE /lists/1');
      expect(error?.code).toBe('ERR_NO_ANSWER');
    } finally {
      vi.doUnmock('node:http');
      vi.resetModules();
    }
  });
});
