import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/answer-limit.js';
import { startRecorder } from '../../src/index.js';
import { exchange } from '../helpers/raw-socket.js';
import { listenUpstream } from '../helpers/upstream.js';

/**
 * The recorder reads a client's request body to the same bound as an upstream's answer (32 MiB):
 * a declared larger one gets 413 before a byte is read; a chunked one past it is cut off. Neither
 * reaches the upstream nor the HAR.
 */
let upstream: Server;
let upstreamUrl: string;
let reached = 0;
const folder = mkdtempSync(join(tmpdir(), 'record-request-'));

beforeAll(async () => {
  upstream = createServer((req, res) => {
    reached += 1;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  upstreamUrl = await listenUpstream(upstream);
});
afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

describe('record: a request body past 32 MiB', () => {
  it('declared: 413 saying so, at once, not forwarded or recorded', async () => {
    const out = join(folder, 'declared.har');
    const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
    const { text, closed } = await exchange(
      { url: recorder.url, ca: undefined },
      `PUT /marketing/v1/lists/1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${MAX_ANSWER_BYTES + 1}\r\n\r\n{`,
    );
    await recorder.close();
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain(`the request body is larger than ${MAX_ANSWER_BYTES} bytes (32 MiB)`);
    expect(closed).toBe(true);
    expect(reached).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).log.entries).toHaveLength(0);
  });

  it('chunked: the connection is cut once past the bound, nothing forwarded or recorded', async () => {
    const out = join(folder, 'chunked.har');
    const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
    const socket = connect(Number(new URL(recorder.url).port), '127.0.0.1');
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => {});
    socket.write(
      'PUT /marketing/v1/lists/1/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    // Up to twice the bound: without it the recorder would read all of it.
    while (!socket.destroyed && sent < 2 * MAX_ANSWER_BYTES) {
      const more = socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString('latin1')}\r\n`);
      sent += chunk.length;
      if (!more) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await closed;
    await recorder.close();
    expect(sent).toBeGreaterThan(MAX_ANSWER_BYTES);
    expect(sent).toBeLessThan(2 * MAX_ANSWER_BYTES);
    expect(reached).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).log.entries).toHaveLength(0);
  });
});
