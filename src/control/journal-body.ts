import { isUtf8 } from 'node:buffer';

/** A body over the limit: a copy of its first bytes, and what the whole was. */
export class CutBody {
  constructor(
    readonly data: Buffer,
    readonly size: number,
    readonly binary: boolean,
  ) {}
}

/** A body kept whole (by reference: it holds no more than the limit), else a {@link CutBody}. */
export type Kept = string | Buffer | CutBody | undefined;

/**
 * The body as the journal keeps it, holding at most `limit` bytes: the reference itself when the
 * memory behind it is within the limit (recording allocates nothing for the usual small body),
 * else a copy of what is kept, in memory of its own, never a view that would hold on to the
 * whole body. Only the kept prefix is copied.
 */
export function keep(data: string | Buffer | undefined, limit: number): Kept {
  if (data === undefined || data.length === 0) return undefined;
  if (typeof data === 'string') {
    // A string's length in bytes is at most three times its length in UTF-16 units.
    if (data.length * 3 <= limit) return data;
    const size = Buffer.byteLength(data);
    if (size <= limit) return data;
    const prefix = Buffer.allocUnsafeSlow(limit);
    // Whole characters only: write() stops before a character that does not fit.
    const written = prefix.write(data.slice(0, limit));
    return new CutBody(written === limit ? prefix : copy(prefix, written), size, false);
  }
  if (data.length <= limit) return data.buffer.byteLength <= limit ? data : copy(data, data.length);
  return new CutBody(copy(data, limit), data.length, !isUtf8(data));
}

/** The first `length` bytes in a buffer of their own (not a slice of Node's shared pool). */
function copy(data: Buffer, length: number): Buffer {
  const own = Buffer.allocUnsafeSlow(length);
  data.copy(own, 0, 0, length);
  return own;
}
