import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/index.js';
import { exchange } from '../helpers/raw-socket.js';
import { listenUpstream } from '../helpers/upstream.js';

/**
 * A service (or a gateway) that echoes the credentials in a response header left the key in clear
 * in the HAR that `record` (and `verify --har`, the same recorder) writes. Response headers go
 * through the same redaction as request headers: names and values, `Authorization`-like ones
 * keeping the Basic username only.
 */
const KEY = 'Rec0rded-Secret-Key';
const ID = '12345';
const b64 = (text: string, encoding: BufferEncoding = 'latin1') =>
  Buffer.from(text, encoding).toString('base64');

/** The spellings a client sends, each as the request's credential header lines. */
const SPELLINGS: Record<string, string[]> = {
  basic: [`Authorization: Basic ${b64(`${ID}:${KEY}`)}`],
  basicLower: [`Authorization: basic ${b64(`${ID}:${KEY}`)}`],
  basicKeyOnly: [`Authorization: Basic ${b64(KEY)}`],
  basicSwapped: [`Authorization: Basic ${b64(`${KEY}:${ID}`)}`],
  bearer: [`Authorization: Bearer ${KEY}`],
  tokenScheme: [`Authorization: Token token=${KEY}`],
  proxyAuth: [
    `Proxy-Authorization: Basic ${b64(`${ID}:${KEY}`)}`,
    `Authorization: Basic ${b64(`${ID}:${KEY}`)}`,
  ],
  twoAuth: [`Authorization: Basic ${b64(`${ID}:${KEY}`)}`, `Authorization: Bearer ${KEY}`],
};
/** Keys that are not `KEY` (non-ASCII): echoed in the answer's credential headers only. */
const NON_ASCII: Record<string, string> = {
  latin1: `Authorization: Basic ${b64(`${ID}:${KEY}\xe9`)}`,
  utf8: `Authorization: Basic ${b64(`${ID}:${KEY}é`, 'utf8')}`,
};

/** Every form of the key a reader could recognise. */
const FORMS = [
  KEY,
  KEY.toLowerCase(),
  encodeURIComponent(KEY),
  b64(KEY).slice(0, 16),
  b64(`${ID}:${KEY}`).slice(0, 20),
  b64(`${KEY}:${ID}`).slice(0, 20),
  'Rec0rded',
];

let upstream: Server;
let upstreamUrl: string;
let folder: string;

beforeAll(async () => {
  // Echoes the credentials it got in response headers, under their own name and others.
  upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      res.setHeader('content-type', 'application/json');
      res.setHeader('x-echo-auth', auth);
      res.setHeader('authorization', auth);
      res.setHeader('proxy-authorization', req.headers['proxy-authorization'] ?? auth);
      if (req.headers['x-non-ascii'] !== undefined) return res.end('[]');
      // The key itself elsewhere: in a value, a header's name, a cookie (URL-escaped too).
      res.setHeader('www-authenticate', `Basic realm="${KEY}"`);
      res.setHeader(`x-${KEY}`, 'named after the key');
      res.setHeader('set-cookie', [`k=${KEY}`, `b=${encodeURIComponent(KEY)}`]);
      res.end('[]');
    });
  });
  upstreamUrl = await listenUpstream(upstream);
  folder = mkdtempSync(join(tmpdir(), 'record-echo-'));
});
afterAll(async () => {
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

describe('record: credentials echoed in response headers', () => {
  it.each(Object.entries(SPELLINGS))('%s: no form of the key in the HAR', async (name, lines) => {
    const out = join(folder, `${name}.har`);
    const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
    const { text } = await exchange(
      { url: recorder.url, ca: undefined },
      `GET /marketing/v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`,
    );
    await recorder.close();
    // The client itself gets the answer unchanged: only the file is redacted.
    expect(text).toContain('x-echo-auth: ');
    const har = readFileSync(out, 'utf8');
    const entry = JSON.parse(har).log.entries[0];
    expect(entry.response.status).toBe(200);
    for (const form of FORMS) expect(har).not.toContain(form);
    const headers = entry.response.headers as { name: string; value: string }[];
    expect(headers.find((h) => h.name === 'x-echo-auth')?.value).toContain('<redacted>');
    expect(headers.find((h) => h.name === 'authorization')?.value).toMatch(/<redacted>$/);
    expect(headers.some((h) => h.name === 'x-<redacted>')).toBe(true);
  });

  it.each(Object.entries(NON_ASCII))(
    '%s key: the echoed credentials are redacted',
    async (name, line) => {
      const out = join(folder, `${name}.har`);
      const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
      await exchange(
        { url: recorder.url, ca: undefined },
        `GET /marketing/v1/lists HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Non-Ascii: 1\r\n${line}\r\nConnection: close\r\n\r\n`,
      );
      await recorder.close();
      const har = readFileSync(out, 'utf8');
      for (const form of FORMS) expect(har).not.toContain(form);
      const headers = JSON.parse(har).log.entries[0].response.headers as {
        name: string;
        value: string;
      }[];
      for (const header of ['x-echo-auth', 'authorization', 'proxy-authorization'])
        expect(headers.find((h) => h.name === header)?.value).toContain('<redacted>');
    },
  );

  it('keeps the server id of an echoed Basic Authorization, as on the request side', async () => {
    const out = join(folder, 'id.har');
    const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
    await fetch(`${recorder.baseUrl}/lists`, {
      headers: { authorization: `Basic ${b64(`${ID}:${KEY}`)}` },
    });
    await recorder.close();
    const entry = JSON.parse(readFileSync(out, 'utf8')).log.entries[0];
    expect(entry.response.headers).toContainEqual({
      name: 'authorization',
      value: `Basic ${ID}:<redacted>`,
    });
  });

  it('redacts a key given up front (verify --har) in an answer header before any request', async () => {
    const out = join(folder, 'known.har');
    const recorder = await startRecorder({
      upstream: upstreamUrl,
      out,
      https: false,
      secrets: [KEY],
    });
    await fetch(`${recorder.baseUrl}/lists`);
    await recorder.close();
    const har = readFileSync(out, 'utf8');
    for (const form of FORMS) expect(har).not.toContain(form);
  });
});
