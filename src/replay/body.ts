import { createRequire } from 'node:module';
import { MAX_SHOWN_DEPTH } from '../journal/journal-body.js';
import { jsonDepthExceeds } from '../json-depth.js';

type Fxp = typeof import('fast-xml-parser');

/** An XML element as replay compares it: local name, text, child elements in order. */
export interface XmlNode {
  readonly name: string;
  readonly text: string;
  readonly children: readonly XmlNode[];
}

/** A body read by its media type: JSON, an XML element tree, or text. */
export type ParsedBody =
  | { readonly kind: 'empty' }
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'xml'; readonly value: XmlNode }
  | { readonly kind: 'text'; readonly value: string };

// Namespaces, attributes, the declaration and whitespace between elements are not part of what
// the service's XML says: only element names, their order and their text are compared.
const PARSER_OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: true,
  removeNSPrefix: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
};

// Required on the first XML body a replay reads, not when the package loads: the sandbox and the
// tests that never replay do not pay for the parser at start-up.
let xmlLibrary:
  | { parser: InstanceType<Fxp['XMLParser']>; validator: Fxp['XMLValidator'] }
  | undefined;
function xmlReader() {
  if (!xmlLibrary) {
    const fxp = createRequire(import.meta.url)('fast-xml-parser') as Fxp;
    xmlLibrary = { parser: new fxp.XMLParser(PARSER_OPTIONS), validator: fxp.XMLValidator };
  }
  return xmlLibrary;
}

/**
 * The most tags and attribute names one recorded XML body may hold to be compared (see
 * {@link xmlTooLarge}). The service's largest XML answer, its lists, counts 8 a list (4 elements,
 * each opened and closed): some 12,500 lists, far more than an account has. Reading XML costs up
 * to 280 bytes of memory a tag, and a body is read twice (for the starting state, then to
 * compare): at this bound, a body costs some 60 MB at most while it is read, however it is made
 * (400,000 `<a/>` took 112 MB for each reading; a root of a million attributes, 14 MB of HAR,
 * took replay to 1.2 GB and 20 s before there was a bound).
 */
export const MAX_XML_NODES = 100_000;
/**
 * The most attribute names and values one tag may hold (about half as many attributes). The
 * service's tags have at most 3 attributes (`xmlns`, `xmlns:i`, `i:nil`). The validator keeps
 * every attribute of a tag at once, some 800 bytes each: a root of a million attributes, 14 MB of
 * HAR, took replay to 1.2 GB and 20 s.
 */
export const MAX_XML_TAG_NAMES = 256;

/**
 * Why a text labelled or shaped as XML is too large to read, or undefined: it holds more than
 * {@link MAX_XML_NODES} tags and attribute names. Counted in one pass without parsing: each tag
 * (`<` that opens no comment, CDATA section, processing instruction or declaration) and, inside
 * a tag, each name that follows a space, `=` or a quote, quoted values included, so the count is
 * never below what the validator splits a tag into.
 */
export function xmlTooLarge(text: string): string | undefined {
  let nodes = 0;
  const { length } = text;
  let at = text.indexOf('<');
  while (at !== -1) {
    const skipped = skipMarkup(text, at);
    if (skipped !== undefined) {
      at = skipped === -1 ? -1 : text.indexOf('<', skipped);
      continue;
    }
    nodes += 1;
    let names = 0;
    let quote = 0;
    let gap = false;
    let end = at + 1;
    for (; end < length; end += 1) {
      const code = text.charCodeAt(end);
      if (quote !== 0 ? code === quote : code === DOUBLE_QUOTE || code === SINGLE_QUOTE) {
        quote = quote !== 0 ? 0 : code;
        gap = true;
      } else if (quote === 0 && code === CLOSE) break;
      else if (code === EQUALS || code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d)
        gap = true;
      else if (gap) {
        names += 1;
        gap = false;
      }
    }
    if (names > MAX_XML_TAG_NAMES)
      return `a tag of the recorded XML answer holds more than ${MAX_XML_TAG_NAMES} attribute names and values, where the service's hold at most 3 attributes: not read, so that replay's memory stays bounded`;
    nodes += names;
    if (nodes > MAX_XML_NODES)
      return `the recorded XML answer holds more than ${MAX_XML_NODES} tags and attribute names, far more than any answer of the service: not read, so that replay's memory stays bounded`;
    at = end >= length ? -1 : text.indexOf('<', end + 1);
  }
  return undefined;
}

