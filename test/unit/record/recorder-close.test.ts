import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startRecorder } from '../../../src/record/recorder.js';
import { harEntries, harFolder, upstreamsClosedAfterEach } from '../../helpers/recorder-files.js';

/** What close() waits for. */
const folder = harFolder('recorder-close-');
const upstreamOf = upstreamsClosedAfterEach();

describe('closing a recorder', () => {
  it('waits for the exchange of a request a kept-alive connection sent during close', async () => {
    const answers = new Map<string, () => void>();
    const upstreamClosed: string[] = [];
    const base = await upstreamOf((req, res) => {
      req.resume();
      const url = req.url ?? '';
      answers.set(url, () => res.end(`"${url}"`));
      res.on('close', () => {
        if (!res.writableEnded) upstreamClosed.push(url);
      });
    });
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
    expect(harEntries(out).map((entry) => entry.response.content.text)).toContain(
      '"/marketing/v1/first"',
    );
  });
});
