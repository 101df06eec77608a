import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_WAITING, startRecorder } from '../../../src/record/recorder.js';
import {
  getText,
  harEntries,
  harFolder,
  upstreamsClosedAfterEach,
} from '../../helpers/recorder-files.js';

/** How the recorder hands out its turns: who waits, who is refused, who gives a turn back. */
const folder = harFolder('recorder-turns-');
const upstreamOf = upstreamsClosedAfterEach();

/** An upstream that holds its first request until told, and answers the others at once. */
async function holdingUpstream() {
  let release!: () => void;
  let arrived!: () => void;
  const firstArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const seen: string[] = [];
  const url = await upstreamOf((req, res) => {
    req.resume();
    seen.push(req.url ?? '');
    if (seen.length === 1) {
      release = () => res.end('"first"');
      arrived();
    } else res.end('"later"');
  });
  return { url, seen, firstArrived, release: () => release() };
}

describe('the turns of a recorder', () => {
  it('keeps its one turn taken after a request that waited too long gave up: the next one waits too', async () => {
    const upstream = await holdingUpstream();
    const out = join(folder, 'late.har');
    const recorder = await startRecorder({
      upstream: upstream.url,
      out,
      https: false,
      maxInFlight: 1,
      queueWaitMs: 100,
    });
    try {
      const first = getText(`${recorder.baseUrl}/first`);
      await upstream.firstArrived;
      expect((await getText(`${recorder.baseUrl}/late`)).status).toBe(504);
      // The first exchange still holds the only turn: this one waits and gives up as well.
      expect((await getText(`${recorder.baseUrl}/also-late`)).status).toBe(504);
      expect(upstream.seen).toEqual(['/marketing/v1/first']);
      upstream.release();
      expect(await first).toEqual({ status: 200, body: '"first"' });
    } finally {
      await recorder.close();
    }
    expect(harEntries(out).map((entry) => entry.response.content.text)).toEqual(['"first"']);
  });

  it(`refuses with 503 at once, forwarding nothing, a request past the ${MAX_WAITING} waiting their turn`, async () => {
    const upstream = await holdingUpstream();
    const out = join(folder, 'busy.har');
    const recorder = await startRecorder({
      upstream: upstream.url,
      out,
      https: false,
      maxInFlight: 1,
      queueWaitMs: 60_000,
    });
    try {
      const first = getText(`${recorder.baseUrl}/first`);
      await upstream.firstArrived;
      // One more than may wait: whichever comes last to the recorder is refused, the others wait.
      const sent: Promise<{ status: number; body: string }>[] = [];
      for (let index = 0; index <= MAX_WAITING; index++) {
        sent.push(getText(`${recorder.baseUrl}/waiting`));
      }
      const refused = await Promise.race(sent);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body)).toEqual({
        message: `fake-marketing-server record: busy: the exchanges it forwards at once (1) are under way and as many as may wait their turn (${MAX_WAITING}) are waiting; this request was neither forwarded nor recorded: retry it.`,
      });
      // Still only the first forwarded: the refused one went nowhere.
      expect(upstream.seen).toHaveLength(1);
      upstream.release();
      expect((await first).status).toBe(200);
      const statuses = (await Promise.all(sent)).map((answer) => answer.status);
      expect(statuses.filter((status) => status === 503)).toHaveLength(1);
      expect(statuses.filter((status) => status === 200)).toHaveLength(MAX_WAITING);
      expect(upstream.seen).toHaveLength(MAX_WAITING + 1);
    } finally {
      await recorder.close();
    }
    expect(harEntries(out)).toHaveLength(MAX_WAITING + 1);
  }, 30_000);
});
