import { describe, expect, it } from 'vitest';
import { call, elementOrder, useFake } from '../../../helpers/fake.js';

const fake = useFake();

const RESERVED = 'That name is system reserved, please choose another.';
const TOO_LONG = 'The field Name must be a string with a maximum length of 50.';
const LIMIT = 'You have exceeded the maximum number of Custom Field Names allowed.';
const CHARACTERS = 'The field Name contains characters that are not allowed.';

describe('GET /customfields', () => {
  it('lists every field in JSON', async () => {
    const response = await call(fake, 'GET', 'customfields');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual([
      { customFieldNameId: 1, name: 'FirstName', serverId: 1234, customFieldType: 'String' },
      { customFieldNameId: 2, name: 'LastName', serverId: 1234, customFieldType: 'String' },
      { customFieldNameId: 3, name: 'City', serverId: 1234, customFieldType: 'String' },
    ]);
  });

  it('lists ArrayOfCustomField/CustomField in XML, elements in order', async () => {
    const response = await call(fake, 'GET', 'customfields', { accept: 'text/xml' });
    const parsed = response.xml() as { ArrayOfCustomField: { CustomField: unknown[] } };
    expect(parsed.ArrayOfCustomField.CustomField[2]).toEqual({
      CustomFieldNameId: '3',
      CustomFieldType: 'String',
      Name: 'City',
      ServerId: '1234',
    });
    expect(elementOrder(response.body, 'CustomField')[0]).toEqual([
      'CustomFieldNameId',
      'CustomFieldType',
      'Name',
      'ServerId',
    ]);
  });
});

describe('POST /customfields/{name}', () => {
  it('creates the field: 200 with the field, in JSON and XML', async () => {
    const json = await call(fake, 'POST', 'customfields/Shoe%20Size');
    expect(json.status).toBe(200);
    expect(json.json()).toEqual({
      customFieldNameId: 4,
      name: 'Shoe Size',
      serverId: 1234,
      customFieldType: 'String',
    });
    const xml = await call(fake, 'POST', 'customfields/Company', { accept: 'text/xml' });
    expect(xml.status).toBe(200);
    expect(xml.xml()).toEqual({
      CustomField: {
        CustomFieldNameId: '5',
        CustomFieldType: 'String',
        Name: 'Company',
        ServerId: '1234',
      },
    });
    expect(
      fake
        .server(1234)
        .customFields()
        .map((f) => f.name),
    ).toContain('Shoe Size');
  });

  it('accepts 50 characters', async () => {
    expect((await call(fake, 'POST', `customfields/${'x'.repeat(50)}`)).status).toBe(200);
  });

  it.each([
    ['Id', 409, RESERVED],
    ['EMAILADDRESS', 409, RESERVED],
    ['contactid', 409, RESERVED],
    ['city', 409, "The field 'city' can't be created because it already exists."],
    ['CITY', 409, "The field 'CITY' can't be created because it already exists."],
    ['x'.repeat(51), 409, TOO_LONG],
    ['', 409, TOO_LONG],
    ['%3Cb%3E', 400, CHARACTERS],
    ['a%3Eb', 400, CHARACTERS],
    // length is checked first, then characters, then reserved names
    [`%3C${'x'.repeat(50)}`, 409, TOO_LONG],
  ])('%s -> %i with the exact message, in JSON and XML', async (name, status, message) => {
    const before = fake.exportState();
    const json = await call(fake, 'POST', `customfields/${name}`);
    expect(json.status).toBe(status);
    expect(json.json()).toEqual({ message });
    const xml = await call(fake, 'POST', `customfields/${name}`, { accept: 'text/xml' });
    expect(xml.status).toBe(status);
    expect(xml.xml()).toEqual({ Error: { Message: message } });
    expect(fake.exportState()).toEqual(before);
  });

  it('the 21st field is refused with 409', async () => {
    for (let i = 4; i <= 20; i++)
      expect((await call(fake, 'POST', `customfields/F${i}`)).status).toBe(200);
    const response = await call(fake, 'POST', 'customfields/F21');
    expect(response.status).toBe(409);
    expect(response.json()).toEqual({ message: LIMIT });
    expect(fake.server(1234).customFields()).toHaveLength(20);
  });

  it('the 409 name echo quotes the name as sent, with XML-escaping in XML', async () => {
    await call(fake, 'POST', 'customfields/A%26B');
    const xml = await call(fake, 'POST', 'customfields/a%26b', { accept: 'text/xml' });
    expect(xml.body).toContain(
      "<Message>The field 'a&amp;b' can't be created because it already exists.</Message>",
    );
    expect(xml.xml()).toEqual({
      Error: { Message: "The field 'a&b' can't be created because it already exists." },
    });
  });
});

describe('DELETE /customfields/{customFieldNameId}', () => {
  it('204, and the values under it are gone from every contact', async () => {
    await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'ben@example.com', customFields: [{ Name: 'City', Value: 'Lima' }] },
    });
    const response = await call(fake, 'DELETE', 'customfields/3');
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    const contacts = fake.server(1234).contacts();
    expect(contacts.every((contact) => !('City' in contact.customFields))).toBe(true);
    expect(fake.server(1234).contact(1)?.customFields).toEqual({ FirstName: 'Ann' });
  });

  it('a re-created field with the same name starts empty and gets a new id', async () => {
    await call(fake, 'DELETE', 'customfields/3');
    const created = await call(fake, 'POST', 'customfields/City');
    expect(created.json()).toMatchObject({ customFieldNameId: 4, name: 'City' });
    expect(fake.server(1234).contact(1)?.customFields).toEqual({ FirstName: 'Ann' });
  });

  it('after deletion, naming the field in add-by-email fails', async () => {
    await call(fake, 'DELETE', 'customfields/3');
    const response = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'dee@example.com', customFields: [{ Name: 'City', Value: 'X' }] },
    });
    expect(response.status).toBe(400);
  });

  it.each(['99', '3'])('unknown or already deleted id %s -> 404', async (id) => {
    if (id === '3') await call(fake, 'DELETE', 'customfields/3');
    const response = await call(fake, 'DELETE', `customfields/${id}`, { accept: 'text/xml' });
    expect(response.status).toBe(404);
    expect(response.xml()).toEqual({ Error: { Message: `Custom field ${id} does not exist.` } });
  });

  it("cannot delete another server's field", async () => {
    const response = await call(fake, 'DELETE', 'customfields/1', {
      auth: `Basic ${Buffer.from('56789:key-56789').toString('base64')}`,
    });
    expect(response.status).toBe(404);
    expect(fake.server(1234).customFields()).toHaveLength(3);
  });
});
