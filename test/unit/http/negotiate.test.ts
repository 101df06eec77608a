import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createNegotiator, type Format, negotiate } from '../../../src/http/negotiate.js';

/**
 * Accept negotiation as ASP.NET's formatters do it: a formatter's media types carry no
 * parameters, so they match a range whatever parameters the range carries; only q (and what
 * follows it) is not a parameter of the range. q-values decide; among equal q the more specific
 * range, then the client's order, then JSON first.
 */

describe('negotiate: parameters, q-values, case and whitespace', () => {
  it.each<[string, Format]>([
    // Parameters other than q are ignored wherever they stand.
    ['text/xml; charset=utf-8', 'xml'],
    ['text/xml;charset="utf-8"', 'xml'],
    ['text/xml; charset="a,b;c", application/json;q=0.5', 'xml'],
    ['application/json; charset="x,text/xml", text/xml;q=0.5', 'json'],
    ['text/xml;version=1;level=2', 'xml'],
    ['text/xml;version', 'xml'],
    ['application/json; charset=utf-8, text/xml;q=0.1', 'json'],
    ['application/json;charset=utf-8;q=0.1, text/xml', 'xml'],
    // Parameters after q are accept-extensions: ignored too.
    ['text/xml;q=0.2;ext=1, application/json;q=0.1', 'xml'],
    ['text/xml;q=0.2;q=0.9, application/json;q=0.5', 'json'],
    // q-values: the highest wins; 0 means "not acceptable"; the forms RFC 9110 allows and Java's `.2`.
    ['text/xml;q=0.9, application/json;q=0.5', 'xml'],
    ['text/xml;q=0.5, application/json;q=0.9', 'json'],
    ['text/xml;q=.9, application/json;q=.5', 'xml'],
    ['text/xml;q=1.000, application/json;q=0.999', 'xml'],
    ['application/json;q=0, text/xml', 'xml'],
    ['application/json;q=0, text/json;q=0, */*', 'xml'],
    ['text/xml;q=0', 'json'],
    ['text/xml;q="0.9", application/json;q=0.5', 'xml'],
    // A q that is not a quality value drops its range, as a parser that refuses it would.
    ['text/xml;q=2, application/json;q=0.5', 'json'],
    ['text/xml;q=abc, application/json;q=0.5', 'json'],
    ['text/xml;q=, application/json;q=0.5', 'json'],
    ['text/xml;q=-1, application/json;q=0.5', 'json'],
    // Case: type, subtype and parameter names are case-insensitive.
    ['TEXT/XML; CHARSET=UTF-8', 'xml'],
    ['Application/Xml;Q=0.9, application/json;q=0.1', 'xml'],
    ['application/json;Q=0.1, text/xml;q=0.5', 'xml'],
    // Whitespace: around commas, semicolons and equals signs, tabs included.
    ['  text/xml  ;  charset = utf-8  ,  application/json ; q = 0.5  ', 'xml'],
    ['\ttext/xml\t;\tq=0.9\t,\tapplication/json;q=0.1', 'xml'],
    ['application/json;q=0.1,text/xml;q=0.2', 'xml'],
    // Ties: equal q, the more specific range wins, then the client's order, then JSON.
    ['text/*, application/xml', 'xml'],
    ['*/*, text/xml', 'xml'],
    ['text/xml, application/json', 'xml'],
    ['application/json, text/xml', 'json'],
    ['*/*', 'json'],
    ['text/*', 'json'],
    ['application/*', 'json'],
    // text/* covers text/json as well as text/xml: JSON, the first offer, takes the tie.
    ['text/*;q=0.9, application/json;q=0.5', 'json'],
    ['text/json;q=0, text/*;q=0.9, application/json;q=0.5', 'xml'],
    // Empty elements and garbage are skipped.
    [',,, text/xml ,,', 'xml'],
    ['xml, text/xml', 'xml'],
    ['/xml, text/xml;q=0.5, application/json;q=0.1', 'xml'],
    ['text/, application/xml', 'xml'],
    ['text/xml garbage, application/json;q=0.5', 'json'],
    ['"text/xml", application/json;q=0.5', 'json'],
    ['text/xml;charset="unterminated, application/json', 'xml'],
  ])('%j -> %s', (accept, format) => {
    expect(negotiate(accept).format).toBe(format);
  });

  it('answers XML in the type the client named', () => {
    expect(negotiate('application/xml; charset=utf-8').contentType).toBe(
      'application/xml; charset=utf-8',
    );
    expect(negotiate('text/xml; charset=utf-8').contentType).toBe('text/xml; charset=utf-8');
    expect(negotiate('text/json; charset=utf-8').contentType).toBe(
      'application/json; charset=utf-8',
    );
  });

  it('the cached negotiator answers as the plain one, header after header', () => {
    const cached = createNegotiator();
    for (const accept of [
      'text/xml; charset=utf-8',
      'application/json',
      'text/xml; charset=utf-8',
    ]) {
      expect(cached(accept)).toBe(negotiate(accept));
    }
  });
});

