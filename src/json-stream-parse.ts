/**
 * The JSON object of a file parsed as it is read, in chunks (json-file.ts reads a long file so):
 * what `JSON.parse` of its text gives, in the memory of the value built, never of the text.
 */
import { readSync } from 'node:fs';

/** A file that holds no JSON object: the message says why (and where, past the first bytes). */
export class JsonFileError extends Error {
  override name = 'JsonFileError';
  /**
   * `unreadable`: no file, no right, not a regular file. `not-object`: its first bytes show it
   * is no JSON object (judged before the rest is read). `invalid`: not valid JSON further on.
   * `too-deep`: its arrays and objects nest deeper than {@link MAX_DEPTH}.
   */
  constructor(
    message: string,
    readonly kind: 'unreadable' | 'not-object' | 'invalid' | 'too-deep',
  ) {
    super(message);
  }
}

/**
 * The longest string or number a streamed file may hold, in bytes: no seed the control API
 * takes holds a longer one (its body limit), and an unterminated string is refused at this bound
 * instead of being gathered to the end of the file.
 */
export const MAX_TOKEN_BYTES = 64 * 1024 * 1024;
/**
 * The deepest a file's arrays and objects may nest: far past any seed (6 levels), and the bound
 * the journal, replay and verify put on a JSON body. Each level costs memory while it is read
 * (`[` alone, 1 byte of file, took some 50 bytes: a 68 MB file of them ran out of memory), so a
 * deeper file is refused where it passes the bound, before anything deeper is built.
 */
export const MAX_DEPTH = 100;
/** Why a file nested past {@link MAX_DEPTH} is refused. */
export const TOO_DEEP = `its arrays and objects nest deeper than ${MAX_DEPTH} levels`;
/** How much is read at a time while streaming. */
const CHUNK_BYTES = 4 * 1024 * 1024;

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** JSON's four whitespace bytes. */
export function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** The bytes a JSON number may be made of; `JSON.parse` judges their order. */
function isNumberByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    byte === 0x2d ||
    byte === 0x2b ||
    byte === 0x2e ||
    byte === 0x65 ||
    byte === 0x45
  );
}

export function describeByte(byte: number): string {
  return byte >= 0x21 && byte <= 0x7e
    ? JSON.stringify(String.fromCharCode(byte))
    : `the byte 0x${byte.toString(16).padStart(2, '0')}`;
}

/** What the parser wants next. */
const Want = {
  /** A value (after `:` or `,` in an array). */
  Value: 0,
  /** A value or `]` (just after `[`). */
  ValueOrEnd: 1,
  /** A key or `}` (just after `{`). */
  KeyOrEnd: 2,
  /** A key (after `,` in an object). */
  Key: 3,
  Colon: 4,
  /** `,` or the end of the container. */
  CommaOrEnd: 5,
  /** Nothing but whitespace: the object is whole. */
  Nothing: 6,
} as const;
type Want = (typeof Want)[keyof typeof Want];

type Frame =
  | { readonly array: false; readonly value: Record<string, unknown>; key: string }
  | { readonly array: true; readonly value: unknown[] };

/** What JSON never holds raw in a string. */
const CONTROL = /[\u0000-\u001f]/;
/** A JSON integer that `Number` reads exactly as JSON.parse does. */
const SAFE_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;

/** The literals by their first byte. */
const LITERALS = new Map<number, readonly [string, unknown]>([
  [0x74, ['true', true]],
  [0x66, ['false', false]],
  [0x6e, ['null', null]],
]);

/**
 * Parses the JSON object of a file as it is read, in chunks: exactly what `JSON.parse` of its
 * text would give (strings and numbers are each decoded by `JSON.parse`, objects are built with
 * own data properties, `__proto__` included), or a JsonFileError naming the byte where it stops
 * being JSON. Memory is the value built, never the file's text.
 */
