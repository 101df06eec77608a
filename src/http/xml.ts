/**
 * The service's XML bodies, written by hand: the element names and their order are part of
 * the service's contract, and a template is both the clearest and the fastest way to keep them.
 */

export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

// Characters XML 1.0 cannot carry at all; they become U+FFFD so the document stays well-formed.
const INVALID_XML_CHARS =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NEEDS_ESCAPE = /[&<>\u0000-\u001f\ud800-\udfff\ufffe\uffff]/;
// Only element text is ever written (no attributes), so quotes need no escaping.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

export function escapeXml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(INVALID_XML_CHARS, '\ufffd').replace(/[&<>]/g, (char) => ENTITIES[char]!);
}

/** `<Name>text</Name>` for each pair, in the given order. */
export function elements(pairs: readonly (readonly [string, string | number])[]): string {
  let xml = '';
  for (const [name, value] of pairs) {
    xml += `<${name}>${typeof value === 'number' ? value : escapeXml(value)}</${name}>`;
  }
  return xml;
}

export function document(root: string, inner: string): string {
  return `${XML_DECLARATION}<${root}>${inner}</${root}>`;
}

export function arrayDocument<T>(
  root: string,
  item: string,
  items: Iterable<T>,
  fields: (value: T) => string,
): string {
  let inner = '';
  for (const value of items) inner += `<${item}>${fields(value)}</${item}>`;
  return document(root, inner);
}
