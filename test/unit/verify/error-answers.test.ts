import { describe, expect, it } from 'vitest';
import { Mismatch } from '../../../src/verify/check-kit.js';
import {
  expectErrorFormat,
  expectMessage,
  FORMATS,
  formatLabel,
} from '../../../src/verify/error-answers.js';
import type { Answer } from '../../../src/verify/http-client.js';

const answer = (contentType: string, body: string, status = 409): Answer => ({
  status,
  contentType,
  body,
});

/** What a check reports when `judge` throws: wanted and got, or 'ok'. */
function verdict(judge: () => void): string | [string, string] {
  try {
    judge();
    return 'ok';
  } catch (error) {
    if (!(error instanceof Mismatch)) throw error;
    return [error.wanted, error.got];
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
const XML_TYPE = 'text/xml; charset=utf-8';

describe('an error answer in the format Accept chose', () => {
  it('asks JSON first, then XML, and labels the XML one', () => {
    expect(FORMATS).toEqual(['application/json', 'text/xml']);
    expect(formatLabel('text/xml')).toBe('XML: ');
    expect(formatLabel('application/json')).toBe('');
  });

  it.each([
    ['JSON', JSON_TYPE, '{"message":"x"}', 'application/json'],
    ['JSON in another case', 'Application/JSON', '{}', 'application/json'],
    ['XML', XML_TYPE, '<Error><Message>x</Message></Error>', 'text/xml'],
    ['an empty JSON body', JSON_TYPE, '', 'application/json'],
    ['a blank XML body', 'text/xml', '  \n', 'text/xml'],
  ] as const)('passes %s', (_what, type, body, accept) => {
    expect(verdict(() => expectErrorFormat(answer(type, body), accept))).toBe('ok');
  });

  it.each([
    [
      'another media type',
      'text/plain',
      'Not Found',
      'application/json',
      [
        'XML: an error answer with Content-Type application/json, as Accept chose',
        'XML: Content-Type text/plain',
      ],
    ],
    [
      'no Content-Type',
      '',
      '',
      'text/xml',
      [
        'XML: an error answer with Content-Type text/xml, as Accept chose',
        'XML: Content-Type (none)',
      ],
    ],
    [
      'JSON labelled but not JSON',
      JSON_TYPE,
      '<html/>',
      'application/json',
      ['XML: a JSON body', 'XML: a body that is not JSON'],
    ],
    [
      'XML labelled but not XML',
      XML_TYPE,
      '{"message":"x"}',
      'text/xml',
      ['XML: a well-formed XML body', 'XML: a body that is not XML'],
    ],
  ] as const)('fails %s, saying what was wanted', (_what, type, body, accept, expected) => {
    expect(verdict(() => expectErrorFormat(answer(type, body), accept, 'XML: '))).toEqual(expected);
  });

  it('says nothing before its words when the check gives no label', () => {
    expect(verdict(() => expectErrorFormat(answer('text/plain', 'x'), 'text/xml'))).toEqual([
      'an error answer with Content-Type text/xml, as Accept chose',
      'Content-Type text/plain',
    ]);
  });

  it('quotes a wrong XML message without the whitespace around it', () => {
    const spaced = answer(XML_TYPE, '<Error><Message>  Reserved.\n</Message></Error>');
    expect(verdict(() => expectMessage(spaced, 'text/xml', 'Other.'))).toEqual([
      'a Message element with the text "Other."',
      'Message "Reserved."',
    ]);
  });

  it('keeps the answer on the mismatch, for the report', () => {
    const refused = answer('text/plain', 'Not Found', 404);
    try {
      expectErrorFormat(refused, 'application/json');
      expect.unreachable();
    } catch (error) {
      expect((error as Mismatch).answer).toBe(refused);
    }
  });
});

describe("the 409's message field", () => {
  const TEXT = 'That name is system reserved, please choose another.';

  it.each([
    ['JSON', JSON_TYPE, JSON.stringify({ message: TEXT }), 'application/json'],
    [
      'JSON with more fields',
      JSON_TYPE,
      JSON.stringify({ code: 7, message: TEXT }),
      'application/json',
    ],
    ['XML', XML_TYPE, `<Error><Message>${TEXT}</Message></Error>`, 'text/xml'],
    ['XML, indented', XML_TYPE, `<Error>\n  <Message> ${TEXT} </Message>\n</Error>`, 'text/xml'],
  ] as const)('passes %s', (_what, type, body, accept) => {
    expect(verdict(() => expectMessage(answer(type, body), accept, TEXT))).toBe('ok');
  });

  it.each([
    [
      'another text',
      JSON_TYPE,
      '{"message":"Reserved."}',
      'application/json',
      [
        'm: message "That name is system reserved, please choose another."',
        'm: message "Reserved."',
      ],
    ],
    [
      'no message field',
      JSON_TYPE,
      '{"Message":"x"}',
      'application/json',
      [`m: message ${JSON.stringify(TEXT)}`, 'm: no message field'],
    ],
    [
      'an array',
      JSON_TYPE,
      JSON.stringify([{ message: TEXT }]),
      'application/json',
      [`m: message ${JSON.stringify(TEXT)}`, 'm: no message field'],
    ],
    [
      'null',
      JSON_TYPE,
      'null',
      'application/json',
      [`m: message ${JSON.stringify(TEXT)}`, 'm: no message field'],
    ],
    [
      'a number',
      JSON_TYPE,
      '409',
      'application/json',
      [`m: message ${JSON.stringify(TEXT)}`, 'm: no message field'],
    ],
    [
      'a string',
      JSON_TYPE,
      JSON.stringify(TEXT),
      'application/json',
      [`m: message ${JSON.stringify(TEXT)}`, 'm: no message field'],
    ],
    [
      'a number for a message',
      JSON_TYPE,
      '{"message":409}',
      'application/json',
      [`m: message ${JSON.stringify(TEXT)}`, 'm: message 409'],
    ],
    [
      'XML with another text',
      XML_TYPE,
      '<Error><Message>Reserved.</Message></Error>',
      'text/xml',
      [`m: a Message element with the text ${JSON.stringify(TEXT)}`, 'm: Message "Reserved."'],
    ],
    [
      'XML with the text in another element',
      XML_TYPE,
      `<Error><Detail>${TEXT}</Detail><Code>1</Code></Error>`,
      'text/xml',
      [
        `m: a Message element with the text ${JSON.stringify(TEXT)}`,
        'm: no Message element in Error (its elements: Detail, Code)',
      ],
    ],
    [
      'XML with the Message deeper',
      XML_TYPE,
      `<Error><Inner><Message>${TEXT}</Message></Inner></Error>`,
      'text/xml',
      [
        `m: a Message element with the text ${JSON.stringify(TEXT)}`,
        'm: no Message element in Error (its elements: Inner)',
      ],
    ],
    [
      'XML that is only the text',
      XML_TYPE,
      `<Message>${TEXT}</Message>`,
      'text/xml',
      [
        `m: a Message element with the text ${JSON.stringify(TEXT)}`,
        'm: no Message element in Message (its elements: none)',
      ],
    ],
    [
      'the right body with the wrong type',
      'text/html',
      JSON.stringify({ message: TEXT }),
      'application/json',
      [
        'm: an error answer with Content-Type application/json, as Accept chose',
        'm: Content-Type text/html',
      ],
    ],
  ] as const)('fails %s', (_what, type, body, accept, expected) => {
    expect(verdict(() => expectMessage(answer(type, body), accept, TEXT, 'm: '))).toEqual(expected);
  });
});
