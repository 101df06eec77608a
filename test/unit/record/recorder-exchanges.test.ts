import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { startRecorder } from '../../../src/record/recorder.js';
import { harEntries, harFolder, upstreamsClosedAfterEach } from '../../helpers/recorder-files.js';

/** What the recorder keeps of a request's codings and headers, and of a client's connection. */
const folder = harFolder('recorder-exchanges-');
const upstreamOf = upstreamsClosedAfterEach();

function send(
  url: string,
  options: Parameters<typeof request>[1],
  body?: Buffer,
): Promise<{ status: number; body: string; reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text, reusedSocket: req.reusedSocket }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a recorded exchange', () => {
  it('records a request body its Transfer-Encoding compressed, decoded, as the upstream read it', async () => {
    const received: Buffer[] = [];
    const upstream = await upstreamOf((req, res) => {
      req.on('data', (chunk: Buffer) => received.push(chunk));
      req.on('end', () => res.end('{}'));
    });
    const out = join(folder, 'transfer-coding.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const sent = deflateSync(Buffer.from('{"name":"Newsletter"}'));
    try {
      const answer = await send(
        `${recorder.baseUrl}/lists`,
        {
          method: 'POST',
          agent: false,
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'deflate, chunked' },
        },
        sent,
      );
      expect(answer.status).toBe(200);
    } finally {
      await recorder.close();
    }
    expect(Buffer.concat(received)).toEqual(sent);
    const [entry] = harEntries(out);
    expect(entry!.request.postData?.text).toBe('{"name":"Newsletter"}');
    expect(entry!.comment).toBeUndefined();
  });

  it('keeps every other header beside the cookies whose values it hides, both ways', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(200, { 'set-cookie': 'sid=session-value; Path=/', 'x-answer-tag': 'kept' });
      res.end();
    });
    const out = join(folder, 'cookie-neighbours.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      const answer = await send(`${recorder.baseUrl}/lists`, {
        agent: false,
        headers: { cookie: 'session=abc123', 'x-request-tag': 'kept too' },
      });
      expect(answer.status).toBe(200);
    } finally {
      await recorder.close();
    }
    const [entry] = harEntries(out);
    const headerValue = (headers: { name: string; value: string }[], name: string) =>
      headers.find((header) => header.name === name)?.value;
    expect(headerValue(entry!.request.headers, 'cookie')).toBe('session=<redacted>');
    expect(headerValue(entry!.request.headers, 'x-request-tag')).toBe('kept too');
    expect(headerValue(entry!.response.headers, 'set-cookie')).toBe('sid=<redacted>; Path=/');
    expect(headerValue(entry!.response.headers, 'x-answer-tag')).toBe('kept');
  });

  it("keeps a client's connection open after refusing a request that came back to it", async () => {
    const vias: string[] = [];
    const upstream = await upstreamOf((req, res) => {
      vias.push(String(req.headers.via));
      res.end('"forwarded"');
    });
    const out = join(folder, 'loop-keep-alive.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await send(`${recorder.baseUrl}/lists`, { agent })).body).toBe('"forwarded"');
      // The recorder's own name in Via: the request went round a loop and is refused here.
      const hop = vias[0]!.replace(/^1\.1 /, '');
      const looped = await send(`${recorder.baseUrl}/lists`, {
        agent,
        headers: { via: `1.1 ${hop}` },
      });
      expect(looped.status).toBe(508);
      expect(looped.reusedSocket).toBe(true);
      // Given the time to see a closed connection, were it closed.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await send(`${recorder.baseUrl}/lists`, { agent });
      expect(after).toEqual({ status: 200, body: '"forwarded"', reusedSocket: true });
    } finally {
      agent.destroy();
      await recorder.close();
    }
    expect(harEntries(out)).toHaveLength(2);
  });
});
