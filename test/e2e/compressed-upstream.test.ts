import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/answer-limit.js';
import { spawnCliWithPeakRss, startRecorderWithPeakRss } from '../helpers/cli.js';
import { listenUpstream } from '../helpers/upstream.js';

/**
 * A small compressed answer that inflates far past the bound of one answer: about 300 KB of gzip
 * that decodes to 300 MiB of zeros. record and verify --har store answers decoded (HAR 1.2): they
 * inflate at most MAX_ANSWER_BYTES, as they read a raw answer, and say so, with memory bounded.
 */
const MiB = 1024 * 1024;
const INFLATED = 300 * MiB;
/** Node and the CLI with one answer held: far below what inflating INFLATED would take. */
const RSS_BOUND = 320 * MiB;

let bomb: Buffer;
let upstream: Server;
let upstreamUrl: string;
const folder = mkdtempSync(join(tmpdir(), 'compressed-'));

beforeAll(async () => {
  bomb = await new Promise<Buffer>((resolve, reject) => {
    const gzip = createGzip({ level: 9 });
    const chunks: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gzip.on('end', () => resolve(Buffer.concat(chunks)));
    gzip.on('error', reject);
    const zeros = Buffer.alloc(MiB);
    let left = INFLATED / MiB;
    const pump = () => {
      while (left > 0) {
        left -= 1;
        if (!gzip.write(zeros)) return void gzip.once('drain', pump);
      }
      gzip.end();
    };
    pump();
  });
  upstream = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
      'content-length': bomb.length,
    });
    res.end(bomb);
  });
  upstreamUrl = await listenUpstream(upstream);
}, 60_000);
afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

const run = spawnCliWithPeakRss;

function rawGet(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

const TOO_LARGE = `decodes (gzip) to more than ${MAX_ANSWER_BYTES} bytes (32 MiB)`;

describe('a small gzip answer that inflates past the bound of one answer', () => {
  it('is a small bomb', () => {
    expect(bomb.length).toBeLessThan(MiB);
  });

  it('record: the client gets the answer as sent, the HAR keeps it compressed and says why, memory bounded', async () => {
    const out = join(folder, 'bomb.har');
    const recorder = await startRecorderWithPeakRss(upstreamUrl, out);
    const { baseUrl } = recorder;
    // node:http, not fetch, which would inflate the answer itself.
    for (let i = 0; i < 4; i++) {
      const answer = await rawGet(`${baseUrl}/lists`);
      expect(answer.status).toBe(200);
      expect(answer.body.equals(bomb)).toBe(true);
    }
    recorder.child.kill('SIGTERM');
    const { code, rss, stderr } = await recorder.exited;
    expect(stderr).not.toContain('RangeError');
    expect(code).toBe(0);
    expect(rss).toBeLessThan(RSS_BOUND);
    const har = JSON.parse(readFileSync(out, 'utf8'));
    expect(har.log.entries).toHaveLength(4);
    for (const entry of har.log.entries) {
      expect(entry.response.status).toBe(200);
      expect(entry.comment).toContain(TOO_LARGE);
      expect(entry.response.content.encoding).toBe('base64');
      expect(Buffer.from(entry.response.content.text, 'base64').equals(bomb)).toBe(true);
    }
  });

  it('verify --har: the checks run and report, the HAR is written, memory bounded', async () => {
    const out = join(folder, 'verify.har');
    const { exited } = run([
      'verify',
      '--base-url',
      upstreamUrl,
      '--server-id',
      '12345',
      '--key',
      'bomb-key-123456789',
      '--har',
      out,
    ]);
    const { code, stdout, stderr, rss } = await exited;
    expect(stderr).not.toContain('RangeError');
    expect(stdout + stderr).not.toContain('a bug of verify');
    // An answer that is not the service's: drift (1), never "could not run" (3) from a crash.
    expect(code).toBe(1);
    expect(rss).toBeLessThan(RSS_BOUND);
    const har = JSON.parse(readFileSync(out, 'utf8'));
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(har.log.entries[0].comment).toContain(TOO_LARGE);
  });
});
