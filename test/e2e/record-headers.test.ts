import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/index.js';
import { closeUpstream } from '../helpers/upstream.js';

/**
 * What the recorder passes on and what it writes down of headers: it is a proxy, so it drops
 * the headers a message's Connection names and the credentials meant for a proxy (RFC 9110
 * 7.6.1); cookies are a session's credentials, so the HAR keeps their names, never their values.
 */
let upstream: Server;
let origin: string;
let received: IncomingHttpHeaders = {};
const folder = mkdtempSync(join(tmpdir(), 'record-headers-'));

beforeAll(async () => {
  upstream = createServer((req, res) => {
    received = req.headers;
    res.writeHead(200, {
      'content-type': 'application/json',
      'set-cookie':
        req.headers['x-nameless'] === undefined
          ? ['sid=s3cr3t-session-value; Path=/; HttpOnly', 'theme=dark']
          : ['SECRETNOEQ-set-value; Path=/', ' SECRETNOEQ-bare '],
    });
    // An answer quoting the request's cookies, as a debug page or an error page may.
    res.end(
      req.headers['x-echo-cookie'] === undefined
        ? '[]'
        : JSON.stringify({ cookie: req.headers.cookie }),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeUpstream(upstream);
  rmSync(folder, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string>): Promise<IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.headers));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the recorder and headers', () => {
  it("passes on neither what Connection names nor a proxy's credentials, and keeps no cookie value", async () => {
    const out = join(folder, 'headers.har');
    const recorder = await startRecorder({ upstream: origin, out, https: false });
    let answered: IncomingHttpHeaders;
    try {
      answered = await get(`${recorder.baseUrl}/lists`, {
        connection: 'keep-alive, x-hop-secret',
        'x-hop-secret': 'only-for-the-next-hop',
        'proxy-authorization': 'Basic cHJveHk6cHJveHktcGFzc3dvcmQ=',
        cookie: 'session=abc123-cookie-value; theme=light',
        'x-kept': 'yes',
      });
    } finally {
      await recorder.close();
    }
    expect(received['x-hop-secret']).toBeUndefined();
    expect(received['proxy-authorization']).toBeUndefined();
    expect(received['x-kept']).toBe('yes');
    // The client's session goes on: cookies pass both ways as they are.
    expect(received.cookie).toBe('session=abc123-cookie-value; theme=light');
    expect(answered['set-cookie']).toEqual([
      'sid=s3cr3t-session-value; Path=/; HttpOnly',
      'theme=dark',
    ]);
    const text = readFileSync(out, 'utf8');
    for (const secret of [
      'abc123-cookie-value',
      's3cr3t-session-value',
      'cHJveHk6',
      'only-for-the-next-hop',
    ]) {
      expect(text).not.toContain(secret);
    }
    const [entry] = JSON.parse(text).log.entries;
    const header = (list: { name: string; value: string }[], name: string) =>
      list.filter((one) => one.name.toLowerCase() === name).map((one) => one.value);
    expect(header(entry.request.headers, 'cookie')).toEqual([
      'session=<redacted>; theme=<redacted>',
    ]);
    expect(header(entry.response.headers, 'set-cookie')).toEqual([
      'sid=<redacted>; Path=/; HttpOnly',
      'theme=<redacted>',
    ]);
  });

  it('keeps no value of a cookie without a name (no `=`): browsers store it as a value', async () => {
    const out = join(folder, 'nameless.har');
    const recorder = await startRecorder({ upstream: origin, out, https: false });
    try {
      await get(`${recorder.baseUrl}/lists`, {
        cookie: 'NAMELESSSECRET; theme=light;',
        'x-nameless': '1',
      });
    } finally {
      await recorder.close();
    }
    expect(received.cookie).toBe('NAMELESSSECRET; theme=light;');
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('NAMELESSSECRET');
    expect(text).not.toContain('SECRETNOEQ');
    const [entry] = JSON.parse(text).log.entries;
    const header = (list: { name: string; value: string }[], name: string) =>
      list.filter((one) => one.name.toLowerCase() === name).map((one) => one.value);
    expect(header(entry.request.headers, 'cookie')).toEqual(['<redacted>; theme=<redacted>; ']);
    expect(header(entry.response.headers, 'set-cookie')).toEqual([
      '<redacted>; Path=/',
      '<redacted>',
    ]);
  });

  it('keeps no cookie value an answer quotes in its body, while the client gets it as sent', async () => {
    const out = join(folder, 'echo.har');
    const recorder = await startRecorder({ upstream: origin, out, https: false });
    let body = '';
    try {
      body = await new Promise<string>((resolve, reject) => {
        const req = request(
          `${recorder.baseUrl}/lists`,
          { headers: { cookie: 'session=SessionSecret777; lang=en', 'x-echo-cookie': '1' } },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve(Buffer.concat(chunks).toString()));
          },
        );
        req.on('error', reject);
        req.end();
      });
    } finally {
      await recorder.close();
    }
    expect(JSON.parse(body)).toEqual({ cookie: 'session=SessionSecret777; lang=en' });
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('SessionSecret777');
    const [entry] = JSON.parse(text).log.entries;
    // A value shorter than a key's least length (`en`) is no secret worth garbling bodies for.
    expect(JSON.parse(entry.response.content.text)).toEqual({
      cookie: 'session=<redacted>; lang=en',
    });
  });

  it("forwards a browser app's cross-site call with its Origin and Sec-Fetch-Site as sent", async () => {
    // Recording a browser app is a page of another origin calling the recorder: not refused (see
    // docs/security.md); the upstream sees the page's own origin and applies its own checks.
    const out = join(folder, 'cross-site.har');
    const recorder = await startRecorder({ upstream: origin, out, https: false });
    try {
      await get(`${recorder.baseUrl}/lists`, {
        origin: 'http://localhost:5173',
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'cors',
      });
    } finally {
      await recorder.close();
    }
    expect(received.origin).toBe('http://localhost:5173');
    expect(received['sec-fetch-site']).toBe('cross-site');
    const [entry] = JSON.parse(readFileSync(out, 'utf8')).log.entries;
    expect(entry.response.status).toBe(200);
    expect(entry.request.headers).toContainEqual({
      name: 'origin',
      value: 'http://localhost:5173',
    });
  });
});
