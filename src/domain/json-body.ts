import { isUtf8 } from 'node:buffer';
import { ApiError } from './errors.js';

/**
 * Reads a JSON request body, for the emulated API and the control API alike.
 *
 * - Bytes that are not UTF-8 are refused (400), as ASP.NET's input formatters do (a UTF-8
 *   decoder that throws on invalid bytes), rather than stored as U+FFFD.
 * - A name given twice in one object is refused (400): the service's JSON readers would keep the
 *   last value, and a client that sends two values has a bug that would go unnoticed.
 * - `__proto__` and `constructor` are ordinary names: `JSON.parse` makes them own data
 *   properties and never touches a prototype; every reader walks bodies by their own keys
 *   (`Object.entries`, Maps), never by assigning into another object. So state the fake accepted,
 *   such as a custom field named `__proto__`, can be exported and seeded back.
 * - A UTF-8 byte order mark is skipped, as .NET's readers do.
 */
export function parseJsonBody(bytes: Buffer): unknown {
  if (bytes.length === 0) {
    throw new ApiError('INVALID_BODY', {
      detail: 'The body is empty but Content-Type is JSON; send a JSON object.',
    });
  }
  if (!isUtf8(bytes)) malformed('the bytes are not valid UTF-8 text.');
  return parseJsonText(bytes.toString('utf8'));
}

/**
 * {@link parseJsonBody} on text already decoded from UTF-8 (the journal's kept bodies): the same
 * rules, so that the journal shows a body parsed exactly when the API read it as JSON.
 */
export function parseJsonText(decoded: string): unknown {
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return malformed((error as Error).message);
  }
  const repeated = firstRepeatedName(text);
  if (repeated !== undefined) malformed(`the name '${repeated}' is given twice in one object.`);
  return value;
}

function malformed(detail: string): never {
  throw new ApiError('MALFORMED_JSON', { detail });
}

interface Frame {
  readonly names: Set<string> | undefined;
  expectingName: boolean;
}

/**
 * The first object member name that repeats within its object, in text `JSON.parse` accepted.
 * One pass, no recursion (nesting depth costs memory, not stack).
 */
export function firstRepeatedName(text: string): string | undefined {
  // Most bodies are flat or small: skip the scan when no object could repeat a name.
  if (text.indexOf('{') === -1) return undefined;
  const stack: Frame[] = [];
  let top: Frame | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x22 /* " */) {
      const end = stringEnd(text, index);
      if (top?.names !== undefined && top.expectingName) {
        const raw = text.slice(index + 1, end);
        const name = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.names.has(name)) return name;
        top.names.add(name);
        top.expectingName = false;
      }
      index = end;
    } else if (char === 0x7b /* { */) {
      top = { names: new Set(), expectingName: true };
      stack.push(top);
    } else if (char === 0x5b /* [ */) {
      top = { names: undefined, expectingName: false };
      stack.push(top);
    } else if (char === 0x7d /* } */ || char === 0x5d /* ] */) {
      stack.pop();
      top = stack.at(-1);
    } else if (char === 0x2c /* , */ && top?.names !== undefined) {
      top.expectingName = true;
    }
  }
  return undefined;
}

/** The index of the quote that closes the string opening at `start`. */
function stringEnd(text: string, start: number): number {
  let index = start + 1;
  for (;;) {
    const quote = text.indexOf('"', index);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    index = quote + 1;
  }
}
