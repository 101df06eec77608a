import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, get, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarValidator } from '@har-sdk/validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../src/answer-limit.js';
import { startRecorderWithPeakRss } from '../helpers/cli.js';
import { listenUpstream } from '../helpers/upstream.js';

/**
 * An upstream whose every answer is as large as record reads (32 MiB): a recording of any length
 * holds what is in flight and what is not yet on disk, never every exchange it has written.
 */
const MiB = 1024 * 1024;
const SEQUENTIAL = 12;
const AT_ONCE = 4;
/**
 * Node, the CLI, the answers in flight (each held raw, then decoded and serialised) and the batch
 * not yet written, with room to spare (measured: 480 to 510 MiB on a loaded machine); a recorder
 * that kept every entry it wrote took 970 MiB for these answers, and more for each further one.
 */
const RSS_BOUND = 720 * MiB;

/** A JSON answer exactly MAX_ANSWER_BYTES long: the largest one record passes on whole. */
const BODY = Buffer.alloc(MAX_ANSWER_BYTES, 'x');
BODY.write('{"data":"');
BODY.write('"}', MAX_ANSWER_BYTES - 2);

let upstream: Server;
let upstreamUrl: string;
const folder = mkdtempSync(join(tmpdir(), 'record-memory-'));

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': BODY.length });
    res.end(BODY);
  });
  upstreamUrl = await listenUpstream(upstream);
});
afterAll(async () => {
  upstream?.closeAllConnections();
  await new Promise((resolve) => upstream?.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

function bodyLength(url: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let length = 0;
      response.on('data', (chunk: Buffer) => {
        length += chunk.length;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, length }));
    }).on('error', reject);
  });
}

/**
 * The HAR line by line (the recorder writes one entry a line): a file this large is past the
 * longest string V8 holds, so it is checked entry by entry, and the envelope with the entries'
 * bodies cut short by the HAR validator.
 */
async function readEntries(file: string) {
  const bytes = readFileSync(file);
  const lines: string[] = [];
  for (
    let from = 0, end = bytes.indexOf(10);
    end !== -1;
    from = end + 1, end = bytes.indexOf(10, from)
  )
    lines.push(bytes.toString('latin1', from, end));
  const [head = '', ...rest] = lines;
  expect(rest.pop()).toBe(']}}');
  const entries = rest.map((line, index) => {
    // Each entry but the last ends its line with the comma before the next.
    const entry = JSON.parse(index < rest.length - 1 ? line.slice(0, -1) : line);
    const { text } = entry.response.content;
    entry.response.content.text = `${text.length} characters`;
    return { entry, text: text as string };
  });
  const har = JSON.parse(`${head}${entries.map(({ entry }) => JSON.stringify(entry))}]}}`);
  expect(await new HarValidator().verify(har)).toEqual([]);
  return entries;
}

const startRecord = (out: string) => startRecorderWithPeakRss(upstreamUrl, out);

describe('record: a long recording of answers at the bound', () => {
  it(`holds what is in flight and not yet on disk: ${SEQUENTIAL} answers of 32 MiB one after another and ${AT_ONCE} at once, then one more continuing the file`, async () => {
    const out = join(folder, 'large.har');
    const first = await startRecord(out);
    const answers = [];
    for (let i = 0; i < SEQUENTIAL; i++) answers.push(await bodyLength(`${first.baseUrl}/lists`));
    answers.push(
      ...(await Promise.all(
        Array.from({ length: AT_ONCE }, () => bodyLength(`${first.baseUrl}/content`)),
      )),
    );
    first.child.kill('SIGTERM');
    const ended = await first.exited;
    // Sixteen bodies of 32 MiB: a file past the longest string V8 holds (2^29 - 24 characters),
    // continued all the same, an entry at a time.
    const second = await startRecord(out);
    expect(second.stdout()).toContain(`(continuing: ${SEQUENTIAL + AT_ONCE} exchanges already)`);
    answers.push(await bodyLength(`${second.baseUrl}/lists`));
    second.child.kill('SIGTERM');
    const continued = await second.exited;
    expect(second.stdout()).toContain(
      `Wrote 1 exchanges to ${out} (${SEQUENTIAL + AT_ONCE + 1} in the file)`,
    );
    for (const { code, stderr } of [ended, continued]) {
      expect(stderr).not.toContain('RangeError');
      expect(code).toBe(0);
    }
    const all = SEQUENTIAL + AT_ONCE + 1;
    expect(answers).toEqual(
      Array.from({ length: all }, () => ({ status: 200, length: BODY.length })),
    );
    expect(ended.rss).toBeLessThan(RSS_BOUND);
    expect(continued.rss).toBeLessThan(RSS_BOUND);
    const entries = await readEntries(out);
    expect(entries).toHaveLength(all);
    const sent = BODY.toString('latin1');
    for (const { entry, text } of entries) {
      expect(entry.response.status).toBe(200);
      expect(entry.comment).toBeUndefined();
      expect(text.length).toBe(BODY.length);
      expect(text === sent).toBe(true);
    }
  }, 120_000);
});
