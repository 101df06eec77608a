import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Har, startRecorder } from '../../src/index.js';
import { MAX_WAITING } from '../../src/record/recorder.js';
import { closeUpstream, listenUpstream } from '../helpers/upstream.js';

/**
 * Each exchange holds up to two bodies of 32 MiB, so the recorder forwards a bounded number at
 * once: the others wait their turn, unread, and past those that may wait one is refused at once.
 */
let upstream: Server;
let upstreamUrl: string;
/** Answers the upstream holds until the test lets them go. */
const held: ServerResponse[] = [];
let holding = true;
/** How long the upstream takes to answer when it does not hold. */
let delayMs = 20;
let atOnce = 0;
let mostAtOnce = 0;
let reached = 0;
const folder = mkdtempSync(join(tmpdir(), 'record-in-flight-'));

const answer = (res: ServerResponse) => {
  atOnce -= 1;
  res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
};
beforeAll(async () => {
  upstream = createServer((req, res) => {
    reached += 1;
    atOnce += 1;
    mostAtOnce = Math.max(mostAtOnce, atOnce);
    req.resume();
    if (holding) held.push(res);
    else setTimeout(() => answer(res), delayMs);
  });
  upstreamUrl = await listenUpstream(upstream);
});
afterAll(async () => {
  await closeUpstream(upstream);
  rmSync(folder, { recursive: true, force: true });
});

/** One request on a connection of its own. */
function get(
  url: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    })
      .on('error', reject)
      .end();
  });
}

const entriesOf = (out: string) => (JSON.parse(readFileSync(out, 'utf8')) as Har).log.entries;

describe('record: how many exchanges at once', () => {
  it('forwards maxInFlight exchanges at once; the others wait their turn, and all are recorded', async () => {
    holding = false;
    mostAtOnce = 0;
    const out = join(folder, 'turns.har');
    const recorder = await startRecorder({
      upstream: upstreamUrl,
      out,
      https: false,
      maxInFlight: 2,
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => get(`${recorder.baseUrl}/lists`)),
    );
    await recorder.close();
    expect(answers.map(({ status }) => status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(mostAtOnce).toBe(2);
    expect(entriesOf(out)).toHaveLength(6);
  });

  it('gives a freed turn to the next exchange: one at a time, one after another, without end', async () => {
    holding = false;
    delayMs = 0;
    const out = join(folder, 'one-by-one.har');
    const recorder = await startRecorder({
      upstream: upstreamUrl,
      out,
      https: false,
      maxInFlight: 1,
    });
    for (let i = 0; i < 3; i++) expect((await get(`${recorder.baseUrl}/lists`)).status).toBe(200);
    await recorder.close();
    expect(entriesOf(out)).toHaveLength(3);
  });

  it(`answers 503 past ${MAX_WAITING} waiting, at once, neither forwarded nor recorded`, async () => {
    holding = true;
    delayMs = 0;
    reached = 0;
    const out = join(folder, 'busy.har');
    const recorder = await startRecorder({
      upstream: upstreamUrl,
      out,
      https: false,
      maxInFlight: 1,
    });
    const sent = 1 + MAX_WAITING + 3;
    const answers = Array.from({ length: sent }, () => get(`${recorder.baseUrl}/lists`));
    const refused: Array<Awaited<(typeof answers)[number]>> = [];
    for (const one of answers) void one.then((got) => got.status === 503 && refused.push(got));
    while (refused.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(reached).toBe(1);
    holding = false;
    for (const res of held.splice(0)) answer(res);
    const statuses = (await Promise.all(answers)).map(({ status }) => status);
    await recorder.close();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1 + MAX_WAITING);
    expect(reached).toBe(1 + MAX_WAITING);
    expect(entriesOf(out)).toHaveLength(1 + MAX_WAITING);
    for (const { headers, body } of refused) {
      expect(headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(headers['content-length'])).toBe(Buffer.byteLength(body));
      expect(headers['retry-after']).toBe('1');
      expect(headers.connection).toBe('close');
      expect(JSON.parse(body)).toEqual({
        message: `fake-marketing-server record: busy: the exchanges it forwards at once (1) are under way and as many as may wait their turn (${MAX_WAITING}) are waiting; this request was neither forwarded nor recorded: retry it.`,
      });
    }
  });
});
