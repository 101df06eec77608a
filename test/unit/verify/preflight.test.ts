import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { preflight, transportProblem } from '../../../src/verify/preflight.js';
import { type RawHttpService, rawHttpService, rawReply } from '../../helpers/raw-http-service.js';

const TARGET = { baseUrl: 'https://api.example.com:8443/marketing/v1', serverId: 1, key: 'k' };

const withCode = (code: string | undefined, message: string | undefined) =>
  Object.assign(Object.create(Error.prototype) as Error, { code, message });

const UNTRUSTED =
  'trust its certificate: pass --ca <the PEM of its CA> (a fake prints its CA file at start)';

describe('transportProblem', () => {
  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'ERR_TLS_CERT_ALTNAME_INVALID',
  ])('says the TLS connection failed on %s and to trust the certificate', (code) => {
    expect(transportProblem(TARGET, withCode(code, 'the words'))).toEqual({
      problem: `the TLS connection to api.example.com:8443 failed: ${code} (the words)`,
      fix: UNTRUSTED,
    });
  });

  it('says a server that does not speak HTTPS is no TLS server', () => {
    expect(transportProblem(TARGET, withCode('ERR_SSL_WRONG_VERSION_NUMBER', 'wrong'))).toEqual({
      problem:
        'the TLS connection to api.example.com:8443 failed: ERR_SSL_WRONG_VERSION_NUMBER (wrong)',
      fix: 'the server does not speak HTTPS on that port: use an http:// base URL, or the HTTPS port',
    });
  });

  it('says any other failure could not reach the host, in one line, with its code and words', () => {
    const fix = 'check --base-url (scheme, host, port) and that the service is up';
    expect(
      transportProblem(TARGET, withCode('ECONNREFUSED', 'connect  ECONNREFUSED\n 1.2.3.4:8443')),
    ).toEqual({
      problem: 'cannot reach api.example.com:8443: ECONNREFUSED connect ECONNREFUSED 1.2.3.4:8443',
      fix,
    });
    expect(transportProblem(TARGET, withCode(undefined, 'socket hang up'))).toEqual({
      problem: 'cannot reach api.example.com:8443: socket hang up',
      fix,
    });
    expect(transportProblem(TARGET, 'a thrown string')).toEqual({
      problem: 'cannot reach api.example.com:8443: a thrown string',
      fix,
    });
  });
});

describe('preflight', () => {
  const services: RawHttpService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
  });

  /** A service that answers GET /lists with `status` (and a Content-Type). */
  const answering = async (status: number, contentType = 'application/json', more = '') => {
    const service = await rawHttpService((socket: Socket) =>
      socket.end(
        rawReply(
          [
            `HTTP/1.1 ${status} X`,
            `Content-Type: ${contentType}`,
            'Content-Length: 2',
            more,
          ].filter(Boolean),
          '[]',
        ),
      ),
    );
    services.push(service);
    return { baseUrl: service.baseUrl, serverId: 1234, key: 'the-key', service };
  };

  it('finds nothing wrong with a 200 in JSON, asking GET /lists in JSON', async () => {
    const target = await answering(200);
    expect(await preflight(target)).toBeUndefined();
    const head = target.service.heads[0] ?? '';
    expect(head.startsWith('GET /marketing/v1/lists HTTP/1.1\r\n')).toBe(true);
    expect(head).toMatch(/\r\naccept: application\/json\r\n/i);
  });

  it.each([400, 500, 201])('leaves an answer %i to the checks', async (status) => {
    expect(await preflight(await answering(status))).toBeUndefined();
  });

  it.each([401, 403])('says the credentials are refused on %i', async (status) => {
    const target = await answering(status);
    expect(await preflight(target)).toEqual({
      problem: `GET ${target.baseUrl}/lists answered ${status}: the credentials are refused`,
      fix: 'check --server-id (the Basic username) and the key (--key or FMS_VERIFY_KEY)',
    });
  });

  it.each([404, 405, 300, 302, 399])('says the base URL is not the API on %i', async (status) => {
    const target = await answering(status);
    expect(await preflight(target)).toEqual({
      problem: `GET ${target.baseUrl}/lists answered ${status}: that base URL is not the API`,
      fix: '--base-url must be the API base, ending in the version segment: https://<host>/marketing/v1',
    });
  });

  it('says a web page is not the API', async () => {
    const target = await answering(200, 'Text/HTML; charset=utf-8');
    expect(await preflight(target)).toEqual({
      problem: `GET ${target.baseUrl}/lists answered a web page (text/html): that base URL is not the API`,
      fix: '--base-url must be the API base, ending in the version segment: https://<host>/marketing/v1',
    });
  });

  it('leaves a web page that is no 200, or a type that only ends in text/html, to the checks', async () => {
    expect(await preflight(await answering(500, 'text/html'))).toBeUndefined();
    expect(await preflight(await answering(200, 'application/x-text/html'))).toBeUndefined();
  });

  it.each([502, 503, 504])('says the service is unavailable on %i', async (status) => {
    const target = await answering(status);
    expect(await preflight(target)).toEqual({
      problem: `GET ${target.baseUrl}/lists answered ${status}: the service is unavailable`,
      fix: 'try again later (the description allows maintenance outages)',
    });
  });

  it('says an answer past the bound is no list, with the reader’s words', async () => {
    const service = await rawHttpService((socket) =>
      socket.write(rawReply(['HTTP/1.1 200 OK', `Content-Length: ${2 ** 40}`])),
    );
    services.push(service);
    const problem = await preflight({ baseUrl: service.baseUrl, serverId: 1, key: 'k' });
    expect(problem?.problem).toMatch(/^the answer to GET \/lists is larger than \d+ bytes/);
    expect(problem?.fix).toBe(
      'check --base-url: the API answers a list in far less (an endless or hostile answer?)',
    );
  });

  it('says a service that switches protocols is not the API', async () => {
    const service = await rawHttpService((socket) =>
      socket.write(
        rawReply(['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: x']),
      ),
    );
    services.push(service);
    expect(await preflight({ baseUrl: service.baseUrl, serverId: 1, key: 'k' })).toEqual({
      problem:
        'GET /lists answered 101 (Switching Protocols): it switched to another protocol, which is no answer of the API',
      fix: '--base-url must be the API base, ending in the version segment: https://<host>/marketing/v1',
    });
  });

  it('says a host that refuses the connection cannot be reached', async () => {
    const service = await rawHttpService(() => {});
    await service.close();
    const { host } = new URL(service.baseUrl);
    const problem = await preflight({ baseUrl: service.baseUrl, serverId: 1, key: 'k' });
    expect(problem?.problem).toMatch(new RegExp(`^cannot reach ${host}: ECONNREFUSED `));
    expect(problem?.fix).toBe('check --base-url (scheme, host, port) and that the service is up');
  });
});
