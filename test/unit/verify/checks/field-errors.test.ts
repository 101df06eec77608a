import { describe, expect, it } from 'vitest';
import type { Check } from '../../../../src/verify/check-kit.js';
import { FIELD_ERROR_CHECKS } from '../../../../src/verify/checks/field-errors.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, mismatchOf, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const RESERVED = 'That name is system reserved, please choose another.';
const TOO_LONG = 'The field Name must be a string with a maximum length of 50.';
const LONG_NAME = `FmsVerify0123456789ab${'x'.repeat(30)}`;

const check = (id: string): Check => {
  const found = FIELD_ERROR_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

/** A 409 carrying `message`, in the format the call asked for (`xmlStatus` for XML). */
const conflict =
  (message: string, xmlStatus = 409) =>
  (call: Call): Answer =>
    call.accept === 'text/xml'
      ? xml(xmlStatus, `<Error><Message>${message}</Message></Error>`)
      : json(409, { message });

const post = (name: string, accept: Call['accept'] = 'application/json') => ({
  method: 'POST',
  path: `/customfields/${name}`,
  accept,
});

describe('errors.reserved-name', () => {
  it('asks for six spellings in JSON, then EmailAddress in XML, each a 409 with the message', async () => {
    const { tools, calls, made } = scriptedTools(conflict(RESERVED));
    await expect(check('errors.reserved-name').expect(tools)).resolves.toBe(
      `409 '${RESERVED}' for 6 spellings, JSON and XML`,
    );
    expect(calls).toEqual([
      ...['EmailAddress', 'ContactId', 'Id', 'emailaddress', 'CONTACTID', 'iD'].map((name) =>
        post(name),
      ),
      post('EmailAddress', 'text/xml'),
    ]);
    expect(made).toEqual([]);
  });

  it('names the spelling that got another status', async () => {
    const { tools } = scriptedTools((call, index) =>
      index === 2 ? json(201, { customFieldNameId: 5 }) : conflict(RESERVED)(call),
    );
    const mismatch = await mismatchOf(check('errors.reserved-name').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['Id: status 409', 'Id: status 201']);
  });

  it('names the spelling whose 409 has another message', async () => {
    const { tools } = scriptedTools((call, index) =>
      index === 3 ? json(409, { message: 'taken' }) : conflict(RESERVED)(call),
    );
    const mismatch = await mismatchOf(check('errors.reserved-name').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      `emailaddress: message ${JSON.stringify(RESERVED)}`,
      'emailaddress: message "taken"',
    ]);
  });

  it('fails an XML answer that is not 409, saying it is the XML one', async () => {
    const { tools } = scriptedTools(conflict(RESERVED, 400));
    const mismatch = await mismatchOf(check('errors.reserved-name').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['XML: status 409', 'XML: status 400']);
  });

  it('fails an XML 409 without the message', async () => {
    const { tools } = scriptedTools((call) =>
      call.accept === 'text/xml'
        ? xml(409, '<Error><Message>no</Message></Error>')
        : conflict(RESERVED)(call),
    );
    const mismatch = await mismatchOf(check('errors.reserved-name').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      `XML: a Message element with the text ${JSON.stringify(RESERVED)}`,
      'XML: Message "no"',
    ]);
  });
});

describe('errors.name-too-long', () => {
  it('asks for a name of 51 characters in JSON then XML, each a 409 with the message', async () => {
    expect(LONG_NAME).toHaveLength(51);
    const { tools, calls } = scriptedTools(conflict(TOO_LONG));
    await expect(check('errors.name-too-long').expect(tools)).resolves.toBe(
      `409 '${TOO_LONG}', JSON and XML`,
    );
    expect(calls).toEqual([post(LONG_NAME), post(LONG_NAME, 'text/xml')]);
  });

  it('fails a JSON answer that is not 409, with no label', async () => {
    const { tools, calls } = scriptedTools(() => json(400, { message: TOO_LONG }));
    const mismatch = await mismatchOf(check('errors.name-too-long').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['status 409', 'status 400']);
    expect(calls).toHaveLength(1);
  });

  it('fails a JSON 409 with another message', async () => {
    const { tools } = scriptedTools(() => json(409, { message: RESERVED }));
    const mismatch = await mismatchOf(check('errors.name-too-long').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      `message ${JSON.stringify(TOO_LONG)}`,
      `message ${JSON.stringify(RESERVED)}`,
    ]);
  });

  it('fails an XML answer that is not 409, saying it is the XML one', async () => {
    const { tools } = scriptedTools(conflict(TOO_LONG, 400));
    const mismatch = await mismatchOf(check('errors.name-too-long').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['XML: status 409', 'XML: status 400']);
  });

  it('fails an XML 409 with another message, saying it is the XML one', async () => {
    const { tools } = scriptedTools((call) =>
      call.accept === 'text/xml' ? conflict(RESERVED)(call) : conflict(TOO_LONG)(call),
    );
    const mismatch = await mismatchOf(check('errors.name-too-long').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      `XML: a Message element with the text ${JSON.stringify(TOO_LONG)}`,
      `XML: Message ${JSON.stringify(RESERVED)}`,
    ]);
  });
});

describe('errors.forbidden-characters', () => {
  const NAME = 'Fms<b>Verify0123456789ab';

  it('asks for a name with an HTML tag in JSON then XML, and takes any 4xx', async () => {
    const { tools, calls } = scriptedTools((call) =>
      call.accept === 'text/xml' ? xml(422, '<Error/>') : json(400, { message: 'no' }),
    );
    await expect(check('errors.forbidden-characters').expect(tools)).resolves.toBe(
      '400, 422: refused, in JSON and XML',
    );
    expect(calls).toEqual([
      post(encodeURIComponent(NAME)),
      post(encodeURIComponent(NAME), 'text/xml'),
    ]);
  });

  it('fails a refusal in the other format, saying it is the XML one', async () => {
    const { tools } = scriptedTools(() => json(400, { message: 'no' }));
    const mismatch = await mismatchOf(check('errors.forbidden-characters').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual([
      'XML: an error answer with Content-Type text/xml, as Accept chose',
      'XML: Content-Type application/json; charset=utf-8',
    ]);
  });

  it('fails a name that is created, and the field is deleted again', async () => {
    const { tools, made } = scriptedTools(() => json(201, { customFieldNameId: 9 }));
    const mismatch = await mismatchOf(check('errors.forbidden-characters').expect(tools));
    expect([mismatch.wanted, mismatch.got]).toEqual(['a refusal (4xx)', 'status 201']);
    expect(made.map((entry) => entry.what)).toEqual([`the custom field ${NAME} (id 9)`]);
  });
});
