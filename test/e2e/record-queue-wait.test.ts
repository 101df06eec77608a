import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Har, startRecorder } from '../../src/index.js';
import { closeUpstream, listenUpstream } from '../helpers/upstream.js';

/**
 * A request that waits for its turn while a slow upstream holds every exchange is answered by the
 * recorder itself, saying why, rather than cut by the server with a bare 408.
 */
let upstream: Server;
let upstreamUrl: string;
const held: ServerResponse[] = [];
const folder = mkdtempSync(join(tmpdir(), 'record-queue-wait-'));

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    held.push(res);
  });
  upstreamUrl = await listenUpstream(upstream);
});
afterAll(async () => {
  await closeUpstream(upstream);
  rmSync(folder, { recursive: true, force: true });
});

/** One PUT with a body, on a connection of its own. */
function put(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ name: 'x'.repeat(100_000) }));
  });
}

describe('a request waiting for its turn', () => {
  it('is answered 504 saying why once it has waited too long, neither forwarded nor recorded', async () => {
    const out = join(folder, 'traffic.har');
    const recorder = await startRecorder({
      upstream: upstreamUrl,
      out,
      https: false,
      maxInFlight: 1,
      queueWaitMs: 300,
    });
    const first = put(`${recorder.baseUrl}/lists/1`);
    for (let tries = 0; tries < 600 && held.length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const late = await put(`${recorder.baseUrl}/lists/2`);
    expect(late.status).toBe(504);
    expect(JSON.parse(late.body).message).toBe(
      'fake-marketing-server record: this request waited 0.3 s for its turn while the exchanges it forwards at once (1) were under way (the upstream is slow to answer): neither forwarded nor recorded; retry it.',
    );
    expect(held).toHaveLength(1);
    held[0]?.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    expect((await first).status).toBe(200);
    // The slot the late request never took is free: the next one is forwarded.
    const next = put(`${recorder.baseUrl}/lists/3`);
    for (let tries = 0; tries < 600 && held.length < 2; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    held[1]?.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    expect((await next).status).toBe(200);
    await recorder.close();
    const har = JSON.parse(readFileSync(out, 'utf8')) as Har;
    expect(har.log.entries.map((entry) => new URL(entry.request.url).pathname)).toEqual([
      '/marketing/v1/lists/1',
      '/marketing/v1/lists/3',
    ]);
  });
});
