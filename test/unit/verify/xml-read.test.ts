import { describe, expect, it } from 'vitest';
import { childText, readXml } from '../../../src/verify/xml-read.js';

/** The root's text, or undefined when the document is not well-formed. */
const textOf = (document: string) => readXml(document)?.text;

describe("verify's XML reader: text", () => {
  it('decodes the five named entities and leaves an unknown one as written', () => {
    expect(textOf('<A>&amp;&lt;&gt;&quot;&apos;&nbsp;</A>')).toBe('&<>"\'&nbsp;');
  });

  it.each([
    ['decimal', '<A>&#65;&#0066;</A>', 'AB'],
    ['hexadecimal', '<A>&#x41;&#X42;&#x1F600;</A>', 'AB😀'],
    ['the last character', '<A>&#x10FFFF;</A>', String.fromCodePoint(0x10ffff)],
    ['the last character, in decimal', '<A>&#1114111;</A>', String.fromCodePoint(0x10ffff)],
  ])('decodes %s character references', (_what, document, text) => {
    expect(textOf(document)).toBe(text);
  });

  it.each([
    ['hexadecimal', '<A>&#x110000;</A>'],
    ['decimal', '<A>&#1114112;</A>'],
  ])('reads a %s reference past U+10FFFF as not well-formed', (_what, document) => {
    expect(readXml(document)).toBeUndefined();
  });

  it('drops a byte order mark before the document, and only there', () => {
    expect(readXml('\uFEFF<A/>')).toEqual({ name: 'A', children: [], text: '' });
    expect(textOf('<A>\uFEFFx</A>')).toBe('\uFEFFx');
  });

  it('accepts whitespace around the root, and nothing else there', () => {
    expect(readXml('\n <A/>\r\n\t')?.name).toBe('A');
    expect(readXml('x<A/>')).toBeUndefined();
  });

  it('keeps CDATA as written, entities and all', () => {
    expect(textOf('<A><![CDATA[&amp; <b>]]></A>')).toBe('&amp; <b>');
  });
});

describe("verify's XML reader: attributes", () => {
  it.each([
    ['several spaces before a name', '<A  b="1"/>'],
    ['spaces around =', '<A b = "1"/>'],
    ['a tab and a newline', '<A\tb="1"\nc="2"/>'],
    ['single quotes', "<A b='12' c=''/>"],
    ['double quotes holding a single one', `<A b="it's"/>`],
    ['a prefixed name', '<A xmlns:i="urn:x" i:nil="true"/>'],
  ])('accepts %s', (_what, document) => {
    expect(readXml(document)?.name).toBe('A');
  });

  it.each([
    ['a value without quotes', '<A b=1/>'],
    ['a name without a value', '<A b/>'],
    ['an unclosed quote', '<A b="1/>'],
    ['mixed quotes', `<A b="1'/>`],
  ])('refuses %s', (_what, document) => {
    expect(readXml(document)).toBeUndefined();
  });
});

describe("verify's XML reader: structure", () => {
  it('reads local names, without their prefix', () => {
    const root = readXml('<a:Root xmlns:a="urn:x"><a:Item/><Plain></Plain></a:Root>');
    expect(root?.name).toBe('Root');
    expect(root?.children.map((child) => child.name)).toEqual(['Item', 'Plain']);
  });

  it.each([
    ['a closing tag after the root', '<A/></A>'],
    ['a closing tag of another name', '<A></B>'],
    ['an element left open', '<A><B></B>'],
    ['a child left open', '<A><B>'],
    ['a closing tag alone', '</A>'],
    ['CDATA before the root', '<![CDATA[x]]><A/>'],
    ['CDATA after the root', '<A/><![CDATA[]]>'],
  ])('refuses %s', (_what, document) => {
    expect(readXml(document)).toBeUndefined();
  });

  it('throws a fault of its own rather than calling it not well-formed', () => {
    expect(() => readXml(null as unknown as string)).toThrow(TypeError);
  });
});

describe('the text of a child element', () => {
  const item = readXml('<List><Id> 7 </Id><Name>a</Name><Name>b</Name><Empty/></List>')!;

  it('is the first child of that name, trimmed', () => {
    expect(childText(item, 'Id')).toBe('7');
    expect(childText(item, 'Name')).toBe('a');
    expect(childText(item, 'Empty')).toBe('');
  });

  it('is undefined when there is no such child', () => {
    expect(childText(item, 'ServerId')).toBeUndefined();
    expect(childText(item, 'List')).toBeUndefined();
  });
});
