import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSeed, verifyService } from '../../src/index.js';
import { send, UnusableAnswerError } from '../../src/verify/http-client.js';
import { spawnCliPerTest } from '../helpers/cli.js';
import { closeUpstream } from '../helpers/upstream.js';

/**
 * A service that answers `101 Switching Protocols` (Node's client emits 'upgrade' for it, never
 * 'response'), to every request under /all/ and to GET /content under /content-only/, where the
 * lists are a good answer; under /bare/, a 101 without Upgrade, which Node hands over as a response. verify and import must say they got no answer they can use, with their
 * exit codes, and never exit 0 with nothing written.
 */
let service: Server;
let origin: string;
const folder = mkdtempSync(join(tmpdir(), 'switching-'));
const SWITCH = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n';
const KEY = 'switch-key-123';

beforeAll(async () => {
  service = createServer((req, res) => {
    if (req.url?.startsWith('/bare/')) {
      req.socket.write('HTTP/1.1 101 Switching Protocols\r\n\r\n');
      return;
    }
    if (req.url?.startsWith('/all/') || req.url?.endsWith('/content')) {
      req.socket.write(SWITCH);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify([{ id: 1, serverId: 12345, name: 'One' }]));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await closeUpstream(service);
  rmSync(folder, { recursive: true, force: true });
});

const target = (prefix: string) => ({
  baseUrl: `${origin}/${prefix}/marketing/v1`,
  serverId: 12345,
  key: KEY,
});
const run = spawnCliPerTest();
const account = (prefix: string) => [
  '--base-url',
  `${origin}/${prefix}/marketing/v1`,
  '--server-id',
  '12345',
  '--key',
  KEY,
];

describe('an answer that switches protocols (101)', () => {
  it("verify's and import's client rejects it as no usable answer, at once", async () => {
    const started = Date.now();
    const sent = send(target('all'), { method: 'GET', path: '/lists' });
    await expect(sent).rejects.toThrow(UnusableAnswerError);
    await expect(sent).rejects.toThrow(
      'GET /lists answered 101 (Switching Protocols): it switched to another protocol',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a 101 without Upgrade, a final answer of 1xx, is no usable answer either', async () => {
    await expect(send(target('bare'), { method: 'GET', path: '/lists' })).rejects.toThrow(
      new UnusableAnswerError(
        'GET /lists answered 101 as its final answer, an interim status (1xx), which is no answer of the API',
      ),
    );
    expect((await verifyService(target('bare'))).exitCode).toBe(3);
    await expect(importSeed(target('bare'))).rejects.toThrow(/^GET \/lists answered 101 as its/);
  });

  it('verify: could not run (exit 3), said once', async () => {
    const report = await verifyService(target('all'));
    expect(report.exitCode).toBe(3);
    expect(report.couldNotRun?.problem).toMatch(
      /^GET \/lists answered 101 \(Switching Protocols\)/,
    );
  });

  it('verify mid-run: the check that got it is ERROR, the others are judged, exit 3', async () => {
    const report = await verifyService({
      ...target('content-only'),
      only: ['lists.json', 'content.json'],
    });
    expect(report.results.map((result) => [result.id, result.status])).toEqual([
      ['lists.json', 'pass'],
      ['content.json', 'error'],
    ]);
    expect(report.results[1]!.got).toMatch(/^GET \/content answered 101/);
    expect(report.exitCode).toBe(3);
  });

  it('import: an answer it cannot import (InvalidOptionError), naming the request', async () => {
    await expect(importSeed(target('content-only'))).rejects.toThrow(
      /^GET \/content answered 101 \(Switching Protocols\)/,
    );
  });

  it('the CLI: verify exits 3 and writes its JUnit; import exits 2 and writes no seed', async () => {
    const junit = join(folder, 'report.xml');
    const verified = run(['verify', ...account('all'), '--reporter', 'junit', '--out', junit]);
    const verifiedExit = await verified.exited;
    expect(verifiedExit.code).toBe(3);
    expect(verified.output()).toContain('COULD NOT RUN');
    expect(readFileSync(junit, 'utf8')).toContain('<error');
    const seed = join(folder, 'seed.json');
    const imported = await run(['import', ...account('content-only'), '--out', seed]).exited;
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain('GET /content answered 101 (Switching Protocols)');
    expect(existsSync(seed)).toBe(false);
  });

  it('the CLI: a run left waiting on a request that never settles exits non-zero, saying so', async () => {
    // Every request hangs with nothing to wake it (timers unref'd): the event loop drains.
    const hang = [
      "import http from 'node:http';",
      "import { EventEmitter } from 'node:events';",
      "import { syncBuiltinESMExports } from 'node:module';",
      'http.request = () => Object.assign(new EventEmitter(), { end() {}, destroy() {} });',
      'syncBuiltinESMExports();',
      'const later = globalThis.setTimeout;',
      'globalThis.setTimeout = (...args) => later(...args).unref();',
    ].join('\n');
    const preload = `--import=data:text/javascript,${encodeURIComponent(hang)}`;
    const verified = run(['verify', ...account('all')], [preload]);
    const verifiedExit = await verified.exited;
    expect(verifiedExit.code).toBe(3);
    expect(verifiedExit.stderr).toContain('verify stopped before it finished');
    const imported = await run(
      ['import', ...account('all'), '--out', join(folder, 'never.json')],
      [preload],
    ).exited;
    expect(imported.code).toBe(1);
    expect(imported.stderr).toContain('import stopped before it finished');
  });
});
