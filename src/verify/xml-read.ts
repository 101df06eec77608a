/** An XML element as the checks see it: local name (no prefix), children in order, text. */
export interface XmlElement {
  readonly name: string;
  readonly children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** A character reference to no character (past U+10FFFF): the document is not well-formed. */
class NoSuchCharacter extends Error {}

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1]?.toLowerCase() === 'x'
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      if (!(code <= 0x10ffff)) throw new NoSuchCharacter();
      return String.fromCodePoint(code);
    }
    return ENTITIES[entity] ?? all;
  });
}

/**
 * Whether a tag's attributes are `name="value"` pairs, read one pair at a time: one regular
 * expression repeating a group over them all backtracks through a stack as deep as the count, and
 * a root with a million attributes (11 MB, within the answer limit) overflowed it.
 */
function wellFormedAttributes(text: string): boolean {
  const pair = /\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*')/y;
  let at = 0;
  while (pair.exec(text)) at = pair.lastIndex;
  return /^\s*$/.test(text.slice(at));
}

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

/**
 * Reads a document into its root element, or undefined when it is not well-formed XML.
 * Namespaces, prefixes, attributes, comments and whitespace between elements are ignored: the
 * description names elements only, so a service may add them freely. A small reader of our own
 * because the checks need element order and nothing else (no dependency for the package).
 */
export function readXml(text: string): XmlElement | undefined {
  try {
    return readWellFormed(text);
  } catch (error) {
    if (error instanceof NoSuchCharacter) return undefined;
    throw error;
  }
}

function readWellFormed(text: string): XmlElement | undefined {
  const body = text.replace(/^\uFEFF/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  // One way to read a tag's attributes: a single space, then the rest (`\s+` before a lazy
  // `[^<>]*?` could split a run of spaces in every way: quadratic on `<ArrayOfList` and a
  // quarter of a million spaces with no `>`).
  const token =
    /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<(\/?)([A-Za-z_][\w.:-]*)((?:\s[^<>]*?)?)(\/?)>|([^<]+)|(<)/g;
  for (const match of body.matchAll(token)) {
    const [, cdata, closing, qualified, attributes, selfClosing, text, stray] = match;
    if (stray !== undefined) return undefined;
    const top = stack.at(-1);
    if (text !== undefined || cdata !== undefined) {
      if (!top) {
        // Outside the root only whitespace may stand: CDATA, as text, belongs inside an element.
        if (text === undefined || text.trim() !== '') return undefined;
        continue;
      }
      top.text += cdata ?? decode(text ?? '');
      continue;
    }
    if (qualified === undefined) continue;
    if (attributes && !wellFormedAttributes(attributes)) return undefined;
    const name = localName(qualified);
    if (closing) {
      if (!top || top.name !== name) return undefined;
      stack.pop();
      continue;
    }
    const element: XmlElement = { name, children: [], text: '' };
    if (top) top.children.push(element);
    else if (root) return undefined;
    else root = element;
    if (!selfClosing) stack.push(element);
  }
  return root && stack.length === 0 ? root : undefined;
}

/** The text of the child named `name`, trimmed; undefined when there is no such child. */
export function childText(element: XmlElement, name: string): string | undefined {
  return element.children.find((child) => child.name === name)?.text.trim();
}
