import { createRequire } from 'node:module';
import { jsonDepthExceeds, MAX_SHOWN_DEPTH } from '../journal/journal-body.js';

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
 * A recorded body no reader can walk: XML the parser gave up on although it is well-formed, or
 * JSON nested deeper than {@link MAX_SHOWN_DEPTH} levels. The HAR cannot be replayed, and the
 * caller names the entry.
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
  const type = mediaType(contentType);
  const first = text.trimStart()[0];
  const json = type.endsWith('json') || (!type.endsWith('xml') && (first === '{' || first === '['));
  if (json) {
    // Parsed, it would overflow the stack of every reader that walks it (comparing, showing): the
    // service's answers nest a few levels, so such a body makes the HAR one replay cannot read.
    if (jsonDepthExceeds(text, MAX_SHOWN_DEPTH)) {
      throw new UnreadableBodyError(
        `a JSON body nests deeper than ${MAX_SHOWN_DEPTH} levels, which no reader can walk without overflowing its stack`,
      );
    }
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch {
      return { kind: 'text', value: text };
    }
  }
  const xml = type.endsWith('xml') || first === '<';
  if (xml && xmlReader().validator.validate(text) === true) {
    let items: unknown[];
    try {
      items = xmlReader().parser.parse(text) as unknown[];
    } catch (error) {
      throw new UnreadableBodyError(`its XML body cannot be read: ${(error as Error).message}`);
    }
    const [root] = toNodes(items);
    if (root) return { kind: 'xml', value: root };
  }
  return { kind: 'text', value: text };
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
