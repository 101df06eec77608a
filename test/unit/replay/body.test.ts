import { describe, expect, it } from 'vitest';
import { MAX_SHOWN_DEPTH } from '../../../src/journal/journal-body.js';
import { mediaType, parseBody, readAs, UnreadableBodyError } from '../../../src/replay/body.js';

// How replay reads a recorded body: by its media type, or by its first character when the label
// says neither JSON nor XML.

describe('mediaType', () => {
  it('without parameters, trimmed, lower-cased', () => {
    expect(mediaType(' Application/JSON ; charset=utf-8')).toBe('application/json');
    expect(mediaType('')).toBe('');
  });
});

describe('parseBody', () => {
  it('no body, or only whitespace: empty', () => {
    expect(parseBody('application/json', undefined)).toEqual({ kind: 'empty' });
    expect(parseBody('application/json', ' \n')).toEqual({ kind: 'empty' });
  });

  it('JSON by its label (any +json) or, unlabelled, by its first character', () => {
    expect(parseBody('application/problem+json', '{"a":1}')).toEqual({
      kind: 'json',
      value: { a: 1 },
    });
    expect(parseBody('text/plain', '  [1]')).toEqual({ kind: 'json', value: [1] });
    expect(parseBody('', '{"a":1}')).toEqual({ kind: 'json', value: { a: 1 } });
    expect(parseBody('application/json', '"x"')).toEqual({ kind: 'json', value: 'x' });
    expect(parseBody('text/plain', '"x"')).toEqual({ kind: 'text', value: '"x"' });
    expect(parseBody('application/json', '{nope')).toEqual({ kind: 'text', value: '{nope' });
  });

  it('XML labelled as XML is not read as JSON, whatever its first character', () => {
    expect(parseBody('application/xml', '[1]')).toEqual({ kind: 'text', value: '[1]' });
  });

  it('XML by its label or its first character: names, text and children in order', () => {
    const body =
      '<?xml version="1.0"?><ns:Lists xmlns:ns="u" a="1"><List><Id> 1 </Id><Name>A<!--c-->B</Name></List><List/></ns:Lists>';
    expect(parseBody('text/xml', body)).toEqual({
      kind: 'xml',
      value: {
        name: 'Lists',
        text: '',
        children: [
          {
            name: 'List',
            text: '',
            children: [
              { name: 'Id', text: '1', children: [] },
              { name: 'Name', text: 'AB', children: [] },
            ],
          },
          { name: 'List', text: '', children: [] },
        ],
      },
    });
    expect(parseBody('text/plain', '<a>x</a>')).toEqual({
      kind: 'xml',
      value: { name: 'a', text: 'x', children: [] },
    });
  });

  it('XML that is not well-formed, or text: text', () => {
    expect(parseBody('application/xml', '<a><b></a>')).toEqual({
      kind: 'text',
      value: '<a><b></a>',
    });
    expect(parseBody('text/plain', 'hello')).toEqual({ kind: 'text', value: 'hello' });
    expect(parseBody('application/xml', 'hello')).toEqual({ kind: 'text', value: 'hello' });
  });

  it('JSON nested past what any reader can walk: an unreadable body', () => {
    const deep = `${'['.repeat(MAX_SHOWN_DEPTH + 1)}${']'.repeat(MAX_SHOWN_DEPTH + 1)}`;
    expect(() => parseBody('application/json', deep)).toThrow(UnreadableBodyError);
    expect(() => parseBody('application/json', deep)).toThrow(
      `a JSON body nests deeper than ${MAX_SHOWN_DEPTH} levels, which no reader can walk without overflowing its stack: not compared`,
    );
    const fine = `${'['.repeat(MAX_SHOWN_DEPTH)}${']'.repeat(MAX_SHOWN_DEPTH)}`;
    expect(parseBody('application/json', fine).kind).toBe('json');
  });
});

describe('readAs', () => {
  it('reads by the media type, else by the first character', () => {
    expect(readAs('application/xml', 'not xml')).toBe('xml');
    expect(readAs('application/soap+xml', '')).toBe('xml');
    expect(readAs('text/plain', 'hello')).toBe('text');
    expect(readAs('text/plain', ' <a/>')).toBe('xml');
    expect(readAs('xml/text', 'hello')).toBe('text');
  });
});

describe('parseBody: text between elements', () => {
  it("keeps an element's own text, and only elements as its children", () => {
    expect(parseBody('text/xml', '<a>hi<b>1</b> there</a>')).toEqual({
      kind: 'xml',
      value: { name: 'a', text: 'hithere', children: [{ name: 'b', text: '1', children: [] }] },
    });
  });
});

describe('parseBody: XML edges', () => {
  it('the text of an element with children between its pieces, joined as is', () => {
    expect(parseBody('application/xml', '<a>x<b/>y</a>')).toEqual({
      kind: 'xml',
      value: { name: 'a', text: 'xy', children: [{ name: 'b', text: '', children: [] }] },
    });
  });

  it('well-formed XML without an element is text', () => {
    expect(parseBody('application/xml', '<?xml version="1.0"?><!-- c -->')).toEqual({
      kind: 'text',
      value: '<?xml version="1.0"?><!-- c -->',
    });
  });

  it('UnreadableBodyError is named so', () => {
    expect(String(new UnreadableBodyError('x'))).toBe('UnreadableBodyError: x');
  });
});
