import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/index.js';

/**
 * `record --upstream` pointing at the recorder itself made one client request ten thousand
 * exchanges. The recorder names itself in the `Via` header of what it forwards; a request that
 * comes back with it is refused with 508 Loop Detected.
 */
const folder = mkdtempSync(join(tmpdir(), 'record-loop-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('record: an upstream that is the recorder itself', () => {
  it('answers 508 Loop Detected saying so, and records one exchange', async () => {
    const port = await freePort();
    const out = join(folder, 'loop.har');
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${port}/marketing/v1`,
      out,
      https: false,
      port,
    });
    const answer = await fetch(`${recorder.baseUrl}/lists`, {
      headers: { authorization: `Basic ${Buffer.from('12345:loop-key-123').toString('base64')}` },
    });
    const body = (await answer.json()) as { message: string };
    await recorder.close();
    expect(answer.status).toBe(508);
    expect(body.message).toContain('loop detected');
    expect(body.message).toContain(`--upstream http://127.0.0.1:${port} is this recorder itself`);
    const har = JSON.parse(readFileSync(out, 'utf8'));
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0].response.status).toBe(508);
    expect(har.log.entries[0].comment).toContain('loop detected');
  });

  it('adds itself to the Via header it forwards (kept out of the HAR), an existing Via kept', async () => {
    let via: string | undefined;
    const upstream = createHttpServer((req, res) => {
      via = req.headers.via;
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const out = join(folder, 'via.har');
    const recorder = await startRecorder({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/marketing/v1`,
      out,
      https: false,
    });
    const answer = await fetch(`${recorder.baseUrl}/lists`, { headers: { via: '1.1 corp-proxy' } });
    await recorder.close();
    await new Promise((resolve) => upstream.close(resolve));
    expect(answer.status).toBe(200);
    expect(via).toMatch(/^1\.1 corp-proxy, 1\.1 fake-marketing-server-record-[0-9a-f]{16}$/);
    const entry = JSON.parse(readFileSync(out, 'utf8')).log.entries[0];
    expect(entry.request.headers).toContainEqual({ name: 'via', value: '1.1 corp-proxy' });
  });
});
