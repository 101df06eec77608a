import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRecorder } from '../../../src/record/recorder.js';
import {
  getText,
  harEntries,
  harFolder,
  upstreamsClosedAfterEach,
} from '../../helpers/recorder-files.js';

/** Where a recorder listens, and what it records of an HTTPS upstream. */
const folder = harFolder('recorder-listen-');
const upstreamOf = upstreamsClosedAfterEach();

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
      expect(await getText(`${recorder.baseUrl}/lists`)).toEqual({ status: 200, body: '"here"' });
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
        expect(await getText(`${outer.baseUrl}/lists?limit=1`)).toEqual({
          status: 200,
          body: '"secure"',
        });
      } finally {
        await outer.close();
      }
    } finally {
      await inner.close();
    }
    const [entry] = harEntries(out);
    expect(entry!.request.url).toBe(`${inner.baseUrl}/lists?limit=1`);
    expect(entry!.response.content.text).toBe('"secure"');
  });
});
