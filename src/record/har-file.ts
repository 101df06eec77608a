import { constants, existsSync } from 'node:fs';
import { copyFile, type FileHandle, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  PRIVATE_FILE_MODE,
  removeStaleTemporaries,
  unguessableTemporaryOf,
  writeFailure,
} from '../files.js';
import type { HarEntry } from '../journal/har.js';
import { PACKAGE_VERSION } from '../version.js';
import { HAR_HEAD, HAR_TAIL, type Previous } from './previous-har.js';

/** How soon after an exchange the file is written, at least. */
const MIN_DELAY_MS = 25;
/** At most: a long recording is written less often, never more than this late. */
const MAX_DELAY_MS = 1000;
/** While writes fail, how often the batch is tried again (the disk may come back). */
const RETRY_DELAY_MS = 1000;
/**
 * The most bytes of entries kept waiting for the next write: there the file is written at once,
 * and an exchange waits for {@link HarFile.room} before its entry is made.
 */
export const MAX_UNWRITTEN_BYTES = 32 * 1024 * 1024;

const head = () =>
  `${HAR_HEAD}${JSON.stringify({ name: 'fake-marketing-server record', version: PACKAGE_VERSION })},"entries":[`;
const TAIL = Buffer.from(HAR_TAIL);
const FIRST = Buffer.from('\n');
const NEXT = Buffer.from(',\n');
/**
 * The temporary file is made afresh (never a file or link already at its name, which a neighbour
 * in a shared folder could have planted to have the HAR written through it) and never followed.
 */
const { O_CREAT, O_EXCL, O_NOFOLLOW = 0, O_RDWR } = constants;
const CREATE = O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW;
const REOPEN = O_RDWR | O_NOFOLLOW;
const COPY = constants.COPYFILE_EXCL | constants.COPYFILE_FICLONE;

/** A write of the HAR that failed; the message names the file and why, in words. */
export class HarWriteError extends Error {
  override name = 'HarWriteError';

  constructor(
    readonly path: string,
    /** Why, in words ("the disk is full"). */
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`cannot write ${path}: ${reason}`, options);
  }
}

/**
 * A HAR 1.2 file that is whole at every moment: each write goes to a temporary file that is then
 * renamed over the HAR, so a reader, Ctrl+C or a crash sees the file before or after an exchange,
 * never half of one. Only the entries not yet on disk are kept, serialised one a line: a write
 * copies the file on disk to the temporary one (in the kernel: `copy_file_range`, or a reflink
 * where the file system has them), writes the new entries and the tail over the old tail, and
 * renames it, so memory holds one batch however long the recording. Copying the file costs each
 * write the file's size in I/O, so exchanges are written in batches: 25 ms after the first one not
 * yet on disk, or twenty times as long as the last write took (a long recording spends at most a
 * 20th of its time writing), at most a second; at once when the batch reaches
 * {@link MAX_UNWRITTEN_BYTES} (large answers are written as they come). `write()` (on close) writes at once.
 * The file holds the session's bodies: it is its owner's alone (0600), whatever mode it had.
 */
export class HarFile {
  /** Serialised entries, each after its separator. */
  private batch: Buffer[] = [];
  private batchBytes = 0;
  /** The bytes of the batch a write has taken, until it is on disk or back in the batch. */
  private writingBytes = 0;
  private count = 0;
  /** The file's length on disk, its tail included; undefined until the first write. */
  private length: number | undefined;
  /** A recording that is not ours, rewritten in our form by the first write. */
  private foreign: readonly unknown[] = [];
  private writing: Promise<void> | undefined;
  private pending = false;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteMs = 0;
  private waiters: Array<() => void> = [];
  /** Why the last write failed; undefined once one succeeds. */
  private failure: HarWriteError | undefined;
  /** Set by {@link close}: no write is tried again after it. */
  private closing = false;

