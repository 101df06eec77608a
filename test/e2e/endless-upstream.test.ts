import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/answer-limit.js';
import { spawnCliWithPeakRss, startRecorderWithPeakRss } from '../helpers/cli.js';
import { closeUpstream, listenUpstream } from '../helpers/upstream.js';

/**
 * Record, verify and import read an upstream answer with no bound (GBs of RSS within seconds). Each
 * keeps at most MAX_ANSWER_BYTES of one answer, stops reading past it, and says so; record stops
 * reading when its client went away.
 * The upstream here answers 200 with a JSON body that goes on for CAP bytes (without the bound
 * each command would hold all of it), or slowly, to see a cancelled client stop it.
 */
const MiB = 1024 * 1024;
const CAP = 512 * MiB;
/** Node and the CLI with one answer held: far below what reading CAP would take. */
const RSS_BOUND = 256 * MiB;
const CHUNK = Buffer.from(`{"id":1,"name":"${'x'.repeat(64 * 1024 - 20)}"},`);

let upstream: Server;
let upstreamUrl: string;
/** Bytes each answer sent before its connection closed, by request path. */
const sent = new Map<string, { bytes: number; closed: boolean }>();
const folder = mkdtempSync(join(tmpdir(), 'endless-'));

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const tally = { bytes: 0, closed: false };
    sent.set(req.url ?? '', tally);
    res.on('close', () => {
      tally.closed = true;
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const slow = req.url?.includes('slow') === true;
    const pump = () => {
      while (!res.destroyed && tally.bytes < CAP) {
        tally.bytes += CHUNK.length;
        const more = res.write(CHUNK);
        if (slow) return void setTimeout(pump, 10);
        if (!more) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end('{}]');
    };
    pump();
  });
  upstreamUrl = await listenUpstream(upstream);
});
afterAll(async () => {
  await closeUpstream(upstream);
  rmSync(folder, { recursive: true, force: true });
});

const run = spawnCliWithPeakRss;

const target = ['--server-id', '12345', '--key', 'endless-key-123456'];
const LIMIT_TEXT = `larger than ${MAX_ANSWER_BYTES} bytes (32 MiB)`;

describe('an endless upstream answer', () => {
  it('verify: exit 3 naming the limit, memory bounded, reading stopped', async () => {
    const { exited } = run(['verify', '--base-url', upstreamUrl, ...target]);
    const { code, stdout, stderr, rss } = await exited;
    expect(code).toBe(3);
    expect(stdout + stderr).toContain(LIMIT_TEXT);
    expect(rss).toBeLessThan(RSS_BOUND);
    expect(sent.get('/marketing/v1/lists')?.bytes).toBeLessThan(CAP);
  });

  it('import: exit 2 (a bad answer) naming the limit, memory bounded', async () => {
    const out = join(folder, 'seed.json');
    const { exited } = run(['import', '--base-url', upstreamUrl, ...target, '--out', out]);
    const { code, stderr, rss } = await exited;
    expect(code).toBe(2);
    expect(stderr).toContain(LIMIT_TEXT);
    expect(stderr).toContain('GET /lists');
    expect(rss).toBeLessThan(RSS_BOUND);
  });

  it('record: the client gets a 502 naming the limit, the HAR notes it, memory bounded', async () => {
    const out = join(folder, 'endless.har');
    const recorder = await startRecorderWithPeakRss(upstreamUrl, out);
    const { baseUrl } = recorder;
    const answer = await fetch(`${baseUrl}/lists`);
    expect(answer.status).toBe(502);
    expect(await answer.text()).toContain(LIMIT_TEXT);

    // A client that goes away: the recorder stops reading its answer at once.
    const slow = request(`${baseUrl}/lists?slow=1`);
    slow.on('error', () => {});
    slow.end();
    await new Promise((r) => setTimeout(r, 300));
    slow.destroy();
    const tally = () => sent.get('/marketing/v1/lists?slow=1');
    for (let i = 0; i < 100 && !tally()?.closed; i++) await new Promise((r) => setTimeout(r, 20));
    expect(tally()?.closed).toBe(true);
    expect(tally()?.bytes).toBeLessThan(16 * MiB);

    recorder.child.kill('SIGTERM');
    const { rss } = await recorder.exited;
    expect(rss).toBeLessThan(RSS_BOUND);
    const har = JSON.parse(readFileSync(out, 'utf8'));
    expect(har.log.entries).toHaveLength(1);
    expect(har.log.entries[0].response.status).toBe(502);
    expect(har.log.entries[0].comment).toContain(LIMIT_TEXT);
  });
});
