import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Har, startRecorder } from '../../src/index.js';
import { closeUpstream, listenUpstream } from '../helpers/upstream.js';

/**
 * A HAR that cannot be written for a while (a full disk; here its folder moved away) keeps the
 * entries in memory, bounded, and writes them all once it can: no exchange hangs meanwhile.
 */
let upstream: Server;
let upstreamUrl: string;
const folder = mkdtempSync(join(tmpdir(), 'record-unwritable-'));
const harFolder = join(folder, 'har');
const out = join(harFolder, 'traffic.har');
/** 12 MiB: three answers pass the 32 MiB of entries that may wait for a write. */
const LARGE = JSON.stringify({ text: 'x'.repeat(12 * 1024 * 1024) });

beforeAll(async () => {
  upstream = createServer((req, res) => {
    req.resume();
    const body = req.url?.endsWith('/large') ? LARGE : '{}';
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  upstreamUrl = await listenUpstream(upstream);
});
beforeEach(() => {
  rmSync(harFolder, { recursive: true, force: true });
  mkdirSync(harFolder);
});
afterAll(async () => {
  await closeUpstream(upstream);
  rmSync(folder, { recursive: true, force: true });
  rmSync(`${folder}.away`, { recursive: true, force: true });
});

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

/** The answer to GET `url` once `accept` takes it, asking again every 100 ms for up to 60 s. */
async function getUntil(url: string, accept: (status: number) => boolean) {
  let answer = await get(url);
  for (let tries = 0; tries < 600 && !accept(answer.status); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    answer = await get(url);
  }
  return answer;
}

const away = () => renameSync(harFolder, `${folder}.away`);
const back = () => renameSync(`${folder}.away`, harFolder);

describe('a recording whose HAR cannot be written for a while', () => {
  it('refuses new requests with 503 past the bound, then writes every entry once it can', async () => {
    const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
    try {
      away();
      for (let n = 0; n < 3; n++) {
        expect((await get(`${recorder.baseUrl}/large`)).status).toBe(200);
      }
      const refused = await getUntil(`${recorder.baseUrl}/small`, (status) => status === 503);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body).message).toContain(
        `the HAR cannot be written: its folder does not exist (${out})`,
      );
      back();
      // No request is needed for the entries to be written: the recorder tries again itself.
      const taken = await getUntil(`${recorder.baseUrl}/small`, (status) => status === 200);
      expect(taken.status).toBe(200);
    } finally {
      await recorder.close();
    }
    const har = JSON.parse(readFileSync(out, 'utf8')) as Har;
    const large = har.log.entries.filter((entry) => entry.request.url.endsWith('/large'));
    expect(large).toHaveLength(3);
    expect(har.log.entries.at(-1)?.request.url).toMatch(/\/small$/);
  });

  it('rejects close, saying which file, why and how many exchanges are lost, when the last write fails', async () => {
    const recorder = await startRecorder({ upstream: upstreamUrl, out, https: false });
    expect((await get(`${recorder.baseUrl}/small`)).status).toBe(200);
    away();
    try {
      expect((await get(`${recorder.baseUrl}/small`)).status).toBe(200);
      await expect(recorder.close()).rejects.toThrow(
        `cannot write ${out}: its folder does not exist; the last`,
      );
    } finally {
      back();
    }
  });
});