const SUPPORTED = ['application/json', 'text/json', 'text/xml', 'application/xml'] as const;
const FORMAT_OF: Record<(typeof SUPPORTED)[number], Format> = {
  'application/json': 'json',
  'text/json': 'json',
  'text/xml': 'xml',
  'application/xml': 'xml',
};
const UNSUPPORTED = ['text/html', 'image/png', 'application/xhtml+xml', 'text/plain'];

/** A parameter other than q: token or quoted value, the quoted one holding separators. */
const PARAMETER = fc
  .tuple(
    fc.constantFrom('charset', 'version', 'level', 'profile', 'Charset', 'odata.metadata'),
    fc.oneof(
      fc.constantFrom('utf-8', 'UTF-8', '1', 'minimal', 'iso-8859-1'),
      fc.string({ maxLength: 8 }).map((text) => `"${text.replace(/["\\]/g, '')}"`),
      fc.constantFrom('"a,b"', '"x;y"', '"text/xml, application/json"', '"q=0"'),
    ),
  )
  .map(([name, value]) => `${name}=${value}`);
const OWS = fc.constantFrom('', ' ', '  ', '\t');
const QUALITY = fc.integer({ min: 0, max: 1000 }).map((thousandths) => thousandths / 1000);

interface Range {
  readonly type: string;
  readonly q: number | undefined;
  readonly parameters: readonly string[];
}
const RANGE = fc.record({
  type: fc.constantFrom(...SUPPORTED, ...UNSUPPORTED, '*/*', 'text/*', 'application/*'),
  q: fc.option(QUALITY, { nil: undefined }),
  parameters: fc.array(PARAMETER, { maxLength: 3 }),
});

/** Writes ranges as an Accept header, with or without their parameters, spaced as chosen. */
function header(ranges: readonly Range[], withParameters: boolean, spaces: readonly string[]) {
  const space = (i: number) => spaces[i % spaces.length] ?? '';
  return ranges
    .map((range, i) => {
      const parts = [range.type, ...(withParameters ? range.parameters : [])];
      if (range.q !== undefined) parts.push(`q=${range.q}`);
      return parts.join(`${space(i)};${space(i + 1)}`);
    })
    .join(`${space(0)},${space(1)}`);
}

/** Flips the case of letters by a mask, so names are spelt in every mix of cases. */
function recase(text: string, mask: readonly boolean[]): string {
  return [...text]
    .map((char, i) => (mask[i % mask.length] ? char.toUpperCase() : char.toLowerCase()))
    .join('');
}

describe('negotiate: properties', () => {
  it('parameters other than q never change the answer', () => {
    fc.assert(
      fc.property(fc.array(RANGE, { minLength: 1, maxLength: 6 }), (ranges) => {
        expect(negotiate(header(ranges, true, [' ']))).toBe(negotiate(header(ranges, false, [''])));
      }),
    );
  });

  it('case and whitespace never change the answer', () => {
    fc.assert(
      fc.property(
        fc.array(RANGE, { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        fc.array(OWS, { minLength: 1, maxLength: 5 }),
        (ranges, mask, spaces) => {
          const plain = header(ranges, true, ['']);
          const spelt = recase(header(ranges, true, spaces), mask);
          // Quoted values are the one place case counts; none of them decides the answer.
          expect(negotiate(spelt)).toBe(negotiate(plain));
        },
      ),
    );
  });

  it('with distinct q-values on named types, the supported type with the highest q wins', () => {
    const named = fc.uniqueArray(
      fc.record({
        type: fc.constantFrom(...SUPPORTED, ...UNSUPPORTED),
        q: QUALITY,
        parameters: fc.array(PARAMETER, { maxLength: 2 }),
      }),
      { minLength: 1, maxLength: 8, selector: (range) => range.q },
    );
    fc.assert(
      fc.property(named, (ranges) => {
        const best = ranges
          .filter((range) => range.type in FORMAT_OF && range.q > 0)
          .sort((a, b) => b.q - a.q)[0];
        const expected = best ? FORMAT_OF[best.type as keyof typeof FORMAT_OF] : 'json';
        expect(negotiate(header(ranges, true, [' '])).format).toBe(expected);
      }),
    );
  });

  // Runs on every request, on a header the client writes: linear work, so a hostile 64 KiB
  // header (four times the header limit) takes milliseconds. The bound only catches a quadratic
  // or backtracking parser, which takes seconds on these shapes.
  it.each([
    ['spaces', `${' '.repeat(65_536)}x`],
    ['spaces in a parameter', `text/xml;${' '.repeat(65_536)}q`],
    ['commas', ','.repeat(65_536)],
    ['semicolons', `text/xml${';'.repeat(65_536)}`],
    ['quotes', '"'.repeat(65_536)],
    ['escapes in a quoted string', `text/xml;a="${'\\'.repeat(32_768)}`],
    ['ranges', 'text/xml;q=0.5, '.repeat(4096)],
  ])('a hostile 64 KiB header of %s is answered in linear time', (_shape, accept) => {
    const started = performance.now();
    expect(['json', 'xml']).toContain(negotiate(accept).format);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('any text gets an answer, JSON or XML, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (accept) => {
        expect(['json', 'xml']).toContain(negotiate(accept).format);
      }),
    );
  });
});
