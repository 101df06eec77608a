import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { HarEntry } from '../../../src/journal/har.js';
import { startRecorder } from '../../../src/record/recorder.js';
import { closeUpstream, listenUpstream } from '../../helpers/upstream.js';

/** What close() waits for. */
const folder = mkdtempSync(join(tmpdir(), 'recorder-close-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let upstreams: Server[] = [];
afterEach(async () => {
  for (const upstream of upstreams) await closeUpstream(upstream);
  upstreams = [];
});

const entriesOf = (out: string): HarEntry[] =>
  (JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: HarEntry[] } }).log.entries;

describe('closing a recorder', () => {
  it('waits for the exchange of a request a kept-alive connection sent during close', async () => {
    const answers = new Map<string, () => void>();
    const upstreamClosed: string[] = [];
    const upstream = createServer((req, res) => {
      req.resume();
      const url = req.url ?? '';
      answers.set(url, () => res.end(`"${url}"`));
      res.on('close', () => {
        if (!res.writableEnded) upstreamClosed.push(url);
      });
    });
    upstreams.push(upstream);
    const base = await listenUpstream(upstream);
    const out = join(folder, 'kept-alive.har');
    const recorder = await startRecorder({ upstream: base, out, https: false });
    const { port } = new URL(recorder.url);
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    socket.on('error', () => undefined);
    socket.resume();
    const requestFor = (path: string) =>
      `GET /marketing/v1/${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
    try {
      socket.write(requestFor('first'));
      await vi.waitFor(() => expect(answers.has('/marketing/v1/first')).toBe(true));
      let closed = false;
      const closing = recorder.close().then(() => {
        closed = true;
      });
      // The connection is busy with the first exchange: the second comes on it after close().
      socket.write(requestFor('second'));
      await vi.waitFor(() => expect(answers.has('/marketing/v1/second')).toBe(true));
      answers.get('/marketing/v1/first')!();
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The second exchange is under way with the upstream: close() waits for it.
      expect(closed).toBe(false);
      expect(upstreamClosed).toEqual([]);
      answers.get('/marketing/v1/second')!();
      await closing;
    } finally {
      socket.destroy();
    }
    expect(upstreamClosed).toEqual([]);
    expect(entriesOf(out).map((entry) => entry.response.content.text)).toContain(
      '"/marketing/v1/first"',
    );
  });
});