  /**
   * Starts a file that continues `previous` (what {@link readPrevious} found at `path`), or an
   * empty one; `onError` hears of a batch that could not be written (the next write tries again).
   */
  constructor(
    readonly path: string,
    previous: Previous = { entries: [] },
    private readonly onError: (error: Error) => void = () => {},
  ) {
    // A recording killed mid-write (kill -9) left its temporary file next to the HAR.
    removeStaleTemporaries(path);
    if ('entries' in previous) {
      this.foreign = previous.entries;
      this.count = previous.entries.length;
    } else {
      this.count = previous.count;
      this.length = previous.length;
    }
  }

  /** How many entries the file holds (once written). */
  get entries(): number {
    return this.count;
  }

  /**
   * Resolves when the batch has room for another entry: at once under {@link
   * MAX_UNWRITTEN_BYTES}, else when the batch has been written (or its write failed, so that the
   * exchanges waiting go on rather than wait for a disk that may never come back).
   */
  room(): Promise<void> {
    if (this.held < MAX_UNWRITTEN_BYTES) return Promise.resolve();
    const room = new Promise<void>((resolve) => this.waiters.push(resolve));
    // The batch is full and kept after a failed write: a write is what frees the waiters, so one
    // is started if none is under way (else they would wait for an exchange that never comes).
    if (this.writing === undefined) this.writeInBackground();
    return room;
  }

  /**
   * Why no more exchange can be taken, or undefined while one can: writes fail and the entries
   * waiting for them reach {@link MAX_UNWRITTEN_BYTES}, so that memory stays bounded.
   */
  get refusal(): HarWriteError | undefined {
    return this.held >= MAX_UNWRITTEN_BYTES ? this.failure : undefined;
  }

  /**
   * The bytes that count against the bound: the batch, and while writes fail also the batch a
   * write has taken (a failed write puts it back: without it, each try of a failing disk would let
   * one more batch in).
   */
  private get held(): number {
    return this.failure === undefined ? this.batchBytes : this.batchBytes + this.writingBytes;
  }

  /** How many entries wait in memory for a write. */
  get unwritten(): number {
    return this.batch.length / 2;
  }

