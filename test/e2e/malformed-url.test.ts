import { afterEach, describe, expect, it } from 'vitest';
import { AUTH, KEY, makeFake } from '../helpers/fake.js';
import { exchange, statusOf } from '../helpers/raw-socket.js';
import { listeningFake, OVER_HTTP_AND_HTTPS } from '../helpers/socket-fake.js';

/**
 * A URL whose percent escapes cannot be decoded. fastify's router refuses it before any hook, so it
 * was answered 400 unjournaled and past every fault.
 * It is a request under /marketing/ like any other: journaled, faulted, then 400 as an ASP.NET
 * service answers a URL it cannot decode. Raw sockets, since no HTTP client sends such a URL.
 */
const MALFORMED = [
  '/marketing/v1/lists/%ZZ',
  '/marketing/v1/lists/%E9',
  '/marketing/v1/%ZZ',
  '/marketing/%ZZ',
  '/marketing/v1/lists/1%2',
  '/marketing/v1/lists/%C0%AF',
  '/marketing/v1/lists/%ZZ?x=1',
  '/marketing/v1/customfields/%ZZ',
];

describe.each(OVER_HTTP_AND_HTTPS)(
  'a malformed URL over %s, through a real socket',
  (_name, https) => {
    const on = listeningFake(https);
    afterEach(() => {
      on.fake.faults.clear();
      on.fake.clearRequests();
    });

    const send = async (method: string, path: string, lines: readonly string[] = []) => {
      const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...lines, 'Connection: close'];
      const { text } = await exchange(on.target, `${head.join('\r\n')}\r\n\r\n`);
      const [, body = ''] = text.split('\r\n\r\n');
      return { status: statusOf(text), text, body };
    };

    it.each(MALFORMED)('%s: 400 in the error envelope, journaled as sent', async (path) => {
      const answer = await send('GET', path, [
        `Authorization: ${AUTH}`,
        'Accept: application/json',
      ]);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ message: `The URL ${path} is malformed.` });
      const entries = on.fake.requests();
      expect(entries).toHaveLength(1);
      const [pathPart = '', query = ''] = path.split('?');
      expect(entries[0]).toMatchObject({ method: 'GET', path: pathPart, queryString: query });
      expect(entries[0]?.status).toBe(400);
      expect(entries[0]?.response.body).toBe(answer.body);
    });

    it.each([
      `/marketing/v1/lists/${KEY}%ZZ`,
      `/marketing/v1/lists/%ZZ/${encodeURIComponent(KEY)}`,
      `/marketing/v1/lists/${[...KEY].map((char) => `%u00${char.charCodeAt(0).toString(16)}`).join('')}`,
    ])('%s: the key is redacted from the entry, its echo included', async (path) => {
      const answer = await send('GET', path, [`Authorization: ${AUTH}`]);
      expect(answer.status).toBe(400);
      const entry = JSON.stringify(on.fake.requests());
      expect(entry).toContain('malformed');
      expect(entry).toContain('<redacted>');
      expect(entry).not.toContain(KEY);
      expect(entry).not.toContain(encodeURIComponent(KEY));
    });

    it('negotiated like any error: XML when asked for', async () => {
      const answer = await send('GET', '/marketing/v1/lists/%ZZ', ['Accept: text/xml']);
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/content-type: text\/xml; charset=utf-8/i);
      expect(answer.body).toContain(
        '<Error><Message>The URL /marketing/v1/lists/%ZZ is malformed.</Message></Error>',
      );
      expect(on.fake.requests()[0]?.format).toBe('xml');
    });

    it('answered before authentication, as the service refuses the URL before the app', async () => {
      const answer = await send('GET', '/marketing/v1/lists/%E9');
      expect(answer.status).toBe(400);
      expect(answer.text).not.toMatch(/www-authenticate/i);
    });

    it('maintenance answers it 503, as every public route', async () => {
      on.fake.maintenance();
      const answer = await send('GET', '/marketing/v1/lists/%ZZ', [`Authorization: ${AUTH}`]);
      expect(answer.status).toBe(503);
      expect(on.fake.requests()).toMatchObject([
        { path: '/marketing/v1/lists/%ZZ', status: 503, fault: 'unavailable' },
      ]);
    });

    it('a rule matching its path applies, and a fault that cuts the connection journals it as sent', async () => {
      on.fake.faults.add({ kind: 'reset', match: { path: '/marketing/v1/lists/*' } });
      const answer = await send('GET', '/marketing/v1/lists/%C0%AF', [`Authorization: ${AUTH}`]);
      expect(answer.status).toBe(0);
      expect(on.fake.requests()).toMatchObject([
        { path: '/marketing/v1/lists/%C0%AF', status: 0, fault: 'reset' },
      ]);
    });

    it('a body sent with it is read and journaled', async () => {
      const body = '{"emailAddress":"a@example.com"}';
      const answer = await send('PUT', '/marketing/v1/lists/%ZZ/contacts', [
        `Authorization: ${AUTH}`,
        'Content-Type: application/json',
        `Content-Length: ${body.length}`,
      ]).catch(() => undefined);
      expect(answer).toBeDefined();
      // The head above has no body: send one for real.
      const { text } = await exchange(
        on.target,
        `PUT /marketing/v1/lists/%ZZ/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(statusOf(text)).toBe(400);
      const last = on.fake.requests().at(-1);
      expect(last).toMatchObject({ method: 'PUT', path: '/marketing/v1/lists/%ZZ/contacts' });
      expect(last?.request.body).toEqual(JSON.parse(body));
    });

    it('changes nothing: a custom field is not created from a malformed name', async () => {
      const before = on.fake.exportState();
      const answer = await send('POST', '/marketing/v1/customfields/%ZZ', [
        `Authorization: ${AUTH}`,
        'Content-Length: 0',
      ]);
      expect(answer.status).toBe(400);
      expect(on.fake.exportState()).toEqual(before);
    });

    it('the control API still answers it 400, and never journals it', async () => {
      const answer = await send('GET', '/__admin/%ZZ');
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ message: 'The URL /__admin/%ZZ is malformed.' });
      expect(on.fake.requests()).toEqual([]);
    });

    it('on a kept-alive connection, the request after it is answered as usual', async () => {
      const request = (path: string, close: boolean) =>
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH}\r\n${close ? 'Connection: close\r\n' : ''}\r\n`;
      const { text } = await exchange(
        on.target,
        request('/marketing/v1/lists/%ZZ', false) + request('/marketing/v1/lists', true),
      );
      expect([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1])).toEqual([
        '400',
        '200',
      ]);
      expect(on.fake.requests().map((entry) => [entry.path, entry.status])).toEqual([
        ['/marketing/v1/lists/%ZZ', 400],
        ['/marketing/v1/lists', 200],
      ]);
    });

    it('the next request on the same on.fake is routed as usual', async () => {
      await send('GET', '/marketing/v1/lists/%ZZ', [`Authorization: ${AUTH}`]);
      const answer = await send('GET', '/marketing/v1/lists', [`Authorization: ${AUTH}`]);
      expect(answer.status).toBe(200);
      expect(on.fake.requests().map((entry) => entry.status)).toEqual([400, 200]);
    });
  },
);

describe('a malformed URL on a control API with an admin token', () => {
  it('is answered after the token, as an unknown control route is: 401 first, then 400', async () => {
    const token = 'admin-token-for-malformed-urls';
    const fake = await makeFake({ adminToken: token });
    try {
      const { url, ca } = await fake.listen({ https: false });
      const send = async (lines: readonly string[]) => {
        const head = [
          'GET /__admin/%ZZ HTTP/1.1',
          'Host: 127.0.0.1',
          ...lines,
          'Connection: close',
        ];
        return statusOf((await exchange({ url, ca }, `${head.join('\r\n')}\r\n\r\n`)).text);
      };
      expect(await send([])).toBe(401);
      expect(await send([`Authorization: Bearer ${token}`])).toBe(400);
    } finally {
      await fake.close();
    }
  });
});
