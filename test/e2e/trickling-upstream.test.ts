import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../src/index.js';
import { send } from '../../src/verify/http-client.js';
import { closeUpstream } from '../helpers/upstream.js';

/**
 * A service that drips its answer, a byte every 50 ms, without end: never silent long enough for
 * an idle time-out. verify, import (both through verify's client) and record give up on the whole
 * answer at their time-out, and say so.
 */
let trickler: Server;
let origin: string;
const folder = mkdtempSync(join(tmpdir(), 'trickle-'));

beforeAll(async () => {
  trickler = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const drip = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => trickler.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(trickler.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeUpstream(trickler);
  rmSync(folder, { recursive: true, force: true });
});

describe('an answer that trickles without end', () => {
  it("verify's and import's client gives up on the whole answer at its time-out", async () => {
    const target = {
      baseUrl: `${origin}/marketing/v1`,
      serverId: 12345,
      key: 'trickle-key-123',
      timeoutMs: 400,
    };
    await expect(send(target, { method: 'GET', path: '/lists' })).rejects.toThrow(
      'no whole answer within 400 ms',
    );
  });

  it('record gives its client a 502 naming the time-out, and records it', async () => {
    const out = join(folder, 'trickle.har');
    const recorder = await startRecorder({
      upstream: origin,
      out,
      https: false,
      upstreamTimeoutMs: 400,
    });
    try {
      const answer = await fetch(`${recorder.baseUrl}/lists`);
      expect(answer.status).toBe(502);
      expect(await answer.text()).toContain('gave no whole answer within 400 ms');
    } finally {
      await recorder.close();
    }
    const har = JSON.parse(readFileSync(out, 'utf8'));
    expect(har.log.entries[0].comment).toContain('gave no whole answer within 400 ms');
  });
});

describe('an upstream that answers 101 Switching Protocols', () => {
  // Node's client hands a 101 with Upgrade to an 'upgrade' listener, never to 'response': the
  // recorder's client waited for ever. One without Upgrade was passed on, a switch to nothing.
  it.each([
    ['with Upgrade', 'Upgrade: x\r\nConnection: Upgrade\r\n'],
    ['without Upgrade', ''],
  ])(
    'record gives its client a 502 at once (%s), and records it with the reason',
    async (_, more) => {
      const switcher = createTcpServer((socket) => {
        socket.on('error', () => {});
        socket.once('data', () => socket.write(`HTTP/1.1 101 Switching Protocols\r\n${more}\r\n`));
      });
      await new Promise<void>((resolve) => switcher.listen(0, '127.0.0.1', resolve));
      const { port } = switcher.address() as AddressInfo;
      const out = join(folder, `switch-${more === '' ? 'bare' : 'upgrade'}.har`);
      const recorder = await startRecorder({
        upstream: `http://127.0.0.1:${port}`,
        out,
        https: false,
        upstreamTimeoutMs: 5000,
      });
      const started = performance.now();
      try {
        const answer = await fetch(`${recorder.baseUrl}/lists`, {
          signal: AbortSignal.timeout(10_000),
        });
        expect(answer.status).toBe(502);
        const { message } = (await answer.json()) as { message: string };
        expect(message).toContain('answered 101 Switching Protocols');
        expect(performance.now() - started).toBeLessThan(4000);
      } finally {
        await recorder.close();
        await new Promise((resolve) => switcher.close(resolve));
      }
      const [entry] = JSON.parse(readFileSync(out, 'utf8')).log.entries;
      expect(entry.response.status).toBe(502);
      expect(entry.comment).toContain('answered 101 Switching Protocols');
    },
    20_000,
  );
});
