/**
 * Escapes that spell any character another way: percent-encoding (`%73`, `%2d`, `%u0073`), JSON
 * (`\u0073`) and XML/HTML character references (`&#115;`, `&#x73;`). A secret can hide behind
 * them one character at a time, in any mix, where the fixed forms of secret-forms.ts only know
 * the canonical escapes. Decoding them to one canonical form lets those forms find it.
 */
import { type Patterns, replaceAll } from './secret-forms.js';

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
const asWire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

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
      const point =
        hex !== undefined ? Number.parseInt(hex, 16) : decimal !== undefined ? Number(decimal) : -1;
      if (point <= 0 || point > 0x10ffff || isSurrogate(point)) return match;
      const char = String.fromCodePoint(point);
      if (char === "'") return match;
      return XML_NAMED[char] ?? text(char);
    },
  );
}

/** One JSON `\uXXXX` unit as JSON.stringify would write it, or the character itself. */
function jsonChar(unit: number, text: (char: string) => string): string {
  const char = String.fromCharCode(unit);
  if (isSurrogate(unit)) return `\\u${unit.toString(16).padStart(4, '0')}`;
  if (unit < 0x20 || char === '"' || char === '\\') return JSON.stringify(char).slice(1, -1);
  return text(char);
}

/**
 * Every form of every secret replaced by `<redacted>`, as written or behind escapes: the same
 * string when there is none. The common string (no hit, no `%`, `\`, `&` or line break) costs two
 * regular-expression tests; only a secret behind escapes makes the string be kept decoded.
 */
export function redactForms(value: string, patterns: Patterns, wire: boolean): string {
  const kept = patterns.any.test(value) ? replaceAll(value, patterns) : value;
  if (!MAY_HOLD.test(kept)) return kept;
  const escaped = mayHoldEscapes(kept);
  const broken = kept.includes('\n') || kept.includes('\\n');
  let decoded = escaped ? decodeEscapes(kept, wire) : kept;
  if (broken) decoded = joinBase64Lines(decoded);
  return decoded !== kept && patterns.any.test(decoded) ? replaceAll(decoded, patterns) : kept;
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
  return value.replace(LINE_BREAK, (match, offset: number) =>
    offset >= 16 &&
    BASE64_LINE_END.test(value.slice(offset - 16, offset)) &&
    BASE64_START.test(value.charAt(offset + match.length))
      ? ''
      : match,
  );
}
