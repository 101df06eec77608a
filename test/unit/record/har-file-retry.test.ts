import { mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HarEntry } from '../../../src/journal/har.js';
import { HarFile, HarWriteError, MAX_UNWRITTEN_BYTES } from '../../../src/record/har-file.js';

// How a HAR being recorded tries again after a failed write, and what it says of the failure.

let folder: string;
let out: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'har-file-retry-'));
  out = join(folder, 'traffic.har');
});
afterEach(() => {
  rmSync(`${folder}.away`, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

const entry = (id: number, text = `body ${id}`) => ({ _id: id, text }) as unknown as HarEntry;
const read = () => JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: unknown[] } };
/** Moves the HAR's folder away (a write cannot make its temporary file) until `back()`. */
const away = () => {
  renameSync(folder, `${folder}.away`);
  return () => renameSync(`${folder}.away`, folder);
};
const until = async (done: () => boolean) => {
  for (let tries = 0; tries < 300 && !done(); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a HAR whose write failed', () => {
  it('writes a kept batch of the bound exactly before it gives room', async () => {
    const file = new HarFile(out, undefined, () => undefined);
    await file.write();
    const back = away();
    // 20 bytes of the entry's JSON and its separator besides the text.
    const exact = entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES - 20));
    expect(Buffer.byteLength(`\n${JSON.stringify(exact)}`)).toBe(MAX_UNWRITTEN_BYTES);
    file.append(exact);
    await until(() => file.refusal !== undefined);
    expect(file.refusal).toBeDefined();
    back();
    await file.room();
    // The room came from a write: the batch is on disk, not only let go of.
    expect(file.unwritten).toBe(0);
    expect(read().log.entries).toEqual([exact]);
    await file.close();
  });

  it('keeps why it failed as the cause of its refusal', async () => {
    const file = new HarFile(out, undefined, () => undefined);
    await file.write();
    const back = away();
    file.append(entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES)));
    await until(() => file.refusal !== undefined);
    const refusal = file.refusal;
    expect(refusal).toBeInstanceOf(HarWriteError);
    expect(refusal?.reason).toBe('its folder does not exist');
    expect((refusal?.cause as NodeJS.ErrnoException | undefined)?.code).toBe('ENOENT');
    back();
    await file.close();
  });

  it('never tries again by itself once closed', async () => {
    const errors: Error[] = [];
    const file = new HarFile(out, undefined, (error) => errors.push(error));
    file.append(entry(1));
    await file.write();
    const back = away();
    file.append(entry(2));
    await expect(file.close()).rejects.toThrow('its folder does not exist');
    // An entry that comes after the last write is tried once, in the background, and fails.
    file.append(entry(3));
    await until(() => errors.length > 0);
    expect(errors).toHaveLength(1);
    back();
    // Longer than a failed write waits to be tried again: the file stays as closed.
    await pause(1500);
    expect(errors).toHaveLength(1);
    expect(read().log.entries).toEqual([entry(1)]);
  });

  it('says why when the HAR is a link it cannot follow, not that the HAR went', async () => {
    const file = new HarFile(out);
    await file.write();
    rmSync(out);
    // A link to itself: the folder is there, the HAR does not exist, and the failure is ELOOP.
    symlinkSync(out, out);
    file.append(entry(1));
    const failure = await file.write().then(
      () => undefined,
      (error: unknown) => error as HarWriteError,
    );
    expect((failure?.cause as NodeJS.ErrnoException | undefined)?.code).toBe('ELOOP');
    expect(failure?.reason).not.toBe('it is no longer there (moved or removed)');
    expect(failure?.reason).toMatch(/symbolic links|ELOOP/i);
  });
});
