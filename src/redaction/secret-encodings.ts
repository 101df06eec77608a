/**
 * Escapes that spell any character another way: percent-encoding (`%73`, `%2d`, `%u0073`), JSON
 * (`\u0073`) and XML/HTML character references (`&#115;`, `&#x73;`). A secret can hide behind
 * them one character at a time, in any mix, where the fixed forms of secret-forms.ts only know
 * the canonical escapes. Decoding them to one canonical form lets those forms find it.
 */
import { findSpans, type Patterns, replaceAll, replaceSpans } from './secret-forms.js';

/**
 * Characters `encodeURIComponent` leaves as they are: decoding their escapes never changes what
 * a URL, a form or a body means (no `&`, `=`, `+`, `%`, `/`, `?`, `#`, quote or bracket).
 */
const URL_SAFE = /^[A-Za-z0-9\-_.!~*'()]$/;

/**
 * Every escape this file reads. A JSON escape (`\u0073`, and `\/`, JSON's other spelling of
 * `/`) is read behind any number of backslashes: JSON quoted in JSON (`\\\\u0073`) spells the
 * character as plainly to a reader. A run of backslashes is tried from its first one only (the
 * look-behind): tried from each, a long run would cost its length squared.
 */
const ESCAPE =
  /%u([0-9A-Fa-f]{4})|%([0-9A-Fa-f]{2})|(?<!\\)\\+u([0-9A-Fa-f]{4})(?:\\+u([Dd][C-Fc-f][0-9A-Fa-f]{2}))?|&#(?:[xX]([0-9A-Fa-f]{1,6})|([0-9]{1,7}));|(?<!\\)\\+(\/)/g;

/** XML's own escapes, as the XML form of a secret has them (secret-forms.ts). */
const XML_NAMED: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
};

/** The widest usual spelling of one character (`&#x0000073;`): how far past a limit to scan. */
export const MAX_ESCAPE_WIDTH = 11;

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;
const asWire = (text: string) => Buffer.from(text).toString('latin1');

/** Anything {@link decodeEscapes} or a base64 line break could start with: one scan. */
const MAY_HOLD = /[%\\&\n]/;

/** Whether a string holds anything {@link decodeEscapes} would read. */
export function mayHoldEscapes(value: string): boolean {
  return (
    value.includes('%') || value.includes('\\u') || value.includes('&#') || value.includes('\\/')
  );
}

/**
 * The string with its escapes decoded where that keeps its meaning in its own syntax: percent
 * escapes of URL-safe characters become the character and the others upper-case `%XX` (UTF-8,
 * `%uXXXX` included); JSON escapes become the character unless JSON needs one (quote, backslash,
 * control), then its `JSON.stringify` escape; character references become the character unless
 * XML needs one (`&amp;` ...). A JSON body stays JSON, a URL keeps its parameters. `wire`: the
 * string holds bytes as latin1 (a decoded character becomes its UTF-8 bytes).
 */
export function decodeEscapes(value: string, wire: boolean): string {
  const text = (char: string) => (wire ? asWire(char) : char);
  return value.replace(
    ESCAPE,
    (
      match,
      percentU?: string,
      percent?: string,
      json?: string,
      low?: string,
      hex?: string,
      decimal?: string,
      slash?: string,
    ) => {
      if (slash !== undefined) return slash;
      if (percent !== undefined) {
        const char = String.fromCharCode(Number.parseInt(percent, 16));
        return URL_SAFE.test(char) ? char : `%${percent.toUpperCase()}`;
      }
      if (percentU !== undefined) {
        const unit = Number.parseInt(percentU, 16);
        if (isSurrogate(unit)) return match;
        const char = String.fromCharCode(unit);
        return URL_SAFE.test(char) ? char : encodeURIComponent(char);
      }
      if (json !== undefined) {
        const unit = Number.parseInt(json, 16);
        if (low !== undefined && unit >= 0xd800 && unit <= 0xdbff) {
          return text(String.fromCharCode(unit, Number.parseInt(low, 16)));
        }
        return jsonChar(unit, text) + (low === undefined ? '' : `\\u${low.toLowerCase()}`);
      }
      // The last alternative left: a character reference, in hex or in decimal.
      const point = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
      // Written so that a `NaN` is left too.
      if (!(point > 0 && point <= 0x10ffff) || isSurrogate(point)) return match;
      const char = String.fromCodePoint(point);
      if (char === "'") return match;
      return XML_NAMED[char] ?? text(char);
    },
  );
}

/** One JSON `\uXXXX` unit as JSON.stringify would write it, or the character itself. */
function jsonChar(unit: number, text: (char: string) => string): string {
  const char = String.fromCharCode(unit);
  // A surrogate is always four hex digits.
  if (isSurrogate(unit)) return `\\u${unit.toString(16)}`;
  // Bounded by the last control character: the next one, a space, is its own escape either way.
  if (unit <= 0x1f || char === '"' || char === '\\') return JSON.stringify(char).slice(1, -1);
  return text(char);
}

/**
 * Every form of every secret replaced by `<redacted>`, as written or behind escapes: the same
 * string when there is none. The common string (no hit, no `%`, `\`, `&` or line break) costs two
 * regular-expression tests; only a secret behind escapes makes the string be kept decoded.
 */
