/**
 * Reading a JSON object from a file (a seed, a state file) in bounded memory: judged by its first
 * bytes before anything else is read, and past {@link WHOLE_READ_BYTES} parsed as it is read, so
 * that a file longer than the longest string V8 holds (a state past 512 MiB, which the fake saves
 * in pieces) loads all the same, and a file that is no JSON object costs nothing to refuse.
 */
import { closeSync, constants as fs, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { jsonDepthExceeds } from './json-depth.js';
import {
  describeByte,
  isWhitespace,
  JsonFileError,
  MAX_DEPTH,
  streamParse,
  TOO_DEEP,
} from './json-stream-parse.js';

export { JsonFileError } from './json-stream-parse.js';

/** How much of a file's start is read to judge it: a JSON object begins with `{` there. */
export const HEAD_BYTES = 64 * 1024;
/**
 * Files up to this long are read whole and given to `JSON.parse` (fastest); longer ones are
 * parsed as they are read, and never held whole. As much as the control API takes in one seed.
 */
export const WHOLE_READ_BYTES = 64 * 1024 * 1024;
/**
 * The JSON object in `file`. Throws JsonFileError (see its `kind`) for a file that cannot be
 * read, one whose first {@link HEAD_BYTES} show no `{` first (judged from them alone), and one
 * that is not valid JSON or nests deeper than {@link MAX_DEPTH}. `options` lowers the bounds, for
 * tests.
 */
export function readJsonObjectFile(
  file: string,
  options: {
    headBytes?: number;
    wholeReadBytes?: number;
    chunkBytes?: number;
    maxTokenBytes?: number;
  } = {},
): Record<string, unknown> {
  let descriptor: number;
  try {
    // Non-blocking: opening a FIFO with no writer would wait for ever; it is refused below.
    descriptor = openSync(file, fs.O_RDONLY | fs.O_NONBLOCK);
  } catch (error) {
    throw new JsonFileError((error as Error).message, 'unreadable');
  }
  try {
    const stats = fstatSync(descriptor);
    // A device (`/dev/zero`), a FIFO or a socket given by mistake may never end.
    if (!stats.isFile())
      throw new JsonFileError(
        'it is not a regular file (a device, a FIFO, a socket or a folder)',
        'unreadable',
      );
    const head = Buffer.alloc(Math.min(options.headBytes ?? HEAD_BYTES, stats.size));
    const got = readFully(descriptor, head, 0);
    const first = head.subarray(0, got).findIndex((byte) => !isWhitespace(byte));
    if (first === -1 || head[first] !== OPEN_OBJECT)
      throw new JsonFileError(
        first === -1
          ? got === 0
            ? 'it is empty'
            : `its first ${got} bytes are blank`
          : `it begins with ${describeByte(head[first]!)} (at byte ${first}), not "{"`,
        'not-object',
      );
    if (stats.size <= (options.wholeReadBytes ?? WHOLE_READ_BYTES)) {
      // The rest from where the head ended; decoded together, so no character is cut in two.
      const text = Buffer.concat([head.subarray(0, got), readFileSync(descriptor)]).toString(
        'utf8',
      );
      // Before JSON.parse, which would build every level: a 60 MB file of `[` takes gigabytes.
      if (jsonDepthExceeds(text, MAX_DEPTH)) throw new JsonFileError(TOO_DEEP, 'too-deep');
      try {
        return JSON.parse(text);
      } catch (error) {
        throw new JsonFileError((error as Error).message, 'invalid');
      }
    }
    return streamParse(descriptor, head.subarray(0, got), options);
  } catch (error) {
    if (error instanceof JsonFileError) throw error;
    throw new JsonFileError((error as Error).message, 'unreadable');
  } finally {
    closeSync(descriptor);
  }
}

/** Reads into `buffer` from the descriptor's position until it is full or the file ends. */
function readFully(descriptor: number, buffer: Buffer, from: number): number {
  let at = from;
  while (at < buffer.length) {
    const read = readSync(descriptor, buffer, at, buffer.length - at, null);
    if (read === 0) break;
    at += read;
  }
  return at;
}

const OPEN_OBJECT = 0x7b;
