import { describe, expect, it } from 'vitest';
import { AUTH, useFake } from '../../helpers/fake.js';

const fake = useFake({ perFile: true });

interface BadRequest {
  name: string;
  method?: 'PUT' | 'POST';
  url?: string;
  contentType?: string;
  payload: string | Buffer;
  status: number;
  message: string | RegExp;
}

const ADD = '/marketing/v1/lists/1/contacts';
const UNSUBSCRIBE = '/marketing/v1/contacts/unsubscribe';

const cases: BadRequest[] = [
  {
    name: 'malformed JSON',
    payload: '{"emailAddress":',
    status: 400,
    message: /^The request body is not valid JSON/,
  },
  {
    name: 'JSON with a trailing comma',
    payload: '{"emailAddress":"a@b.com",}',
    status: 400,
    message: /not valid JSON/,
  },
  { name: 'an empty JSON body', payload: '', status: 400, message: /body is empty/ },
  { name: 'a JSON array', payload: '[]', status: 400, message: /must be a JSON object/ },
  { name: 'a JSON string', payload: '"a@b.com"', status: 400, message: /must be a JSON object/ },
  { name: 'a JSON number', payload: '42', status: 400, message: /must be a JSON object/ },
  {
    name: 'text/plain',
    contentType: 'text/plain',
    payload: 'emailAddress=a@b.com',
    status: 415,
    message:
      "Request bodies must be JSON: send 'Content-Type: application/json', not 'text/plain'.",
  },
  {
    name: 'a form',
    contentType: 'application/x-www-form-urlencoded',
    payload: 'emailAddress=a%40b.com',
    status: 415,
    message: /must be JSON/,
  },
  { name: 'XML', contentType: 'text/xml', payload: '<a/>', status: 415, message: /must be JSON/ },
  {
    name: 'a body over 1 MiB',
    payload: JSON.stringify({ emailAddress: 'a@b.com', firstName: 'x'.repeat(1024 * 1024) }),
    status: 413,
    message: 'The request body is larger than 1048576 bytes.',
  },
  {
    name: 'an unknown property',
    payload: '{"emailAddress":"new@example.com","shoe":"42"}',
    status: 400,
    message: "Unknown property 'shoe'; expected emailAddress, customFields, firstName, lastName.",
  },
  {
    name: 'a property given twice in different case',
    payload: '{"emailAddress":"new@example.com","EmailAddress":"b@example.com"}',
    status: 400,
    message: /given twice/,
  },
  {
    name: 'the same property given twice',
    payload: '{"emailAddress":"new@example.com","emailAddress":"b@example.com"}',
    status: 400,
    message:
      "The request body is not valid JSON: the name 'emailAddress' is given twice in one object.",
  },
  {
    name: 'the same property twice in a custom field, once escaped',
    payload: '{"emailAddress":"new@example.com","customFields":[{"Name":"City","\\u004eame":"X"}]}',
    status: 400,
    message: "The request body is not valid JSON: the name 'Name' is given twice in one object.",
  },
  {
    name: 'bytes that are not UTF-8 inside a string',
    payload: Buffer.concat([
      Buffer.from('{"emailAddress":"new@example.com","firstName":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]),
    status: 400,
    message: 'The request body is not valid JSON: the bytes are not valid UTF-8 text.',
  },
  {
    name: 'a lone surrogate encoded as UTF-8 (CESU)',
    payload: Buffer.concat([
      Buffer.from('{"emailAddress":"new@example.com","firstName":"'),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from('"}'),
    ]),
    status: 400,
    message: 'The request body is not valid JSON: the bytes are not valid UTF-8 text.',
  },
  {
    name: 'Latin-1 bytes sent as JSON',
    url: UNSUBSCRIBE,
    method: 'POST',
    payload: Buffer.from('{"emailAddress":"jos\xe9@example.com"}', 'latin1'),
    status: 400,
    message: 'The request body is not valid JSON: the bytes are not valid UTF-8 text.',
  },
  {
    name: '__proto__ as a JSON key',
    payload: '{"emailAddress":"new@example.com","__proto__":{"x":1}}',
    status: 400,
    message: /not valid JSON|Unknown property/,
  },
  {
    name: 'constructor.prototype as a JSON key',
    payload: '{"emailAddress":"new@example.com","constructor":{"prototype":{"x":1}}}',
    status: 400,
    message: /not valid JSON|Unknown property/,
  },
  {
    name: 'customFields not an array',
    payload: '{"emailAddress":"new@example.com","customFields":{"City":"X"}}',
    status: 400,
    message: "'customFields' must be an array of { Name, Value } objects.",
  },
  {
    name: 'a custom field item that is not an object',
    payload: '{"emailAddress":"new@example.com","customFields":["City"]}',
    status: 400,
    message: "'customFields[0]' must be an object with Name and Value.",
  },
  {
    name: 'a custom field without Name',
    payload: '{"emailAddress":"new@example.com","customFields":[{"Value":"X"}]}',
    status: 400,
    message: "'customFields[0].Name' must be a string.",
  },
  {
    name: 'a custom field with a number Value',
    payload: '{"emailAddress":"new@example.com","customFields":[{"Name":"City","Value":5}]}',
    status: 400,
    message: "'customFields[0].Value' must be a string.",
  },
  {
    name: 'a custom field with an extra key',
    payload:
      '{"emailAddress":"new@example.com","customFields":[{"Name":"City","Value":"X","Type":"S"}]}',
    status: 400,
    message: /Unknown property 'Type'/,
  },
  {
    name: '__proto__ as a custom field name',
    payload: '{"emailAddress":"new@example.com","customFields":[{"Name":"__proto__","Value":"X"}]}',
    status: 400,
    message: "The custom field '__proto__' does not exist.",
  },
  {
    name: 'firstName as a number',
    payload: '{"emailAddress":"new@example.com","firstName":5}',
    status: 400,
    message: "'firstName' must be a string.",
  },
  {
    name: 'deeply nested JSON',
    payload: `{"emailAddress":"new@example.com","customFields":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    status: 400,
    message: /./,
  },
  {
    name: 'unsubscribe with an unknown property',
    url: UNSUBSCRIBE,
    method: 'POST',
    payload: '{"email":"ann@example.com"}',
    status: 400,
    message: "Unknown property 'email'; expected emailAddress.",
  },
  {
    name: 'unsubscribe with malformed JSON',
    url: UNSUBSCRIBE,
    method: 'POST',
    payload: '{',
    status: 400,
    message: /not valid JSON/,
  },
  {
    name: 'unsubscribe with text/plain',
    url: UNSUBSCRIBE,
    method: 'POST',
    contentType: 'text/plain',
    payload: 'ann@example.com',
    status: 415,
    message: /must be JSON/,
  },
];

describe('bad input never crashes, never gets a 500, and changes nothing', () => {
  it.each(cases)('$name -> $status', async (bad) => {
    const before = fake.exportState();
    const response = await fake.inject({
      method: bad.method ?? 'PUT',
      url: bad.url ?? ADD,
      headers: { authorization: AUTH, 'content-type': bad.contentType ?? 'application/json' },
      payload: bad.payload,
    });
    expect(response.statusCode).toBe(bad.status);
    const { message } = JSON.parse(response.body) as { message: string };
    if (typeof bad.message === 'string') expect(message).toBe(bad.message);
    else expect(message).toMatch(bad.message);
    expect(fake.exportState()).toEqual(before);
  });

  it('a UTF-8 byte order mark before the JSON is skipped, as .NET readers do', async () => {
    const response = await fake.inject({
      method: 'PUT',
      url: ADD,
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      payload: Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('{"emailAddress":"bom@example.com"}'),
      ]),
    });
    expect(response.statusCode).toBe(200);
  });

  it('the same name in two different objects is not a repeat', async () => {
    const response = await fake.inject({
      method: 'PUT',
      url: ADD,
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      payload:
        '{"emailAddress":"two@example.com","customFields":[{"Name":"City","Value":"A"},{"Name":"FirstName","Value":"B"}]}',
    });
    expect(response.statusCode).toBe(200);
  });

  it('bad bytes and repeated names get the XML envelope when XML is asked for', async () => {
    for (const payload of [
      Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
      '{"emailAddress":"a@b.com","emailAddress":"a@b.com"}',
    ]) {
      const response = await fake.inject({
        method: 'PUT',
        url: ADD,
        headers: {
          authorization: AUTH,
          'content-type': 'application/json',
          accept: 'application/xml',
        },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toMatch(/xml/);
      expect(response.body).toMatch(
        /^<\?xml[^>]*\?><Error><Message>The request body is not valid JSON: /,
      );
    }
  });

  it('a malformed URL is a 400 in the error envelope', async () => {
    const response = await fake.inject({
      url: '/marketing/v1/%zz',
      headers: { authorization: AUTH },
    });
    expect(response.statusCode).toBe(400);
    expect(JSON.parse(response.body)).toEqual({
      message: 'The URL /marketing/v1/%zz is malformed.',
    });
  });

  it('a body on a route that takes none is ignored', async () => {
    const response = await fake.inject({
      method: 'PUT',
      url: '/marketing/v1/lists/2/contacts/1',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      payload: '{"anything":true}',
    });
    expect(response.statusCode).toBe(200);
  });

  it('a very long custom field name is the 409 length message, not a router error', async () => {
    const response = await fake.inject({
      method: 'POST',
      url: `/marketing/v1/customfields/${'%C3%A9'.repeat(300)}`,
      headers: { authorization: AUTH },
    });
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body)).toEqual({
      message: 'The field Name must be a string with a maximum length of 50.',
    });
  });
});
