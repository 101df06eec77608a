import { open, rename, rm } from 'node:fs/promises';
import type { HarEntry } from '../control/har.js';
import { PACKAGE_VERSION } from '../version.js';

const TAIL = Buffer.from('\n]}}\n');

/**
 * A HAR 1.2 file that is whole at every moment: each write goes to a temporary file that is then
 * renamed over the HAR, so a reader, Ctrl+C or a crash sees the file before or after an exchange,
 * never half of one. Entries are kept serialised in one growing buffer, so adding one costs its own
 * size on the event loop; writes run one at a time and a write that was asked for while another
 * ran covers every entry added meanwhile.
 */
export class HarFile {
  private buffer: Buffer;
  private length: number;
  private count: number;
  private writing: Promise<void> | undefined;
  private pending = false;
  private failure: Error | undefined;

  /** Starts a file with `previous` entries (a recording being continued) or none. */
  constructor(
    readonly path: string,
    previous: readonly unknown[] = [],
  ) {
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

  /** Adds one exchange and writes the file (now, or right after the write under way). */
  append(entry: HarEntry): Promise<void> {
    this.add(entry);
    return this.write();
  }

  /** Writes the file as it stands; resolves when every entry added so far is on disk. */
  write(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
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
        await this.replace(this.buffer.subarray(0, this.length));
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
    const temporary = `${this.path}.${process.pid}.tmp`;
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
      this.failure = error as Error;
      throw error;
    }
  }
}