export function streamParse(
  descriptor: number,
  head: Buffer,
  options: { chunkBytes?: number; maxTokenBytes?: number },
): Record<string, unknown> {
  const maxToken = options.maxTokenBytes ?? MAX_TOKEN_BYTES;
  const stack: Frame[] = [];
  let root: Record<string, unknown> | undefined;
  let want: Want = Want.Value;
  /** Bytes of the file before the chunk being read. */
  let offset = 0;
  // The token being read, which may span chunks: its kind, its bytes so far.
  let token: 'string' | 'number' | 'literal' | undefined;
  let parts: Buffer[] = [];
  let tokenBytes = 0;
  let escaped = false;
  /** Whether the string being read has an escape: else its bytes are its text. */
  let hasEscape = false;
  let literal: readonly [string, unknown] = ['', null];
  let literalAt = 0;

  const fail = (at: number, why: string): never => {
    throw new JsonFileError(`at byte ${at}: ${why}`, 'invalid');
  };
  const keep = (piece: Buffer, at: number) => {
    tokenBytes += piece.length;
    if (tokenBytes > maxToken)
      fail(
        at,
        `a string or number goes on past ${maxToken} bytes, the longest a file read in pieces may hold`,
      );
    parts.push(piece);
  };
  const text = () => {
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    parts = [];
    tokenBytes = 0;
    return bytes.toString('utf8');
  };
  /** A whole value read: it goes where the container (or the top) wants it. */
  const put = (value: unknown) => {
    const top = stack.at(-1);
    if (top === undefined) {
      root = value as Record<string, unknown>;
      want = Want.Nothing;
    } else if (top.array) {
      top.value.push(value);
      want = Want.CommaOrEnd;
    } else {
      setOwn(top.value, top.key, value);
      want = Want.CommaOrEnd;
    }
  };
  const endString = (at: number) => {
    let value = text();
    try {
      // The common string (no escape, no control character) is its bytes; JSON.parse judges
      // the others.
      if (hasEscape || CONTROL.test(value)) value = JSON.parse(`"${value}"`) as string;
    } catch (error) {
      return fail(at, `a string that is not valid JSON ends here (${(error as Error).message})`);
    }
    token = undefined;
    const top = stack.at(-1);
    if ((want === Want.Key || want === Want.KeyOrEnd) && top !== undefined && !top.array) {
      top.key = value;
      want = Want.Colon;
    } else put(value);
  };
  const endNumber = (at: number) => {
    const source = text();
    token = undefined;
    let value: number;
    try {
      value = SAFE_INTEGER.test(source) ? Number(source) : (JSON.parse(source) as number);
    } catch {
      return fail(
        at,
        `${JSON.stringify(source.slice(0, 40))}, which ends here, is not a JSON number`,
      );
    }
    put(value);
  };

  const feed = (chunk: Buffer) => {
    const length = chunk.length;
    let i = 0;
    // Where the next quote and backslash are in this chunk (-1: none left); kept while ahead of
    // `i`, so a string full of escapes is still scanned once.
    let quote = -2;
    let backslash = -2;
    while (i < length) {
      if (token === 'string') {
        const start = i;
        for (;;) {
          if (escaped) {
            if (i >= length) break;
            i += 1;
            escaped = false;
            continue;
          }
          if (quote !== -1 && quote < i) quote = chunk.indexOf(QUOTE, i);
          if (backslash !== -1 && backslash < i) backslash = chunk.indexOf(BACKSLASH, i);
          if (backslash !== -1 && (quote === -1 || backslash < quote)) {
            i = backslash + 1;
            escaped = true;
            hasEscape = true;
            continue;
          }
          if (quote === -1) {
            i = length;
            break;
          }
          i = quote;
          break;
        }
        if (i >= length) {
          // Copied: the chunk's buffer is read into again.
          keep(Buffer.from(chunk.subarray(start, length)), offset + start);
          return;
        }
        keep(chunk.subarray(start, i), offset + start);
        endString(offset + i);
        i += 1;
        continue;
      }
      if (token === 'number') {
        const start = i;
        while (i < length && isNumberByte(chunk[i]!)) i += 1;
        if (i >= length) {
          keep(Buffer.from(chunk.subarray(start, length)), offset + start);
          return;
        }
        keep(chunk.subarray(start, i), offset + start);
        endNumber(offset + i);
        continue;
      }
      if (token === 'literal') {
        const [word, value] = literal;
        while (i < length && literalAt < word.length) {
          if (chunk[i] !== word.charCodeAt(literalAt))
            fail(offset + i, `${describeByte(chunk[i]!)} is not JSON`);
          i += 1;
          literalAt += 1;
        }
        if (literalAt < word.length) return;
        token = undefined;
        put(value);
        continue;
      }
      // Whitespace in one tight loop: a file of gigabytes of it is read at disk speed.
      while (i < length && isWhitespace(chunk[i]!)) i += 1;
      if (i >= length) return;
      const byte = chunk[i]!;
      const at = offset + i;
      switch (want) {
        case Want.Nothing:
          return fail(at, `${describeByte(byte)} follows the JSON object`);
        case Want.Colon:
          if (byte !== COLON) fail(at, `${describeByte(byte)} where ":" was wanted`);
          want = Want.Value;
          i += 1;
          continue;
        case Want.CommaOrEnd: {
          const top = stack.at(-1)!;
          if (byte === COMMA) want = top.array ? Want.Value : Want.Key;
          else if (byte === (top.array ? CLOSE_ARRAY : CLOSE_OBJECT)) {
            stack.pop();
            put(top.value);
          } else
            fail(at, `${describeByte(byte)} where "," or "${top.array ? ']' : '}'}" was wanted`);
          i += 1;
          continue;
        }
        case Want.KeyOrEnd:
        case Want.Key:
          if (byte === QUOTE) {
            token = 'string';
            hasEscape = false;
            i += 1;
            continue;
          }
          if (want === Want.KeyOrEnd && byte === CLOSE_OBJECT) {
            const top = stack.pop()!;
            put(top.value);
            i += 1;
            continue;
          }
          return fail(at, `${describeByte(byte)} where a key (a string) was wanted`);
        case Want.ValueOrEnd:
        case Want.Value:
          if (want === Want.ValueOrEnd && byte === CLOSE_ARRAY) {
            const top = stack.pop()!;
            put(top.value);
            i += 1;
            continue;
          }
          i += 1;
          if ((byte === OPEN_OBJECT || byte === OPEN_ARRAY) && stack.length === MAX_DEPTH)
            throw new JsonFileError(`${TOO_DEEP} (at byte ${at})`, 'too-deep');
          if (byte === OPEN_OBJECT) {
            stack.push({ array: false, value: {}, key: '' });
            want = Want.KeyOrEnd;
          } else if (byte === OPEN_ARRAY) {
            stack.push({ array: true, value: [] });
            want = Want.ValueOrEnd;
          } else if (byte === QUOTE) {
            token = 'string';
            hasEscape = false;
          } else if (byte === 0x2d || (byte >= 0x30 && byte <= 0x39)) {
            token = 'number';
            i -= 1;
          } else if (LITERALS.has(byte)) {
            token = 'literal';
            literal = LITERALS.get(byte)!;
            literalAt = 1;
          } else fail(at, `${describeByte(byte)} where a value was wanted`);
          continue;
      }
    }
  };

  feed(head);
  offset = head.length;
  const chunk = Buffer.alloc(options.chunkBytes ?? CHUNK_BYTES);
  for (;;) {
    const read = readSync(descriptor, chunk, 0, chunk.length, null);
    if (read === 0) break;
    feed(chunk.subarray(0, read));
    offset += read;
  }
  // A number can end with the file only at the top, which is an object here: never.
  if (root === undefined || token !== undefined)
    throw new JsonFileError(`it ends (at byte ${offset}) before its JSON object does`, 'invalid');
  return root;
}

/** `object[key] = value` as `JSON.parse` sets it: an own data property, `__proto__` too. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else object[key] = value;
}
