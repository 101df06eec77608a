import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { HarEntry } from '../../src/journal/har.js';
import { closeUpstream, listenUpstream } from './upstream.js';

/** A folder for one test file's HARs, removed once the file's tests are done. */
export function harFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** Starts upstreams on 127.0.0.1 (their base URL), each closed after the test that started it. */
export function upstreamsClosedAfterEach(): (
  handler: Parameters<typeof createServer>[1],
) => Promise<string> {
  let upstreams: Server[] = [];
  afterEach(async () => {
    for (const upstream of upstreams) await closeUpstream(upstream);
    upstreams = [];
  });
  return (handler) => {
    const upstream = createServer(handler);
    upstreams.push(upstream);
    return listenUpstream(upstream);
  };
}

/** A GET on a connection of its own: its status and body as text. */
export function getText(url: string): Promise<{ status: number; body: string }> {
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

/** The entries of a HAR file the recorder wrote. */
export const harEntries = (out: string): HarEntry[] =>
  (JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;