  /** Adds one exchange; the file is written with the next batch, at once when it is full. */
  append(entry: HarEntry): void {
    // The separator apart: prefixing it would copy the whole serialised entry once more.
    this.add(this.count === 0 ? FIRST : NEXT, Buffer.from(JSON.stringify(entry)));
    if (this.batchBytes >= MAX_UNWRITTEN_BYTES) {
      this.writeInBackground();
    } else if (this.timer === undefined) {
      const delay = Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, this.lastWriteMs * 20));
      this.timer = setTimeout(() => this.writeInBackground(), delay);
    }
  }

  /**
   * The last write: waits for one under way, then writes what is left, and never tries again
   * after it. Rejects with {@link HarWriteError} when the entries left cannot be written.
   */
  async close(): Promise<void> {
    this.closing = true;
    await this.writing?.catch(() => undefined);
    await this.write();
  }

  /**
   * A write no caller waits for: a failure is reported to `onError` and the batch tried again a
   * second later, so that recording goes on when the disk comes back even if no exchange comes.
   */
  private writeInBackground(): void {
    this.write().catch((error: unknown) => {
      this.onError(error as Error);
      if (!this.closing && this.batch.length > 0 && this.timer === undefined) {
        this.timer = setTimeout(() => this.writeInBackground(), RETRY_DELAY_MS);
      }
    });
  }

  /** Writes the file as it stands now; resolves when every entry added so far is on disk. */
  write(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) {
      this.pending = true;
      return this.writing;
    }
    this.writing = this.writeUntilCurrent();
    return this.writing;
  }

  private async writeUntilCurrent(): Promise<void> {
    try {
      do {
        this.pending = false;
        const started = performance.now();
        try {
          await this.writeBatch();
        } finally {
          for (const resolve of this.waiters.splice(0)) resolve();
        }
        this.lastWriteMs = performance.now() - started;
      } while (this.pending);
    } finally {
      this.writing = undefined;
    }
  }

  private add(separator: Buffer, serialised: Buffer): void {
    this.batch.push(separator, serialised);
    this.batchBytes += separator.length + serialised.length;
    this.count += 1;
  }

  /** Writes the batch: the file on disk copied, the batch and the tail after its entries. */
  private async writeBatch(): Promise<void> {
    if (this.length !== undefined && this.batch.length === 0) return;
    const batch = this.batch;
    const bytes = this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    this.writingBytes = bytes;
    const temporary = unguessableTemporaryOf(this.path);
    try {
      const fresh = this.length === undefined;
      // FICLONE shares the blocks where the file system can; elsewhere the kernel copies them.
      // EXCL: the copy is a new file (O_EXCL), never one already there nor a link's target.
      if (!fresh) await copyFile(this.path, temporary, COPY);
      const handle = await (fresh
        ? open(temporary, CREATE, PRIVATE_FILE_MODE)
        : open(temporary, REOPEN));
      let at: number;
      try {
        at = await this.fill(handle, batch);
      } catch (error) {
        // Closed all the same; the failure that says why ("the disk is full") is the write's.
        await handle.close().catch(() => undefined);
        throw error;
      }
      // A file system that stores data late (NFS) reports its failure here: checked too.
      await handle.close();
      await rename(temporary, this.path);
      this.length = at;
      this.foreign = [];
      this.failure = undefined;
      this.writingBytes = 0;
    } catch (error) {
      this.batch = [...batch, ...this.batch];
      this.batchBytes += bytes;
      this.writingBytes = 0;
      await rm(temporary, { force: true }).catch(() => undefined);
      this.failure = new HarWriteError(this.path, this.reasonOf(error), { cause: error });
      throw this.failure;
    }
  }

  /** Writes the batch and the tail into the temporary file (a copy or new); returns its length. */
  private async fill(handle: FileHandle, batch: readonly Buffer[]): Promise<number> {
    let at: number;
    if (this.length === undefined) {
      at = await this.writeStart(handle);
    } else {
      // The copy took the HAR's mode: one written before this version may be 0644.
      await handle.chmod(PRIVATE_FILE_MODE);
      at = this.length - TAIL.length;
    }
    return writeAll(handle, [...batch, TAIL], at);
  }

  private reasonOf(error: unknown): string {
    // The copy's source is the HAR: ENOENT then says it went, not that no file can be made.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && this.length !== undefined) {
      const folderThere = existsSync(dirname(this.path));
      if (folderThere && !existsSync(this.path)) return 'it is no longer there (moved or removed)';
    }
    return writeFailure(error, this.path);
  }

  /**
   * The head and the entries of a recording that was not ours, one at a time (a recording being
   * continued can be large); returns where the batch goes.
   */
  private async writeStart(handle: FileHandle): Promise<number> {
    let at = await writeAll(handle, [Buffer.from(head())], 0);
    for (const [index, entry] of this.foreign.entries()) {
      const line = [index === 0 ? FIRST : NEXT, Buffer.from(JSON.stringify(entry))];
      at = await writeAll(handle, line, at);
    }
    return at;
  }
}

/**
 * Writes every byte of `buffers` at `at` and returns where they end. A disk that fills up takes
 * the room it has left and says so only at the next write: renaming a file with the rest missing
 * would put a truncated HAR in place of a whole one, so what a write did not take is written again.
 */
async function writeAll(
  handle: FileHandle,
  buffers: readonly Buffer[],
  at: number,
): Promise<number> {
  let rest = buffers;
  let position = at;
  while (rest.length > 0) {
    const { bytesWritten } = await handle.writev(rest, position);
    // Trying again a write that took nothing could go on for ever.
    if (bytesWritten === 0) throw new Error('the file took none of the bytes written to it');
    position += bytesWritten;
    rest = after(rest, bytesWritten);
  }
  return position;
}

/** What is left of `buffers` once their first `count` bytes are written. */
function after(buffers: readonly Buffer[], count: number): Buffer[] {
  let skip = count;
  let index = 0;
  while (index < buffers.length && skip >= (buffers[index] as Buffer).length) {
    skip -= (buffers[index] as Buffer).length;
    index += 1;
  }
  const rest = buffers.slice(index);
  if (skip > 0) rest[0] = (rest[0] as Buffer).subarray(skip);
  return rest;
}
