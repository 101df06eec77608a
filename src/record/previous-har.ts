import { createReadStream, existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { ownedByAnother, readTextFile } from '../files.js';
import { jsonDepthExceeds } from '../json-depth.js';
import { clearCookie, clearCredential } from './clear-credentials.js';
import { RecorderOptionError } from './recorder-error.js';

/** How every HAR the recorder writes begins, up to its creator. */
export const HAR_HEAD = '{"log":{"version":"1.2","creator":';
/** How it ends: each entry is one line between the head's line and this. */
export const HAR_TAIL = '\n]}}\n';
const CREATOR = 'fake-marketing-server record';
/** As replay reads a HAR: an entry's bodies are strings, so a HAR itself nests a few levels. */
const MAX_HAR_DEPTH = 100;

/**
 * What a recording being continued holds: a file the recorder wrote stays as it is (its entries
 * counted, its length known); one it wrote in another layout (reformatted) has its entries
 * rewritten in the recorder's form.
 */
export type Previous =
  | { readonly count: number; readonly length: number }
  | { readonly entries: readonly unknown[] };

/**
 * The recording at `out`, to continue it; none when there is no file. One the recorder wrote is
 * read a line (an entry) at a time, so that memory holds one entry whatever the file's length;
 * one it wrote in another layout is read whole. Throws RecorderOptionError for a file that is not
 * a HAR, or a HAR another tool wrote: it is never overwritten.
 */
export async function readPrevious(out: string): Promise<Previous> {
  if (!existsSync(out)) return { entries: [] };
  // In a shared folder a neighbour's recording can be at the name: continuing it would mix two
  // sessions, and a sticky folder keeps it theirs, so that no write could replace it.
  const stats = await stat(out);
  if (ownedByAnother(stats)) {
    throw new RecorderOptionError(
      `cannot write --out ${out}: it belongs to another user (uid ${stats.uid}); give an --out of your own.`,
    );
  }
  const ours = await ownRecording(out).catch((error: unknown) => {
    if (error instanceof RecorderOptionError) throw error;
    return undefined;
  });
  if (ours !== undefined) return ours;
  let har: { log?: { entries?: unknown; creator?: { name?: unknown } } } | undefined;
  try {
    const text = readTextFile(out);
    // Built whole, a text nested thousands deep takes tens of times its size: no HAR nests so.
    if (!jsonDepthExceeds(text, MAX_HAR_DEPTH)) har = JSON.parse(text) as typeof har;
  } catch {
    // Reported below: an unreadable or foreign file is never overwritten.
  }
  if (Array.isArray(har?.log?.entries)) {
    const creator = har.log.creator?.name;
    if (creator === CREATOR) {
      for (const [index, entry] of har.log.entries.entries()) {
        refuseClearCredentials(out, entry, index + 1);
      }
      return { entries: har.log.entries };
    }
    // A browser's or another tool's HAR holds Authorization headers, keys and cookies in clear:
    // continued, they would be kept under the recorder's name, which says the file holds none.
    throw new RecorderOptionError(
      `${out} is a HAR that fake-marketing-server record did not write (its creator is ${typeof creator === 'string' ? JSON.stringify(creator).slice(0, 100) : 'not named'}): its entries may hold keys, Authorization headers and cookies in clear, so it is not continued. Give another --out, or move the file away.`,
    );
  }
  throw new RecorderOptionError(
    `${out} exists and is not a HAR file: give another --out (it is never overwritten).`,
  );
}

/** The count and length of a HAR in the recorder's own form, or undefined for any other file. */
async function ownRecording(out: string): Promise<{ count: number; length: number } | undefined> {
  // Only a regular file is opened: opening a FIFO would wait for a writer for ever.
  if (!(await stat(out)).isFile()) return undefined;
  const handle = await open(out, 'r');
  let length: number;
  let tail: Buffer;
  try {
    length = (await handle.stat()).size;
    tail = Buffer.alloc(HAR_TAIL.length);
    await handle.read(tail, 0, tail.length, Math.max(0, length - tail.length));
  } finally {
    await handle.close();
  }
  if (tail.toString() !== HAR_TAIL) return undefined;
  // The head's line, then one entry a line, each but the last followed by a comma.
  let count = -1;
  let last: string | undefined;
  for await (const bytes of linesOf(out, length - HAR_TAIL.length - 1)) {
    const line = bytes.toString();
    if (count === -1 ? !isOwnHead(line) : last !== undefined && !isEntry(last, true, out, count))
      return undefined;
    if (count >= 0) last = line;
    count += 1;
  }
  if (count === -1 || (last !== undefined && !isEntry(last, false, out, count))) return undefined;
  return { count, length };
}

/** The lines of `file` up to byte `end` (included), one at a time, without their `\n`. */
async function* linesOf(file: string, end: number): AsyncGenerator<Buffer> {
  let pieces: Buffer[] = [];
  for await (const chunk of createReadStream(file, { end }) as AsyncIterable<Buffer>) {
    let from = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
      pieces.push(chunk.subarray(from, newline));
      yield Buffer.concat(pieces);
      pieces = [];
      from = newline + 1;
    }
    pieces.push(chunk.subarray(from));
  }
  yield Buffer.concat(pieces);
}

function isOwnHead(line: string): boolean {
  if (!line.startsWith(HAR_HEAD)) return false;
  try {
    const har = JSON.parse(`${line}]}}`) as { log?: { creator?: { name?: unknown } } };
    return har.log?.creator?.name === CREATOR;
  } catch {
    return false;
  }
}

/** Whether a line is one entry; throws for an entry that holds a credential in clear. */
function isEntry(line: string, comma: boolean, out: string, number: number): boolean {
  if (comma !== line.endsWith(',')) return false;
  let value: unknown;
  try {
    value = JSON.parse(comma ? line.slice(0, -1) : line);
  } catch {
    return false;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  refuseClearCredentials(out, value, number);
  return true;
}

/**
 * The recorder writes every credential redacted (`Basic <redacted>`, `a=<redacted>`), both ways,
 * and no `cookies` array items: one in clear was put in the file since, by hand or by another
 * tool (a browser's login entry), and continuing the file would keep it under the recorder's
 * name, which says the file holds none.
 */
function refuseClearCredentials(out: string, entry: unknown, number: number): void {
  for (const side of ['request', 'response'] as const) {
    const message = (entry as Record<string, unknown> | null)?.[side] as
      | { headers?: unknown; cookies?: unknown }
      | undefined;
    const clear = clearCredential(message?.headers) ?? clearCookie(message?.cookies);
    if (clear !== undefined)
      throw new RecorderOptionError(
        `${out} holds a ${clear} in clear in entry ${number}: the recorder writes none, so the file was changed since it wrote it, and it is not continued. Give another --out, or move the file away.`,
      );
  }
}
