import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  type Recorder,
  replayHar,
  startRecorder,
} from '../../src/index.js';
import { smallSeed } from '../helpers/fake.js';
import { exchange, statusOf } from '../helpers/raw-socket.js';

/**
 * The recorder passes requests on with the upstream's Host. A DNS-rebinding page reaches
 * 127.0.0.1 under a name of its own; through the recorder it read a fake's GET /__admin/state,
 * every key with it, which the fake refuses when asked directly. The recorder answers its own
 * names only (IP addresses, localhost, the host it listens on), as the fake does.
 */
let fake: FakeMarketingServer;
let recorder: Recorder;
const folder = mkdtempSync(join(tmpdir(), 'record-host-'));
const out = join(folder, 'session.har');

beforeAll(async () => {
  fake = await createFakeMarketingServer({ seed: smallSeed() });
  const { url } = await fake.listen({ https: false });
  recorder = await startRecorder({ upstream: url, out, https: false });
});
afterAll(async () => {
  await recorder?.close();
  await fake?.close();
  rmSync(folder, { recursive: true, force: true });
});

function get(path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(recorder.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the recorder and the Host header', () => {
  it('refuses a name that is not its own with 403, forwarding and recording nothing', async () => {
    const { port } = new URL(recorder.url);
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.:${port}`]) {
      const answer = await get('/__admin/state', host);
      expect([host, answer.status]).toEqual([host, 403]);
      expect(answer.body).toContain('DNS rebinding');
      expect(answer.body).not.toContain(smallSeed().servers[0]!.key!);
    }
    await recorder.close();
    const har = JSON.parse(readFileSync(out, 'utf8'));
    expect(har.log.entries).toEqual([]);
    expect(readFileSync(out, 'utf8')).not.toContain(smallSeed().servers[1]!.key!);
    recorder = await startRecorder({ upstream: fake.url, out, https: false });
  });

  it('forwards its own names: an IP address, localhost', async () => {
    const { port } = new URL(recorder.url);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      // The fake's own answer to a request without credentials: forwarded.
      expect([host, (await get('/marketing/v1/lists', host)).status]).toEqual([host, 401]);
    }
  });
});

describe('the recorder and two Host fields', () => {
  it('refuses a request with two Host fields with 403, even when the first is its own', async () => {
    const host = new URL(recorder.url).host;
    const recorded = recorder.entries;
    const { text } = await exchange(
      { url: recorder.url, ca: undefined },
      Buffer.from(
        `GET /marketing/v1/lists HTTP/1.1\r\nHost: ${host}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
    );
    expect(statusOf(text)).toBe(403);
    expect(text).toContain('more than one Host field');
    expect(recorder.entries).toBe(recorded);
  });
});

describe('the recorder and a fake control API', () => {
  it('refuses /__admin paths however spelt with 403, forwarding and recording nothing', async () => {
    const { port } = new URL(recorder.url);
    const host = `127.0.0.1:${port}`;
    const before = fake.requests().length;
    const recorded = recorder.entries;
    for (const path of [
      '/__admin/state',
      '/marketing/v1/../../__admin/state',
      '/marketing/v1/%2e%2e/%2e%2e/__admin/state',
      '/%5F%5Fadmin/state',
    ]) {
      const answer = await get(path, host);
      expect([path, answer.status]).toEqual([path, 403]);
      expect(answer.body).toContain("a fake's control API");
      expect(answer.body).not.toContain(smallSeed().servers[0]!.key!);
    }
    expect(recorder.entries).toBe(recorded);
    await recorder.close();
    expect(readFileSync(out, 'utf8')).not.toContain(smallSeed().servers[0]!.key!);
    expect(fake.requests()).toHaveLength(before);
    recorder = await startRecorder({ upstream: fake.url, out, https: false });
  });
});

describe('the recorder and the request target', () => {
  // An absolute URL (a client with HTTP_PROXY) was forwarded as `<upstream origin>http://...`: a
  // 502 blaming the upstream, and an entry whose URL made replay refuse the whole recording.
  it('refuses a target that is not a path with 400, records only paths, and replay reads the HAR', async () => {
    const odd = join(folder, 'odd.har');
    const upstream = fake.url;
    const proxy = await startRecorder({ upstream, out: odd, https: false });
    const target = { url: proxy.url, ca: undefined };
    const host = new URL(proxy.url).host;
    const raw = (line: string) =>
      exchange(
        target,
        Buffer.from(`${line}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, 'latin1'),
      );
    try {
      for (const line of [
        'GET http://127.0.0.1:1/marketing/v1/lists HTTP/1.1',
        `GET http://${host}/marketing/v1/lists HTTP/1.1`,
        'OPTIONS * HTTP/1.1',
      ]) {
        const { text } = await raw(line);
        expect([line, statusOf(text)]).toEqual([line, 400]);
        expect(text).toContain('the recorder is not a forward proxy');
      }
      for (const line of [
        'GET //marketing/v1/lists HTTP/1.1',
        'GET /marketing/v1/lists?x=%zz&y&=1 HTTP/1.1',
        'GET /marketing/v1/lists/%ff/<b>|{}^` HTTP/1.1',
        'GET /marketing/v1/lists/\u00e9#fragment HTTP/1.1',
        'GET /marketing/v1/../../x HTTP/1.1',
      ]) {
        expect([line, statusOf((await raw(line)).text)]).not.toEqual([line, 0]);
      }
    } finally {
      await proxy.close();
    }
    const text = readFileSync(odd, 'utf8');
    const entries = JSON.parse(text).log.entries as { request: { url: string } }[];
    expect(entries.length).toBeGreaterThan(0);
    for (const { request } of entries) {
      expect(new URL(request.url).origin).toBe(new URL(upstream).origin);
    }
    await expect(replayHar(text)).resolves.toBeDefined();
  });
});