export function redactForms(value: string, patterns: Patterns, wire: boolean): string {
  const kept = patterns.any.test(value) ? replaceAll(value, patterns) : value;
  if (!MAY_HOLD.test(kept) && !(patterns.plus && !wire && kept.includes(' '))) return kept;
  let decoded = mayHoldEscapes(kept) ? decodeEscapes(kept, wire) : kept;
  // Joining finds nothing to join without a line break, but costs 30 times the two scans.
  // Stryker disable next-line StringLiteral: includes('') is true: lines joined in every string, the same answers, slower
  if (kept.includes('\n') || kept.includes('\\n')) decoded = joinBase64Lines(decoded);
  const hit = decoded !== kept && patterns.any.test(decoded);
  const canonical = hit ? replaceAll(decoded, patterns) : decoded;
  return redactMixed(canonical, patterns, wire) ?? (hit ? canonical : kept);
}

/**
 * `value` (decoded by {@link decodeEscapes}) with the secrets spelt with some characters
 * percent-escaped and others not (`Tk/9%2Bab`, as Python's `quote` leaves `/`): the canonical
 * form keeps the escapes of `/`, `+`, `&`... (decoding them would change a URL's meaning), so such
 * a mix matches no fixed form. It is found in a loose reading of the string where every escape is
 * read, and a space read as `+` when a secret holds one (a form decoder turned its `+` into a
 * space), then taken out of `value` itself. Undefined when there is none.
 */
function redactMixed(value: string, patterns: Patterns, wire: boolean): string | undefined {
  const fold = !wire && patterns.plus && value.includes(' ');
  if ((!fold && !value.includes('%')) || !patterns.mixed.test(value)) return undefined;
  const read = value.replace(RUN, (run) => readRun(run, wire));
  // A space spelt `+` keeps every unit where it was: the origins need not know.
  const text = fold ? read.replace(/ /g, '+') : read;
  if (text === value || !patterns.any.test(text)) return undefined;
  const { from, to } = mapLoosely(value, wire);
  const spans = findSpans(text, patterns);
  for (let index = 0; index < spans.length; index += 2) {
    spans[index] = from[spans[index]!]!;
    spans[index + 1] = to[spans[index + 1]! - 1]!;
  }
  return replaceSpans(value, spans);
}

/** A run of percent escapes, in either hex case: what the loose reading reads. */
const RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** Where each unit of the loose reading comes from: the span `[from, to)` of the string read. */
interface Origins {
  readonly from: number[];
  readonly to: number[];
}

/**
 * What a run of escapes spells: a byte each in `wire` strings (latin1), UTF-8 characters in text
 * (an escape that starts none stays as written). With `origins`, where each unit comes from, the
 * run starting at `at`.
 */
function readRun(run: string, wire: boolean, origins?: Origins, at = 0): string {
  // One escape or character at a time (decodeURIComponent would refuse a whole run for one
  // escape that starts no character): this path runs only for a string the prefilter let by.
  let text = '';
  for (let index = 0; index < run.length; ) {
    const byte = Number.parseInt(run.slice(index + 1, index + 3), 16);
    let char: string | undefined = String.fromCharCode(byte);
    let end = index + 3;
    if (!wire && byte >= 0x80) {
      end = index + 3 * (byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2);
      // Cut by the end of the run, the slice lacks bytes: no character.
      char = utf8Char(run.slice(index, end));
    }
    // Kept as written: each of its three characters comes from itself.
    const kept = char === undefined;
    if (kept) end = index + 3;
    char ??= run.slice(index, end);
    text += char;
    if (origins) {
      for (let unit = 0; unit < char.length; unit += 1) {
        origins.from.push(at + (kept ? index + unit : index));
        origins.to.push(at + (kept ? index + unit + 1 : end));
      }
    }
    index = end;
  }
  return text;
}

/** The origins of each unit of the loose reading of `value` (see {@link redactMixed}). */
function mapLoosely(value: string, wire: boolean): Origins {
  const origins: Origins = { from: [], to: [] };
  const literal = (start: number, end: number) => {
    for (let index = start; index < end; index += 1) {
      origins.from.push(index);
      origins.to.push(index + 1);
    }
  };
  let copied = 0;
  RUN.lastIndex = 0;
  for (let match = RUN.exec(value); match !== null; match = RUN.exec(value)) {
    literal(copied, match.index);
    readRun(match[0], wire, origins, match.index);
    copied = match.index + match[0].length;
  }
  literal(copied, value.length);
  return origins;
}

/**
 * The character that percent escapes of its UTF-8 bytes spell (a slice of a run: escapes only);
 * undefined for anything else.
 */
function utf8Char(escapes: string): string | undefined {
  try {
    return decodeURIComponent(escapes);
  } catch {
    // Bytes that are not UTF-8: undefined.
  }
}

/** A line break, as is or JSON-escaped (a base64 block quoted in a JSON string). */
const LINE_BREAK = /\r?\n|\\r\\n|\\n/g;
/** The end of a line of base64 (MIME cuts at 76 characters, PEM at 64), and a next line's start. */
const BASE64_LINE_END = /^[A-Za-z0-9+/]{16}$/;
const BASE64_START = /[A-Za-z0-9+/]/;

/**
 * Base64 cut in lines (MIME, PEM) as one run: a line break after 16 base64 characters and before
 * another goes. Each line break costs one test of the 16 characters before it.
 */
function joinBase64Lines(value: string): string {
  // Before the 16th character, the slice is shorter than 16 (a negative start counts from the
  // end, past `offset` or not): no line end.
  return value.replace(LINE_BREAK, (match, offset: number) =>
    BASE64_LINE_END.test(value.slice(offset - 16, offset)) &&
    BASE64_START.test(value.charAt(offset + match.length))
      ? ''
      : match,
  );
}