const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const CLOSE = 0x3e;
const EQUALS = 0x3d;
/** What opens markup that holds no element, and what closes it. */
const MARKUP: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

/** Past the comment, CDATA section, processing instruction or declaration at `at` (-1: never closed); undefined for a tag. */
function skipMarkup(text: string, at: number): number | undefined {
  for (const [open, close] of MARKUP) {
    if (text.startsWith(open, at)) {
      const end = text.indexOf(close, at + open.length);
      return end === -1 ? -1 : end + close.length;
    }
  }
  return undefined;
}

/**
 * A body no reader can walk: XML the parser gave up on although it is well-formed, or JSON nested
 * deeper than {@link MAX_SHOWN_DEPTH} levels. Its exchange is not comparable; a request body that
 * is one is sent as recorded and shows nothing of the state.
 */
export class UnreadableBodyError extends Error {
  override name = 'UnreadableBodyError';
}

/** The media type without parameters, lower-cased: `application/json`. */
export function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * Reads `text` as its Content-Type says. A body labelled otherwise (a service that sends JSON as
 * text/plain) is read by its first character, so that the ids in it are still paired: the label
 * is reported on its own. A body that does not parse is text.
 */
export function parseBody(contentType: string, text: string | undefined): ParsedBody {
  if (text === undefined || text.trim() === '') return { kind: 'empty' };
  const reading = readAs(contentType, text);
  if (reading === 'json') {
    // Parsed, it would overflow the stack of every reader that walks it (comparing, showing): the
    // service's answers nest a few levels, so such a body is not compared.
    if (jsonDepthExceeds(text, MAX_SHOWN_DEPTH)) {
      throw new UnreadableBodyError(
        `a JSON body nests deeper than ${MAX_SHOWN_DEPTH} levels, which no reader can walk without overflowing its stack: not compared`,
      );
    }
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch {
      return { kind: 'text', value: text };
    }
  }
  if (reading === 'xml' && xmlReader().validator.validate(text) === true) {
    let items: unknown[];
    try {
      items = xmlReader().parser.parse(text) as unknown[];
    } catch (error) {
      throw new UnreadableBodyError(`an XML body cannot be read: ${(error as Error).message}`);
    }
    const [root] = toNodes(items);
    if (root) return { kind: 'xml', value: root };
  }
  return { kind: 'text', value: text };
}

/**
 * How {@link parseBody} tries to read a body: by its media type, else by its first character (a
 * service that sends JSON as text/plain); text when neither says.
 */
export function readAs(contentType: string, text: string): 'json' | 'xml' | 'text' {
  const type = mediaType(contentType);
  const first = text.trimStart()[0];
  if (type.endsWith('json') || (!type.endsWith('xml') && (first === '{' || first === '[')))
    return 'json';
  return type.endsWith('xml') || first === '<' ? 'xml' : 'text';
}

function toNodes(items: readonly unknown[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const item of items) {
    const name = Object.keys(item as object).find((key) => key !== ':@' && key !== '#text');
    if (name === undefined) continue;
    const content = (item as Record<string, unknown[]>)[name] ?? [];
    const text = content
      .map((part) => (part as { '#text'?: unknown })['#text'])
      .filter((part) => part !== undefined)
      .join('');
    nodes.push({ name, text, children: toNodes(content) });
  }
  return nodes;
}
