import { connect as connectTcp, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { AUTH, basic, KEY, makeFake, SERVER_ID } from '../helpers/fake.js';
import { exchange, openSocket, statusOf, type Target } from '../helpers/raw-socket.js';
import { send } from '../helpers/request.js';

// Short, so that a test can watch slow clients being cut off; the default is 10 s.
const HEADERS_TIMEOUT_MS = 1000;
const MiB = 1024 * 1024;

describe.each([
  ['HTTP', false],
  ['HTTPS', true],
] as const)('hostile clients over %s, through a real socket', (_name, https) => {
  let fake: FakeMarketingServer;
  let target: Target;
  let port: string;
  beforeAll(async () => {
    fake = await makeFake();
    const { url, ca } = await fake.listen({ https, headersTimeoutMs: HEADERS_TIMEOUT_MS });
    target = { url, ca };
    port = new URL(url).port;
  });
  afterAll(() => fake.close());

  // The certificate is checked against localhost even when a test sends another Host.
  const request = (path: string, options: Parameters<typeof send>[1] = {}) =>
    send(target.url + path, { ...options, ca: target.ca, servername: 'localhost' });
  const raw = (text: string) => text.replace(/\n/g, '\r\n');
  /** Something reset() would undo, so that a refused reset shows. */
  const dirty = () =>
    request('/marketing/v1/lists/1/contacts', {
      method: 'PUT',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ emailAddress: `dirty${Date.now()}@example.com` }),
    });

  describe('the control API against web pages', () => {
    it('refuses a Host that is not its own (DNS rebinding), saying which option to set', async () => {
      const state = await request('/__admin/state', { headers: { host: `evil.example:${port}` } });
      expect(state.status).toBe(403);
      expect(JSON.parse(state.body).message).toContain(
        'allowedHosts option (CLI: --allowed-hosts)',
      );
      expect(state.body).not.toContain(KEY);
      const page = await request('/__admin/ui', { headers: { host: `evil.example:${port}` } });
      expect(page.status).toBe(403);
      for (const host of ['localhost', '127.0.0.1', '[::1]', 'sandbox.localhost']) {
        const allowed = await request('/__admin/state', { headers: { host: `${host}:${port}` } });
        expect(allowed.status, host).toBe(200);
      }
    });

    it('leaves the emulated API alone: real clients send any Host', async () => {
      const lists = await request('/marketing/v1/lists', {
        headers: { authorization: AUTH, host: 'api.marketing.example' },
      });
      expect(lists.status).toBe(200);
    });

    it.each(['/__admin/reset', '/__admin/maintenance', '/__admin/servers'])(
      'refuses a body-less cross-origin POST %s and changes nothing',
      async (path) => {
        await dirty();
        const before = fake.exportState();
        const response = await request(path, {
          method: 'POST',
          headers: { origin: 'https://evil.example' },
        });
        expect(response.status).toBe(403);
        expect(JSON.parse(response.body).message).toContain('(https://evil.example)');
        expect(fake.exportState()).toEqual(before);
        expect(fake.faults.list()).toEqual([]);
      },
    );

    it('refuses Sec-Fetch-Site cross-site and same-site (another local dev server)', async () => {
      await dirty();
      const before = fake.exportState();
      for (const site of ['cross-site', 'same-site']) {
        const response = await request('/__admin/reset', {
          method: 'POST',
          headers: { 'sec-fetch-site': site },
        });
        expect(response.status, site).toBe(403);
      }
      const other = await request('/__admin/reset', {
        method: 'POST',
        headers: { origin: `${new URL(target.url).protocol}//localhost:3000` },
      });
      expect(other.status).toBe(403);
      expect(fake.exportState()).toEqual(before);
    });

    it('takes calls from its own origin, and from clients that are not browsers', async () => {
      await dirty();
      const own = await request('/__admin/reset', {
        method: 'POST',
        headers: { origin: target.url, 'sec-fetch-site': 'same-origin' },
      });
      expect(own.status).toBe(204);
      await dirty();
      expect((await request('/__admin/reset', { method: 'POST' })).status).toBe(204);
      expect(fake.server(SERVER_ID).contacts()).toHaveLength(3);
    });

    it('sends no CORS headers, so no page can read an answer (preflight included)', async () => {
      const preflight = await request('/marketing/v1/lists', {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(preflight.status).toBe(405);
      const read = await request('/marketing/v1/lists', {
        headers: { authorization: AUTH, origin: 'https://evil.example' },
      });
      const admin = await request('/__admin/state', {
        headers: { origin: 'https://evil.example' },
      });
      for (const response of [preflight, read, admin]) {
        expect(
          Object.keys(response.headers).filter((name) => name.startsWith('access-control-')),
        ).toEqual([]);
      }
    });
  });

  describe('slow and idle connections', () => {
    it('slow headers never stop a normal client, and are cut off after headersTimeoutMs', async () => {
      const sockets = await Promise.all(Array.from({ length: 200 }, () => openSocket(target)));
      const received = sockets.map(() => [] as Buffer[]);
      const closed = sockets.map(
        (socket, index) =>
          new Promise<string>((resolve) => {
            socket.on('data', (chunk: Buffer) => received[index]!.push(chunk));
            socket.once('close', () => resolve(Buffer.concat(received[index]!).toString('latin1')));
            socket.on('error', () => undefined);
          }),
      );
      for (const socket of sockets) socket.write('GET /marketing/v1/lists HTTP/1.1\r\nHost: x\r\n');
      // A header line every 200 ms: the request never ends, the connection never idles.
      const drip = setInterval(() => {
        for (const socket of sockets) if (!socket.destroyed) socket.write('X-Slow: 1\r\n');
      }, 200);
      try {
        const served = await request('/marketing/v1/lists', { headers: { authorization: AUTH } });
        expect(served.status).toBe(200);
        expect(sockets.filter((socket) => !socket.destroyed).length).toBeGreaterThan(150);
        const answers = await Promise.all(closed);
        // Node answers 408 before it closes a connection whose headers took too long.
        expect(answers.filter((answer) => statusOf(answer) === 408).length).toBeGreaterThan(150);
      } finally {
        clearInterval(drip);
        for (const socket of sockets) socket.destroy();
      }
    }, 20_000);

    it(
      'a connection that sends nothing is cut after headersTimeoutMs (TLS: no ClientHello too)',
      async () => {
        const { hostname } = new URL(target.url);
        // A plain TCP connection: over HTTPS it never starts the TLS handshake.
        const tcp = connectTcp({ host: hostname, port: Number(port) });
        const opened = [tcp, await openSocket(target)];
        const received = opened.map(() => [] as Buffer[]);
        const closed = opened.map(
          (socket, index) =>
            new Promise<void>((resolve) => {
              socket.on('data', (chunk: Buffer) => received[index]!.push(chunk));
              socket.on('error', () => undefined);
              socket.once('close', () => resolve());
            }),
        );
        try {
          // Without the cut, the HTTP one stays open for good and the HTTPS one for 120 s.
          await Promise.all(closed);
          expect(received.map((chunks) => Buffer.concat(chunks).length)).toEqual([0, 0]);
          const served = await request('/marketing/v1/lists', { headers: { authorization: AUTH } });
          expect(served.status).toBe(200);
        } finally {
          for (const socket of opened) socket.destroy();
        }
      },
      10 * HEADERS_TIMEOUT_MS,
    );

    it(
      'a long poll, and a keep-alive connection between requests, outlive headersTimeoutMs',
      async () => {
        const socket = await openSocket(target);
        socket.on('error', () => undefined);
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        const answers = (count: number) =>
          new Promise<string>((resolve, reject) => {
            const poll = setInterval(() => {
              const text = Buffer.concat(chunks).toString('latin1');
              if ((text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= count) {
                clearInterval(poll);
                resolve(text);
              }
              if (socket.destroyed) {
                clearInterval(poll);
                reject(new Error(`closed after: ${text.slice(0, 200)}`));
              }
            }, 20);
          });
        try {
          const wait = `/__admin/requests/wait?path=/never&timeoutMs=${3 * HEADERS_TIMEOUT_MS}`;
          socket.write(raw(`GET ${wait} HTTP/1.1\nHost: localhost\n\n`));
          // The wait ends with its 404 (nothing matched), not with a cut connection.
          expect(statusOf(await answers(1))).toBe(404);
          socket.write(raw('GET /__admin/health HTTP/1.1\nHost: localhost\n\n'));
          expect((await answers(2)).match(/HTTP\/1\.1 \d{3}/g)).toEqual([
            'HTTP/1.1 404',
            'HTTP/1.1 200',
          ]);
        } finally {
          socket.destroy();
        }
      },
      20 * HEADERS_TIMEOUT_MS,
    );

    it(
      'a request held by a no-response fault is not cut by the idle-connection rule',
      async () => {
        const rule = fake.faults.add({ kind: 'no-response', match: { path: '/lists' } });
        const socket = await openSocket(target);
        socket.on('error', () => undefined);
        let closed = false;
        const released = new Promise<void>((resolve) =>
          socket.once('close', () => {
            closed = true;
            resolve();
          }),
        );
        try {
          socket.write(
            raw(`GET /marketing/v1/lists HTTP/1.1\nHost: x\nAuthorization: ${AUTH}\n\n`),
          );
          // Longer than the rule's two quiet periods: a held request is Node's and the fault's.
          await new Promise((resolve) => setTimeout(resolve, 3 * HEADERS_TIMEOUT_MS));
          expect(closed).toBe(false);
          rule.remove();
          await released;
        } finally {
          rule.remove();
          socket.destroy();
        }
      },
      20 * HEADERS_TIMEOUT_MS,
    );

    it('thousands of idle keep-alive sockets never stop a normal client', async () => {
      const count = https ? 1000 : 2000;
      const sockets: Socket[] = [];
      /** Each one asks once as soon as it is open, keeps the connection, and goes quiet. */
      const askOnce = async (): Promise<string> => {
        const socket = await openSocket(target);
        sockets.push(socket);
        socket.on('error', () => undefined);
        const chunks: Buffer[] = [];
        const answered = new Promise<string>((resolve) => {
          const done = () => resolve(Buffer.concat(chunks).toString('latin1'));
          socket.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            if (Buffer.concat(chunks).includes('{"status":"ok"}')) done();
          });
          socket.once('close', done);
        });
        socket.write(
          `GET /__admin/health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`,
        );
        return answered;
      };
      try {
        const answers: string[] = [];
        for (let start = 0; start < count; start += 200) {
          answers.push(
            ...(await Promise.all(Array.from({ length: Math.min(200, count - start) }, askOnce))),
          );
        }
        const served = await request('/marketing/v1/lists', { headers: { authorization: AUTH } });
        expect(served.status).toBe(200);
        // Every one was served (keepAliveTimeout may close the earliest ones once they idle).
        const statuses = answers.map(statusOf);
        expect(statuses.filter((status) => status === 200)).toHaveLength(count);
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    }, 30_000);
  });

  describe('malformed and oversized requests', () => {
    it('an oversized header and very many headers get 431, not a crash', async () => {
      const big = await exchange(
        target,
        raw(`GET /marketing/v1/lists HTTP/1.1\nHost: x\nX-Big: ${'a'.repeat(100_000)}\n\n`),
      );
      expect(statusOf(big.text)).toBe(431);
      const many = Array.from(
        { length: 1000 },
        (_, index) => `X-Header-${index}: ${'v'.repeat(20)}`,
      );
      const lots = await exchange(
        target,
        raw(`GET /marketing/v1/lists HTTP/1.1\nHost: x\n${many.join('\n')}\n\n`),
      );
      expect(statusOf(lots.text)).toBe(431);
      expect((await request('/__admin/health')).status).toBe(200);
    });

    it('duplicate Authorization headers: the first counts (as Node keeps it), never a 5xx', async () => {
      const wrong = basic(SERVER_ID, 'wrong-key');
      const first = await exchange(
        target,
        raw(
          `GET /marketing/v1/lists HTTP/1.1\nHost: x\nAuthorization: ${AUTH}\nAuthorization: ${wrong}\nConnection: close\n\n`,
        ),
      );
      const second = await exchange(
        target,
        raw(
          `GET /marketing/v1/lists HTTP/1.1\nHost: x\nAuthorization: ${wrong}\nAuthorization: ${AUTH}\nConnection: close\n\n`,
        ),
      );
      expect(statusOf(first.text)).toBe(200);
      expect(statusOf(second.text)).toBe(401);
    });

    it.each([
      ['the control API', '/__admin/state', ''],
      ['a control route that does not exist', '/__admin/nothing', ''],
      ['the inspector', '/__admin/ui', ''],
      ['the emulated API', '/marketing/v1/lists', `Authorization: ${AUTH}\n`],
      ['an unknown emulated route', '/marketing/v1/nothing', `Authorization: ${AUTH}\n`],
      ['a thumbnail', '/thumbnails/x.png', ''],
    ])(
      'two Host headers get 400 on %s, whatever their order (RFC 9112)',
      async (_name, path, extra) => {
        for (const hosts of [
          'Host: localhost\nHost: evil.example',
          'host: evil.example\nHOST: localhost',
        ]) {
          const { text } = await exchange(
            target,
            raw(`GET ${path} HTTP/1.1\n${hosts}\n${extra}Connection: close\n\n`),
          );
          expect(statusOf(text), hosts).toBe(400);
          expect(text).toContain('more than one Host header');
          expect(text).not.toContain(KEY);
        }
        // One Host is fine, as before.
        const { text } = await exchange(
          target,
          raw(`GET /__admin/health HTTP/1.1\nHost: localhost\nConnection: close\n\n`),
        );
        expect(statusOf(text)).toBe(200);
      },
    );

    it('a Host of more than one host, or an address with a trailing dot, gets 403 on the control API', async () => {
      for (const host of [
        `127.0.0.1:${port}, evil.example`,
        `localhost:${port},evil.example`,
        `127.0.0.1 evil.example`,
        `127.0.0.1.:${port}`,
        '',
      ]) {
        const { text } = await exchange(
          target,
          raw(`GET /__admin/state HTTP/1.1\nHost: ${host}\nConnection: close\n\n`),
        );
        // Node itself may refuse a Host it cannot read (400); the fake never answers 200.
        expect([400, 403], host).toContain(statusOf(text));
        expect(text, host).not.toContain(KEY);
      }
      const { text } = await exchange(
        target,
        raw(`GET /__admin/state HTTP/1.1\nHost: 127.0.0.1:${port}\nConnection: close\n\n`),
      );
      expect(statusOf(text)).toBe(200);
    });

    it('request smuggling shapes are rejected: Content-Length with Transfer-Encoding, two Content-Lengths', async () => {
      const before = fake.exportState();
      const smuggled = 'GET /__admin/reset HTTP/1.1\nHost: x\n\n';
      const both = await exchange(
        target,
        raw(
          `POST /marketing/v1/contacts/unsubscribe/1 HTTP/1.1\nHost: x\nAuthorization: ${AUTH}\nContent-Length: 5\nTransfer-Encoding: chunked\n\n0\n\n${smuggled}`,
        ),
      );
      const twice = await exchange(
        target,
        raw(
          `POST /marketing/v1/contacts/unsubscribe/1 HTTP/1.1\nHost: x\nAuthorization: ${AUTH}\nContent-Length: 0\nContent-Length: 40\n\n${smuggled}`,
        ),
      );
      for (const { text, closed } of [both, twice]) {
        expect(statusOf(text)).toBe(400);
        expect(text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
        expect(closed).toBe(true);
      }
      expect(fake.exportState()).toEqual(before);
    });

    it('100 000-level nested JSON and prototype keys get 400 and change nothing', async () => {
      const before = fake.exportState();
      const put = (body: string) =>
        request('/marketing/v1/lists/1/contacts', {
          method: 'PUT',
          headers: { authorization: AUTH, 'content-type': 'application/json' },
          body,
        });
      expect((await put(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).status).toBe(400);
      expect((await put(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)).status).toBe(400);
      expect(
        (await put('{"__proto__":{"admin":true},"emailAddress":"p@example.com"}')).status,
      ).toBe(400);
      expect(
        (await put('{"constructor":{"prototype":{}},"emailAddress":"p@example.com"}')).status,
      ).toBe(400);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(fake.exportState()).toEqual(before);
    });

    it('control API bodies have the limit each route needs: 413, nothing changes, memory stays bounded', async () => {
      await dirty();
      const before = fake.exportState();
      const reset = await request('/__admin/reset', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ padding: 'x'.repeat(MiB) }),
      });
      expect(reset.status).toBe(413);
      expect(JSON.parse(reset.body).message).toBe('The request body is larger than 65536 bytes.');
      // A declared 300 MiB seed is refused before a byte of it is read.
      const declared = await exchange(
        target,
        raw(
          `POST /__admin/seed HTTP/1.1\nHost: localhost\nContent-Type: application/json\nContent-Length: ${300 * MiB}\n\n{`,
        ),
      );
      expect(statusOf(declared.text)).toBe(413);
      // A chunked one is counted as it comes and cut off at the seed route's 64 MiB.
      const rssBefore = process.memoryUsage().rss;
      const socket = await openSocket(target);
      const answer = new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.once('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
        socket.on('error', () => undefined);
      });
      socket.write(
        raw(
          'POST /__admin/seed HTTP/1.1\nHost: localhost\nContent-Type: application/json\nTransfer-Encoding: chunked\n\n',
        ),
      );
      const chunk = Buffer.alloc(MiB, 0x20);
      const header = `${chunk.length.toString(16)}\r\n`;
      let sent = 0;
      while (sent < 300 && !socket.destroyed) {
        socket.write(header);
        socket.write(chunk);
        const flushed = socket.write('\r\n');
        sent += 1;
        // Whichever comes first ends the wait, and both listeners go: up to 300 rounds on one
        // socket would otherwise pile up `close` listeners (MaxListenersExceededWarning).
        if (!flushed)
          await new Promise<void>((resolve) => {
            const done = () => {
              socket.off('drain', done).off('close', done);
              resolve();
            };
            socket.once('drain', done).once('close', done);
          });
      }
      const text = await answer;
      expect(statusOf(text)).toBe(413);
      expect(sent).toBeLessThan(300);
      expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * MiB);
      expect(fake.exportState()).toEqual(before);
    }, 30_000);
  });
});
