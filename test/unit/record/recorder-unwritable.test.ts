import { existsSync, mkdtempSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { HarFile, HarWriteError, MAX_UNWRITTEN_BYTES } from '../../../src/record/har-file.js';
import { startRecorder } from '../../../src/record/recorder.js';
import {
  getText,
  harEntries,
  harFolder,
  upstreamsClosedAfterEach,
} from '../../helpers/recorder-files.js';

/** A recorder whose HAR cannot be written takes exchanges only while it can keep them. */
const folder = harFolder('recorder-unwritable-');
const upstreamOf = upstreamsClosedAfterEach();

/** Two of these answers fill the entries that may wait for a write. */
const HALF_FULL = Buffer.alloc(MAX_UNWRITTEN_BYTES / 2 + 1024, 'a');

describe('a recorder whose HAR cannot be written', () => {
  it('refuses with 503, forwarding nothing, once the exchanges waiting fill their bound, also one that waited its turn', async () => {
    const seen: string[] = [];
    let answerHeld!: () => void;
    let heldArrived!: () => void;
    const held = new Promise<void>((resolve) => {
      heldArrived = resolve;
    });
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      seen.push(req.url ?? '');
      if (req.url?.endsWith('/held')) {
        answerHeld = () => res.end(HALF_FULL);
        heldArrived();
      } else if (req.url?.endsWith('/large')) res.end(HALF_FULL);
      else res.end('"small"');
    });
    const own = mkdtempSync(join(folder, 'moved-'));
    const out = join(own, 'unwritable.har');
    const warnings: string[] = [];
    const warned = (warning: Error) => warnings.push(warning.message);
    process.on('warning', warned);
    const recorder = await startRecorder({
      upstream,
      out,
      https: false,
      maxInFlight: 1,
      queueWaitMs: 30_000,
    });
    try {
      renameSync(own, `${own}.away`);
      expect((await getText(`${recorder.baseUrl}/large`)).status).toBe(200);
      await vi.waitFor(() => expect(warnings.length).toBeGreaterThan(0), { timeout: 10_000 });
      // Half the bound waits: one more exchange is still taken. It holds the only turn while
      // another request waits for it.
      const heldAnswer = getText(`${recorder.baseUrl}/held`);
      await held;
      const waited = getText(`${recorder.baseUrl}/waited`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      answerHeld();
      expect((await heldAnswer).status).toBe(200);
      // The turn came once the entries waiting had filled their bound: refused all the same.
      const refusedAfterWaiting = await waited;
      expect(refusedAfterWaiting.status).toBe(503);
      expect(JSON.parse(refusedAfterWaiting.body).message).toBe(
        `fake-marketing-server record: the HAR cannot be written: its folder does not exist (${out}); the exchanges waiting to be written have reached their bound, so this request was neither forwarded nor recorded: retry it once the HAR can be written.`,
      );
      // And one that comes now is refused before it waits.
      const refused = await getText(`${recorder.baseUrl}/now`);
      expect(refused.status).toBe(503);
      expect(refused.body).toBe(refusedAfterWaiting.body);
      expect(seen).toEqual(['/marketing/v1/large', '/marketing/v1/held']);
    } finally {
      process.off('warning', warned);
      if (existsSync(`${own}.away`)) renameSync(`${own}.away`, own);
      await recorder.close();
    }
    expect(harEntries(out)).toHaveLength(2);
  }, 30_000);

  it('refuses at once, never waiting for a turn, while every turn is taken', async () => {
    let answerHeld!: () => void;
    let heldArrived!: () => void;
    const held = new Promise<void>((resolve) => {
      heldArrived = resolve;
    });
    const seen: string[] = [];
    const upstream = await upstreamOf((req, res) => {
      req.resume();
      seen.push(req.url ?? '');
      answerHeld = () => res.end('"held"');
      heldArrived();
    });
    const out = join(folder, 'every-turn-taken.har');
    const recorder = await startRecorder({
      upstream,
      out,
      https: false,
      maxInFlight: 1,
      queueWaitMs: 1000,
    });
    const refusal = vi.spyOn(HarFile.prototype, 'refusal', 'get');
    try {
      const heldAnswer = getText(`${recorder.baseUrl}/held`);
      await held;
      // The HAR stops taking exchanges while the only turn is taken.
      refusal.mockReturnValue(new HarWriteError(out, 'the disk is full'));
      const refused = await getText(`${recorder.baseUrl}/now`);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.body).message).toContain(
        'the HAR cannot be written: the disk is full',
      );
      refusal.mockRestore();
      answerHeld();
      expect((await heldAnswer).status).toBe(200);
      expect(seen).toEqual(['/marketing/v1/held']);
    } finally {
      refusal.mockRestore();
      await recorder.close();
    }
    expect(harEntries(out)).toHaveLength(1);
  });
});
