import { existsSync, mkdtempSync, readFileSync, renameSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../src/answer-limit.js';
import { startRecorder } from '../../../src/record/recorder.js';
import {
  getText,
  harEntries,
  harFolder,
  upstreamsClosedAfterEach,
} from '../../helpers/recorder-files.js';
import { listenUpstream } from '../../helpers/upstream.js';

/** What the recorder writes of each exchange, and how it starts and stops. */
const folder = harFolder('recorder-unit-');
const upstreamOf = upstreamsClosedAfterEach();

describe('startRecorder', () => {
  it('serves HTTPS on 127.0.0.1 by default', async () => {
    const upstream = await upstreamOf((_req, res) => res.end());
    const recorder = await startRecorder({ upstream, out: join(folder, 'default.har') });
    try {
      expect(recorder.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(recorder.baseUrl).toBe(`${recorder.url}/marketing/v1`);
      expect(recorder.ca).toContain('BEGIN CERTIFICATE');
    } finally {
      await recorder.close();
    }
  });

  it('writes each exchange with its number, query, duration and notes, over one upstream connection', async () => {
    const ports: number[] = [];
    const upstream = await upstreamOf((req, res) => {
      ports.push(req.socket.remotePort ?? 0);
      if (req.url?.startsWith('/marketing/v1/broken')) {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.end('not gzip at all');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[]');
    });
    const out = join(folder, 'exchanges.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const begun = performance.now();
    try {
      expect((await getText(`${recorder.baseUrl}/lists?a=1&a=2&b=x%20y`)).status).toBe(200);
      await getText(`${recorder.baseUrl}/lists`);
      await getText(`${recorder.baseUrl}/broken`);
      await getText(`${recorder.baseUrl}/lists?only=one`);
    } finally {
      await recorder.close();
    }
    const elapsed = performance.now() - begun;
    const entries = harEntries(out);
    expect(entries[0]!.request.url).toBe(
      `${upstream.replace('/marketing/v1', '')}/marketing/v1/lists?a=1&a=2&b=x%20y`,
    );
    expect(entries.map((entry) => entry._id)).toEqual([1, 2, 3, 4]);
    expect(recorder.entries).toBe(4);
    expect(entries.map((entry) => entry.request.queryString)).toEqual([
      [
        { name: 'a', value: '1' },
        { name: 'a', value: '2' },
        { name: 'b', value: 'x y' },
      ],
      [],
      [],
      [{ name: 'only', value: 'one' }],
    ]);
    for (const entry of entries) {
      expect(entry.time).toBeGreaterThanOrEqual(0);
      expect(entry.time).toBeLessThanOrEqual(elapsed);
    }
    // No Set-Cookie came: none is written.
    expect(
      entries[0]!.response.headers.filter((header) => header.name.toLowerCase() === 'set-cookie'),
    ).toEqual([]);
    expect(entries[0]!.comment).toBeUndefined();
    expect(entries[2]!.comment).toBe(
      "The answer's body is not recorded: it says Content-Encoding 'gzip' and its bytes are not gzip, so the secrets in it could not be taken out.",
    );
    expect(entries[2]!._unreachable).toBeUndefined();
    // The upstream connection is kept for the next exchange.
    expect(new Set(ports).size).toBe(1);
  });

  it('continues the numbering of the file it continues', async () => {
    const upstream = await upstreamOf((_req, res) => res.end('{}'));
    const out = join(folder, 'continued.har');
    for (let run = 0; run < 2; run++) {
      const recorder = await startRecorder({ upstream, out, https: false });
      try {
        await getText(`${recorder.baseUrl}/lists`);
      } finally {
        await recorder.close();
      }
    }
    expect(harEntries(out).map((entry) => entry._id)).toEqual([1, 2]);
  });

  it('lets an exchange in flight finish when closed, and records it', async () => {
    let arrived!: () => void;
    const upstreamHasIt = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let answer!: () => void;
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      answer = () => res.end('"late"');
      arrived();
    });
    const out = join(folder, 'in-flight.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const got = getText(`${recorder.baseUrl}/lists`);
    await upstreamHasIt;
    const closed = recorder.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer();
    expect(await got).toEqual({ status: 200, body: '"late"' });
    await closed;
    expect(harEntries(out).map((entry) => entry.response.content.text)).toEqual(['"late"']);
  });

  it('cuts the connection of a chunked request body past the bound, and records nothing', async () => {
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      res.end();
    });
    const out = join(folder, 'past-bound.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      const outcome = await new Promise<string>((resolve) => {
        const req = request(`${recorder.baseUrl}/lists`, { method: 'POST', agent: false }, (res) =>
          resolve(`answered ${res.statusCode}`),
        );
        req.on('error', () => resolve('cut'));
        req.write(Buffer.alloc(MAX_ANSWER_BYTES, 'a'));
        req.end(Buffer.alloc(1, 'a'));
      });
      expect(outcome).toBe('cut');
    } finally {
      await recorder.close();
    }
    expect(harEntries(out)).toEqual([]);
  });

  it('refuses an --out it cannot write, saying which and why', async () => {
    const upstream = await upstreamOf((_req, res) => res.end());
    const out = join(folder, 'no-such-folder', 'out.har');
    await expect(startRecorder({ upstream, out, https: false })).rejects.toThrow(
      `cannot write --out ${out}: its folder does not exist; give another --out.`,
    );
  });

  it('warns while the HAR cannot be written, and says on close which exchanges it lost', async () => {
    const upstream = await upstreamOf((_req, res) => res.end('{}'));
    const own = mkdtempSync(join(folder, 'moved-'));
    const out = join(own, 'lost.har');
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warned);
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      await getText(`${recorder.baseUrl}/lists`);
      await vi.waitFor(() => expect(harEntries(out)).toHaveLength(1), { timeout: 10_000 });
      renameSync(own, `${own}.away`);
      await getText(`${recorder.baseUrl}/lists`);
      await vi.waitFor(() => expect(warnings.length).toBeGreaterThan(0), { timeout: 10_000 });
      expect(warnings[0]).toBe(
        `record: cannot write ${out}: its folder does not exist; 1 exchanges wait in memory, tried again in a second.`,
      );
      const failure = await recorder.close().then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      expect(failure?.message).toBe(
        `cannot write ${out}: its folder does not exist; the last 1 exchanges are not in it (it holds the 1 written before)`,
      );
      // The write's own failure is kept as the cause.
      expect((failure?.cause as Error | undefined)?.message).toBe(
        `cannot write ${out}: its folder does not exist`,
      );
    } finally {
      process.off('warning', warned);
      if (existsSync(`${own}.away`)) renameSync(`${own}.away`, own);
    }
    expect(harEntries(out)).toHaveLength(1);
  });

  it('refuses, forwarding and recording nothing, a foreign or doubled Host, a target that is no path, and the control API', async () => {
    let forwarded = 0;
    const upstream = await upstreamOf((_req, res) => {
      forwarded++;
      res.end();
    });
    const out = join(folder, 'refused.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const port = new URL(recorder.url).port;
    const statusOf = (requestLine: string, hosts: string[]) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) });
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1');
        });
        socket.on('error', reject);
        socket.on('end', () => resolve(text.split('\r\n')[0]!));
        const lines = [requestLine, ...hosts.map((host) => `Host: ${host}`), 'Connection: close'];
        socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      });
    const own = `127.0.0.1:${port}`;
    try {
      expect(await statusOf('GET /marketing/v1/lists HTTP/1.1', ['evil.example'])).toBe(
        'HTTP/1.1 403 Forbidden',
      );
      expect(await statusOf('GET /marketing/v1/lists HTTP/1.1', [own, own])).toBe(
        'HTTP/1.1 403 Forbidden',
      );
      expect(await statusOf('GET http://example.com/marketing/v1/lists HTTP/1.1', [own])).toBe(
        'HTTP/1.1 400 Bad Request',
      );
      expect(await statusOf('GET /marketing/v1/../../__admin/state HTTP/1.1', [own])).toBe(
        'HTTP/1.1 403 Forbidden',
      );
      expect(await statusOf('GET /marketing/v1/lists HTTP/1.1', [own])).toBe('HTTP/1.1 200 OK');
    } finally {
      await recorder.close();
    }
    expect(forwarded).toBe(1);
    expect(harEntries(out)).toHaveLength(1);
  });

  it('keeps the names of cookies both ways and never their values', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(200, {
        'set-cookie': ['sid=session-value; Path=/; HttpOnly', 'bare-value; Path=/'],
      });
      res.end();
    });
    const out = join(folder, 'cookies.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      await new Promise<void>((resolve, reject) => {
        const req = request(
          `${recorder.baseUrl}/lists`,
          { agent: false, headers: { cookie: 'session=abc123;  theme=light; bare-cookie; ' } },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end();
      });
    } finally {
      await recorder.close();
    }
    const [entry] = harEntries(out);
    const valuesOf = (headers: { name: string; value: string }[], name: string) =>
      headers.filter((header) => header.name === name).map((header) => header.value);
    expect(valuesOf(entry!.request.headers, 'cookie')).toEqual([
      'session=<redacted>; theme=<redacted>; <redacted>; ',
    ]);
    expect(valuesOf(entry!.response.headers, 'set-cookie')).toEqual([
      'sid=<redacted>; Path=/; HttpOnly',
      '<redacted>; Path=/',
    ]);
  });

  it('hides a session cookie wherever it comes back: quoted by the answer that sets it, sent later in a body, echoed unquoted or decoded', async () => {
    const upstream = await upstreamOf((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        body += chunk;
      });
      req.on('end', () => {
        if (req.url?.endsWith('/login')) {
          res.writeHead(200, { 'set-cookie': 'sid=LoginSessAAA111222333; Path=/; HttpOnly' });
          res.end(JSON.stringify({ session: 'LoginSessAAA111222333' }));
          return;
        }
        // Each cookie value as a framework hands it on: unquoted, percent-decoded.
        const values = (req.headers.cookie ?? '')
          .split(';')
          .filter((pair) => pair.includes('='))
          .map((pair) => decodeURIComponent(pair.split('=')[1]!.trim().replace(/^"|"$/g, '')));
        res.end(JSON.stringify({ message: `unknown session ${values.join(', ')}`, got: body }));
      });
    });
    const out = join(folder, 'session-cookies.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    const send = (path: string, headers: Record<string, string>, body = '') =>
      new Promise<string>((resolve, reject) => {
        const req = request(
          `${recorder.baseUrl}${path}`,
          { method: body ? 'POST' : 'GET', agent: false, headers },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              text += chunk;
            });
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    try {
      // The client gets every answer as the upstream sent it: only the HAR is redacted.
      expect(await send('/login', {})).toContain('LoginSessAAA111222333');
      await send('/lists', { 'content-type': 'text/plain' }, 'session=LoginSessAAA111222333');
      expect(
        await send('/lists', { cookie: 'sid="QuotedCookie555666"; t=Enc%2BCookie%2F777888' }),
      ).toContain('QuotedCookie555666, Enc+Cookie/777888');
    } finally {
      await recorder.close();
    }
    const har = readFileSync(out, 'utf8');
    expect(harEntries(out)).toHaveLength(3);
    for (const secret of ['LoginSessAAA111222333', 'QuotedCookie555666', 'Enc+Cookie/777888'])
      expect(har, secret).not.toContain(secret);
  });

  it('keeps a JSON answer JSON when it quotes a quoted cookie value', async () => {
    const upstream = await upstreamOf((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'set-cookie': 'sid="QuotedSess77"; Path=/',
      });
      res.end(JSON.stringify([{ id: 1, name: 'QuotedSess77' }]));
    });
    const out = join(folder, 'quoted-cookie.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      await getText(`${recorder.baseUrl}/lists`);
    } finally {
      await recorder.close();
    }
    const text = harEntries(out)[0]!.response.content.text!;
    expect(JSON.parse(text)).toEqual([{ id: 1, name: '<redacted>' }]);
  });

  it('records an upstream it cannot reach as a 502, saying why in the comment', async () => {
    const closed = createServer();
    const upstream = await listenUpstream(closed);
    await new Promise((resolve) => closed.close(resolve));
    const out = join(folder, 'unreachable.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      expect((await getText(`${recorder.baseUrl}/lists`)).status).toBe(502);
    } finally {
      await recorder.close();
    }
    const [entry] = harEntries(out);
    const port = new URL(upstream).port;
    const reason = `upstream http://127.0.0.1:${port} could not be reached: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:${port}`;
    expect(entry!.response.status).toBe(502);
    expect(entry!.comment).toBe(reason);
    expect(entry!._unreachable).toBe(reason);
  });

  it('answers 504 to a request that waited too long for its turn, and frees the turn it never took', async () => {
    let answerFirst!: () => void;
    let arrived!: () => void;
    const firstArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    let count = 0;
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      count++;
      if (count === 1) {
        answerFirst = () => res.end('"first"');
        arrived();
      } else res.end('"later"');
    });
    const out = join(folder, 'late.har');
    const recorder = await startRecorder({
      upstream,
      out,
      https: false,
      maxInFlight: 1,
      queueWaitMs: 200,
    });
    try {
      const first = getText(`${recorder.baseUrl}/lists`);
      await firstArrived;
      const late = await getText(`${recorder.baseUrl}/lists`);
      expect(late.status).toBe(504);
      expect(late.body).toContain('this request waited 0.2 s for its turn');
      answerFirst();
      expect(await first).toEqual({ status: 200, body: '"first"' });
      expect(await getText(`${recorder.baseUrl}/lists`)).toEqual({ status: 200, body: '"later"' });
    } finally {
      await recorder.close();
    }
    expect(harEntries(out).map((entry) => entry.response.content.text)).toEqual([
      '"first"',
      '"later"',
    ]);
  });

  it("forwards a request that came through another proxy's Via, and notes each body it cannot decode", async () => {
    const vias: (string | undefined)[] = [];
    const upstream = await upstreamOf((req, res) => {
      vias.push(req.headers.via);
      req.resume();
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end('not gzip either');
    });
    const out = join(folder, 'notes.har');
    const recorder = await startRecorder({ upstream, out, https: false });
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          `${recorder.baseUrl}/lists`,
          {
            method: 'POST',
            agent: false,
            headers: { via: '1.0 corporate-proxy', 'content-encoding': 'gzip' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end('not gzip');
      });
      expect(status).toBe(200);
    } finally {
      await recorder.close();
    }
    expect(vias).toHaveLength(1);
    expect(vias[0]).toMatch(
      /^1\.0 corporate-proxy, 1\.1 fake-marketing-server-record-[0-9a-f]{16}$/,
    );
    expect(harEntries(out)[0]!.comment).toBe(
      "The request's body is not recorded: it says Content-Encoding 'gzip' and its bytes are not gzip, so the secrets in it could not be taken out. The answer's body is not recorded: it says Content-Encoding 'gzip' and its bytes are not gzip, so the secrets in it could not be taken out.",
    );
  });
});
