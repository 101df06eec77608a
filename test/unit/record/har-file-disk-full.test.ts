import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HarEntry } from '../../../src/journal/har.js';
import { HarFile, HarWriteError } from '../../../src/record/har-file.js';
import { readPrevious } from '../../../src/record/previous-har.js';

// A disk that fills while a batch is written: a write may take only part of its bytes (the room
// left) and fail after, or the file fail to close. The HAR on disk must stay whole: the write
// fails, the old file stays in place, and its entries wait for the next write.

type Writev = FileHandle['writev'];
/** What the temporary file's handles do instead of their own writev and close, while set. */
const disk = vi.hoisted(() => ({
  writev: undefined as undefined | ((real: Writev, buffers: Buffer[], at: number) => unknown),
  close: undefined as undefined | (() => Promise<void>),
  /** How many handles were opened, and how many of them closed. */
  opened: 0,
  closed: 0,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (...args: Parameters<typeof real.open>) => {
    const handle = await real.open(...args);
    disk.opened += 1;
    return new Proxy(handle, {
      get(target, name) {
        const own = Reflect.get(target, name, target);
        if (typeof own !== 'function') return own;
        const bound = own.bind(target);
        if (name === 'writev' && disk.writev) {
          const writev = disk.writev;
          return (buffers: Buffer[], at: number) => writev(bound, buffers, at);
        }
        if (name === 'close') {
          return async () => {
            await bound();
            disk.closed += 1;
            await disk.close?.();
          };
        }
        return bound;
      },
    });
  };
  return { ...real, open, default: { ...real, open } };
});

let folder: string;
let out: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'har-file-disk-full-'));
  out = join(folder, 'traffic.har');
});
afterEach(() => {
  disk.writev = undefined;
  disk.close = undefined;
  disk.opened = 0;
  disk.closed = 0;
  rmSync(folder, { recursive: true, force: true });
});

const entry = (id: number) => ({ _id: id, text: `body ${id}` }) as unknown as HarEntry;
const ids = () =>
  (
    JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: Array<{ _id: number }> } }
  ).log.entries.map((written) => written._id);
const temporaries = () => readdirSync(folder).filter((name) => name.endsWith('.tmp'));
const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/** Takes `room` bytes of a write (for real), then has none left: the next write fails. */
function fillsAfter(room: number) {
  let left = room;
  return async (real: Writev, buffers: Buffer[], at: number) => {
    if (left === 0) throw enospc();
    const all = Buffer.concat(buffers);
    const taken = all.subarray(0, Math.min(left, all.length));
    left -= taken.length;
    return real([taken], at);
  };
}

/** A file of entries 1 and 2, written; `onError` hears of failed writes. */
async function recordedTwo(onError: (error: Error) => void = () => {}) {
  const file = new HarFile(out, await readPrevious(out), onError);
  file.append(entry(1));
  file.append(entry(2));
  await file.write();
  return file;
}

describe('a HAR whose disk fills while a batch is written', () => {
  it('keeps the file on disk whole when the disk takes part of the batch, then no more', async () => {
    const file = await recordedTwo();
    const before = readFileSync(out, 'utf8');
    file.append(entry(3));
    file.append(entry(4));
    disk.writev = fillsAfter(10);
    const failed = await file.close().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(HarWriteError);
    expect((failed as HarWriteError).reason).toBe('the disk is full');
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(ids()).toEqual([1, 2]);
    expect(file.unwritten).toBe(2);
    expect(temporaries()).toEqual([]);
  });

  it('keeps the first write from leaving a HAR at all when the disk takes part of it', async () => {
    const file = new HarFile(out);
    file.append(entry(1));
    disk.writev = fillsAfter(5);
    await expect(file.write()).rejects.toThrow(`cannot write ${out}: the disk is full`);
    expect(readdirSync(folder)).toEqual([]);
    expect(file.unwritten).toBe(1);
    expect(disk.opened).toBe(1);
    expect(disk.closed).toBe(1);
  });

  it('names the full disk as the reason even when the temporary file then fails to close', async () => {
    const file = await recordedTwo();
    disk.writev = fillsAfter(10);
    disk.close = async () => {
      throw Object.assign(new Error('EIO: i/o error, close'), { code: 'EIO' });
    };
    file.append(entry(3));
    await expect(file.close()).rejects.toThrow(`cannot write ${out}: the disk is full`);
    expect(ids()).toEqual([1, 2]);
    expect(disk.closed).toBe(disk.opened);
  });

  it('warns, keeps the entries waiting and writes them all once the disk has room again', async () => {
    const warnings: Error[] = [];
    const file = await recordedTwo((error) => warnings.push(error));
    disk.writev = fillsAfter(3);
    file.append(entry(3));
    await vi.waitUntil(() => warnings.length > 0);
    expect(warnings[0]?.message).toBe(`cannot write ${out}: the disk is full`);
    expect(ids()).toEqual([1, 2]);
    expect(file.unwritten).toBe(1);
    disk.writev = undefined;
    file.append(entry(4));
    await file.close();
    expect(ids()).toEqual([1, 2, 3, 4]);
    expect(file.unwritten).toBe(0);
  });

  it('writes the rest of a write the disk took in parts, so the file is whole', async () => {
    const file = await recordedTwo();
    // A slow disk: every write takes at most 7 bytes, never failing.
    disk.writev = (real, buffers, at) => real([Buffer.concat(buffers).subarray(0, 7)], at);
    for (const id of [3, 4, 5]) file.append(entry(id));
    await file.close();
    expect(ids()).toEqual([1, 2, 3, 4, 5]);
  });

  it('writes in parts the head and the entries of a recording rewritten in its form', async () => {
    const reformatted = {
      log: {
        version: '1.2',
        creator: { name: 'fake-marketing-server record' },
        entries: [entry(1)],
      },
    };
    const { writeFileSync } = await import('node:fs');
    writeFileSync(out, JSON.stringify(reformatted, null, 2));
    const file = new HarFile(out, await readPrevious(out));
    disk.writev = (real, buffers, at) => real([Buffer.concat(buffers).subarray(0, 5)], at);
    file.append(entry(2));
    await file.close();
    expect(ids()).toEqual([1, 2]);
  });

  it('fails a write the disk takes none of, rather than try it for ever', async () => {
    const file = await recordedTwo();
    const before = readFileSync(out, 'utf8');
    disk.writev = async () => ({ bytesWritten: 0, buffers: [] });
    file.append(entry(3));
    await expect(file.close()).rejects.toBeInstanceOf(HarWriteError);
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(file.unwritten).toBe(1);
  });

  it('keeps the file on disk when the temporary one fails to close, its data not all stored', async () => {
    const file = await recordedTwo();
    const before = readFileSync(out, 'utf8');
    disk.close = async () => {
      throw Object.assign(new Error('EIO: i/o error, close'), { code: 'EIO' });
    };
    file.append(entry(3));
    await expect(file.close()).rejects.toThrow(`cannot write ${out}: EIO: i/o error, close`);
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(file.unwritten).toBe(1);
    expect(temporaries()).toEqual([]);
  });
});
