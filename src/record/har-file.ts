import { open, rename, rm } from 'node:fs/promises';
import type { HarEntry } from '../control/har.js';
import { removeStaleTemporaries, temporaryFileOf } from '../files.js';
import { PACKAGE_VERSION } from '../version.js';

const TAIL = Buffer.from('\n]}}\n');
/** How soon after an exchange the file is written, at least. */
const MIN_DELAY_MS = 25;
/** At most: a long recording is written less often, never more than this late. */
const MAX_DELAY_MS = 1000;

/**
 * A HAR 1.2 file that is whole at every moment: each write goes to a temporary file that is then
 * renamed over the HAR, so a reader, Ctrl+C or a crash sees the file before or after an exchange,
 * never half of one. Entries are kept serialised in one growing buffer, so adding one costs its own
 * size on the event loop. Rewriting the whole file after every exchange would cost each exchange
 * the file's size in I/O, so exchanges are written in batches: 25 ms after the first one not yet
 * on disk, or twenty times as long as the last write took (a long recording spends at most a 20th of
 * its time writing), at most a second; `write()` (on close) writes at once.
 */
export class HarFile {
  private buffer: Buffer;
  private length: number;
  private count: number;
  private writing: Promise<void> | undefined;
  private pending = false;
  private timer: NodeJS.Timeout | undefined;
  private lastWriteMs = 0;

  /**
   * Starts a file with `previous` entries (a recording being continued) or none; `onError` hears
   * of a batch that could not be written (the next write tries again).
   */
  constructor(
    readonly path: string,
    previous: readonly unknown[] = [],
    private readonly onError: (error: Error) => void = () => {},
  ) {
    // A recording killed mid-write (kill -9) left its temporary file next to the HAR.
    removeStaleTemporaries(path);
    const head = `{"log":{"version":"1.2","creator":${JSON.stringify({
      name: 'fake-marketing-server record',
      version: PACKAGE_VERSION,
    })},"entries":[`;
    this.buffer = Buffer.alloc(64 * 1024);
    this.length = this.buffer.write(head);
    this.count = 0;
    for (const entry of previous) this.add(entry as HarEntry);
  }

  /** How many entries the file holds (once written). */
  get entries(): number {
    return this.count;
  }

  /** Adds one exchange; the file is written with the next batch. */
  append(entry: HarEntry): void {
    this.add(entry);
    if (this.timer !== undefined) return;
    const delay = Math.min(MAX_DELAY_MS, Math.max(MIN_DELAY_MS, this.lastWriteMs * 20));
    this.timer = setTimeout(() => {
      this.write().catch((error: unknown) => this.onError(error as Error));
    }, delay);
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
        await this.replace(this.buffer.subarray(0, this.length));
        this.lastWriteMs = performance.now() - started;
      } while (this.pending);
    } finally {
      this.writing = undefined;
    }
  }

  private add(entry: HarEntry): void {
    const text = `${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
    const needed = this.length + Buffer.byteLength(text);
    if (needed > this.buffer.length) {
      // A write under way keeps the old buffer alive through its subarray; bytes below `length`
      // are never changed, so it writes what it meant to.
      const bigger = Buffer.alloc(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(bigger, 0, 0, this.length);
      this.buffer = bigger;
    }
    this.length += this.buffer.write(text, this.length);
    this.count += 1;
  }

  private async replace(body: Buffer): Promise<void> {
    const temporary = temporaryFileOf(this.path);
    try {
      const handle = await open(temporary, 'w');
      try {
        await handle.writev([body, TAIL]);
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
