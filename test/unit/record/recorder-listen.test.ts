import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { HarEntry } from '../../../src/journal/har.js';
import { startRecorder } from '../../../src/record/recorder.js';
import { closeUpstream, listenUpstream } from '../../helpers/upstream.js';

/** Where a recorder listens, and what it records of an HTTPS upstream. */
const folder = mkdtempSync(join(tmpdir(), 'recorder-listen-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let upstreams: Server[] = [];
afterEach(async () => {
  for (const upstream of upstreams) await closeUpstream(upstream);
  upstreams = [];
});

async function upstreamOf(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const upstream = createServer(handler);
  upstreams.push(upstream);
  return listenUpstream(upstream);
}

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Whether a TCP connection to the address is taken. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

const entriesOf = (out: string): HarEntry[] =>
  (JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;

describe('a recorder given --host', () => {
  it('listens on that address alone and names it in its URL', async () => {
    const upstream = await upstreamOf((_req, res) => res.end('"here"'));
    const recorder = await startRecorder({
      upstream,
      out: join(folder, 'host.har'),
      https: false,
      host: '127.0.0.2',
    });
    try {
      const port = Number(new URL(recorder.url).port);
      expect(recorder.url).toBe(`http://127.0.0.2:${port}`);
      expect(await get(`${recorder.baseUrl}/lists`)).toEqual({ status: 200, body: '"here"' });
      // Not on another loopback address, let alone every interface.
      expect(await connects('127.0.0.1', port)).toBe(false);
    } finally {
      await recorder.close();
    }
  });
});

describe('a recorder of an HTTPS upstream', () => {
  it('reaches it trusting the given CA, and records its URLs as https', async () => {
    const upstream = await upstreamOf((_req, res) => res.end('"secure"'));
    // A recorder serving HTTPS with its generated certificate is an HTTPS upstream at hand.
    const inner = await startRecorder({ upstream, out: join(folder, 'inner.har') });
    const out = join(folder, 'outer.har');
    try {
      expect(inner.url).toMatch(/^https:/);
      const outer = await startRecorder({
        upstream: inner.baseUrl,
        out,
        https: false,
        ca: inner.ca,
      });
      try {
        expect(await get(`${outer.baseUrl}/lists?limit=1`)).toEqual({
          status: 200,
          body: '"secure"',
        });
      } finally {
        await outer.close();
      }
    } finally {
      await inner.close();
    }
    const [entry] = entriesOf(out);
    expect(entry!.request.url).toBe(`${inner.baseUrl}/lists?limit=1`);
    expect(entry!.response.content.text).toBe('"secure"');
  });
});
