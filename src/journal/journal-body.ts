// Imported, not the global: Node's global `Buffer` is a getter, read on every recorded body.
import { Buffer, isUtf8 } from 'node:buffer';
import { Recent, recentTexts } from './recent.js';

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
  const binary = !isUtf8(data);
  return new CutBody(copy(data, binary ? limit : characterStart(data, limit)), data.length, binary);
}

/** The longest body {@link RecentBodies} compares: a small answer repeated, never a large one. */
export const RECENT_BODY_LIMIT = 4096;

/** How many distinct bodies of each kind {@link RecentBodies} remembers. */
const RECENT_BODIES = 4;

/**
 * The bodies kept last, so that a body equal to one of them is kept as that one: a client sends
 * the same body again and again, and the fake answers the same. The journal then holds one old
 * copy instead of a young one per entry, which the garbage collector would copy while the entry
 * lives. Only bodies kept already are remembered (each within the journal's limit, never changed
 * once kept), and only small ones.
 */
export class RecentBodies {
  private readonly texts = recentTexts(RECENT_BODIES);
  private readonly buffers = new Recent<Buffer>(RECENT_BODIES, (kept, body) => kept.equals(body));

  intern(kept: Kept): Kept {
    // Stryker disable next-line ConditionalExpression,StringLiteral,BlockStatement,EqualityOperator: equivalent: which of two equal strings is kept cannot be seen from JavaScript (journal/recent.ts); the Buffer branch below is tested
    if (typeof kept === 'string') {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: the same, for the string bound
      return kept.length <= RECENT_BODY_LIMIT ? this.texts.intern(kept) : kept;
    }
    return Buffer.isBuffer(kept) && kept.length <= RECENT_BODY_LIMIT
      ? this.buffers.intern(kept)
      : kept;
  }
}

/**
 * The start of the character at byte `at` of valid UTF-8 text (the caller checks it): `at`
 * itself, or up to 3 bytes before when a character straddles it. A text cut there keeps whole
 * characters, never a split one that would read back as U+FFFD (3 bytes, past the limit). Valid
 * UTF-8 never starts with a continuation byte and has at most three in a row, so the walk back
 * needs no bound of its own.
 */
function characterStart(text: Buffer, at: number): number {
  let start = at;
  // 0b10xxxxxx: a continuation byte, inside a character that began before it.
  while ((text[start]! & 0xc0) === 0x80) start -= 1;
  return start;
}

/** The first `length` bytes in a buffer of their own (not a slice of Node's shared pool). */
function copy(data: Buffer, length: number): Buffer {
  const own = Buffer.allocUnsafeSlow(length);
  data.copy(own, 0, 0, length);
  return own;
}

/**
 * How deep a recorded JSON body may nest to be shown parsed. Deeper, every reader that walks it
 * recursively (`JSON.stringify`, the body filters, the HAR) would overflow the stack, so it is
 * shown as text. The API's own bodies nest a few levels.
 */
export const MAX_SHOWN_DEPTH = 100;
