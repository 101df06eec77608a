import { describe, expect, it } from 'vitest';
import { call, elementOrder, useFake } from '../../../helpers/fake.js';

const fake = useFake();

const view = () => fake.server(1234);

describe('PUT /lists/{listId}/contacts/{contactId}', () => {
  it('adds an existing contact and answers the membership result (JSON)', async () => {
    const response = await call(fake, 'PUT', 'lists/2/contacts/1');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ serverId: 1234, contactId: 1, listId: 2 });
    expect(view().contact(1)?.listIds).toEqual([1, 2]);
  });

  it('answers ListContact with ContactId, ListId, ServerId (XML)', async () => {
    const response = await call(fake, 'PUT', 'lists/2/contacts/1', { accept: 'text/xml' });
    expect(response.xml()).toEqual({
      ListContact: { ContactId: '1', ListId: '2', ServerId: '1234' },
    });
    expect(response.body).toMatch(
      /<ListContact><ContactId>1<\/ContactId><ListId>2<\/ListId><ServerId>1234<\/ServerId><\/ListContact>$/,
    );
  });

  it('re-adding is a success that changes nothing', async () => {
    const before = fake.exportState();
    const response = await call(fake, 'PUT', 'lists/1/contacts/1');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ serverId: 1234, contactId: 1, listId: 1 });
    expect(fake.exportState()).toEqual(before);
  });

  it.each([
    ['lists/9/contacts/1', 'List 9 does not exist.'],
    ['lists/1/contacts/99', 'Contact 99 does not exist.'],
  ])('%s -> 404 in JSON and XML, nothing changes', async (path, message) => {
    const before = fake.exportState();
    const json = await call(fake, 'PUT', path);
    expect(json.status).toBe(404);
    expect(json.json()).toEqual({ message });
    const xml = await call(fake, 'PUT', path, { accept: 'text/xml' });
    expect(xml.status).toBe(404);
    expect(xml.xml()).toEqual({ Error: { Message: message } });
    expect(fake.exportState()).toEqual(before);
  });

  it("cannot reach another server's contact by id", async () => {
    // Contact 3 exists on server 1234 only; server 56789 has contact 1 only.
    const response = await call(fake, 'PUT', 'lists/1/contacts/3', {
      auth: `Basic ${Buffer.from('56789:key-56789').toString('base64')}`,
    });
    expect(response.status).toBe(404);
  });
});

describe('PUT /lists/{listId}/contacts (by email)', () => {
  it('creates an unknown contact and adds it (rule 1)', async () => {
    const response = await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'dee@example.com', customFields: [{ Name: 'City', Value: 'Oslo' }] },
    });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ serverId: 1234, contactId: 4, listId: 2 });
    expect(view().contact('dee@example.com')).toEqual({
      contactId: 4,
      emailAddress: 'dee@example.com',
      status: 'Active',
      customFields: { City: 'Oslo' },
      listIds: [2],
    });
  });

  it('matches an existing contact on email only, case-insensitively (rule 2)', async () => {
    const response = await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'ANN@example.COM' },
    });
    expect(response.json()).toEqual({ serverId: 1234, contactId: 1, listId: 2 });
    expect(view().contacts()).toHaveLength(3);
    expect(view().contact(1)?.emailAddress).toBe('Ann@Example.com');
  });

  it('answers ListContact in XML', async () => {
    const response = await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'dee@example.com' },
      accept: 'application/xml',
    });
    expect(response.xml()).toEqual({
      ListContact: { ContactId: '4', ListId: '2', ServerId: '1234' },
    });
    expect(
      elementOrder(
        response.body.replace('<ListContact>', '<X>').replace('</ListContact>', '</X>'),
        'X',
      ),
    ).toEqual([['ContactId', 'ListId', 'ServerId']]);
  });

  it('accepts property names in any case, as in the request example (CustomFields, Name, Value)', async () => {
    const response = await call(fake, 'PUT', 'lists/1/contacts', {
      body: {
        EmailAddress: 'dee@example.com',
        CustomFields: [{ name: 'city', value: 'Rome' }],
        FIRSTNAME: 'Dee',
      },
    });
    expect(response.status).toBe(200);
    expect(view().contact('dee@example.com')?.customFields).toEqual({
      City: 'Rome',
      FirstName: 'Dee',
    });
  });

  it('keeps existing values when CustomFields are omitted; updates those given (rule 3)', async () => {
    await call(fake, 'PUT', 'lists/2/contacts', { body: { emailAddress: 'ann@example.com' } });
    expect(view().contact(1)?.customFields).toEqual({ FirstName: 'Ann', City: 'Lisbon' });
    await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'ann@example.com', customFields: [{ Name: 'City', Value: 'Porto' }] },
    });
    expect(view().contact(1)?.customFields).toEqual({ FirstName: 'Ann', City: 'Porto' });
  });

  it('an unknown custom field is a 400 naming it, and nothing changes (rule 3)', async () => {
    const before = fake.exportState();
    for (const accept of ['application/json', 'text/xml']) {
      const response = await call(fake, 'PUT', 'lists/1/contacts', {
        accept,
        body: { emailAddress: 'dee@example.com', customFields: [{ Name: 'Shoe', Value: '42' }] },
      });
      expect(response.status).toBe(400);
      const message = "The custom field 'Shoe' does not exist.";
      expect(accept === 'text/xml' ? response.xml() : response.json()).toEqual(
        accept === 'text/xml' ? { Error: { Message: message } } : { message },
      );
    }
    expect(fake.exportState()).toEqual(before);
  });

  it('firstName/lastName fill a new contact, are ignored for an existing one (rule 4)', async () => {
    await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'dee@example.com', firstName: 'Dee', lastName: 'Dow' },
    });
    expect(view().contact('dee@example.com')?.customFields).toEqual({
      FirstName: 'Dee',
      LastName: 'Dow',
    });
    await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'ann@example.com', firstName: 'Changed', lastName: 'Changed' },
    });
    expect(view().contact(1)?.customFields).toEqual({ FirstName: 'Ann', City: 'Lisbon' });
  });

  it('firstName without a FirstName field is a 400, for a known contact too (rule 4)', async () => {
    const before = fake.exportState();
    const auth = `Basic ${Buffer.from('56789:key-56789').toString('base64')}`;
    for (const emailAddress of ['new@example.com', 'ann@example.com']) {
      const response = await call(fake, 'PUT', 'lists/1/contacts', {
        auth,
        body: { emailAddress, firstName: 'A' },
      });
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ message: "The custom field 'FirstName' does not exist." });
    }
    expect(fake.exportState()).toEqual(before);
  });

  it.each([
    [{}],
    [{ emailAddress: '' }],
    [{ emailAddress: 'not-an-address' }],
    [{ emailAddress: 'a b@example.com' }],
    [{ emailAddress: 'a@example' }],
    [{ emailAddress: 42 }],
    [{ emailAddress: null }],
  ])('missing or poorly formatted email %j -> 400, nothing changes (rule 5)', async (body) => {
    const before = fake.exportState();
    const response = await call(fake, 'PUT', 'lists/1/contacts', { body });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      message: 'The email address is missing or poorly formatted.',
    });
    expect(fake.exportState()).toEqual(before);
  });

  it('no body at all -> 400 for the missing address', async () => {
    const response = await call(fake, 'PUT', 'lists/1/contacts');
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({
      message: 'The email address is missing or poorly formatted.',
    });
  });

  it('a new contact beyond the cap is 403; an existing one is still added (rule 6)', async () => {
    fake.setMaxContacts(1234, 3);
    const before = fake.exportState();
    const refused = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'dee@example.com' },
    });
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual({
      message: 'The maximum number of contacts (3) for this server has been reached.',
    });
    const xml = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'dee@example.com' },
      accept: 'text/xml',
    });
    expect(xml.status).toBe(403);
    expect(xml.xml()).toHaveProperty('Error.Message');
    expect(fake.exportState()).toEqual(before);
    const existing = await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'cy@example.com' },
    });
    expect(existing.status).toBe(200);
  });

  it('an unknown list is a 404 and creates no contact', async () => {
    const before = fake.exportState();
    const response = await call(fake, 'PUT', 'lists/9/contacts', {
      body: { emailAddress: 'dee@example.com' },
    });
    expect(response.status).toBe(404);
    expect(fake.exportState()).toEqual(before);
  });

  it('an unsubscribed contact can be added and stays Unsubscribed', async () => {
    const response = await call(fake, 'PUT', 'lists/1/contacts', {
      body: { emailAddress: 'cy@example.com' },
    });
    expect(response.status).toBe(200);
    expect(view().contact(3)).toMatchObject({ status: 'Unsubscribed', listIds: [1] });
  });

  it('changing a contact through one list shows on every list (contacts are shared)', async () => {
    await call(fake, 'PUT', 'lists/2/contacts', {
      body: { emailAddress: 'ben@example.com', customFields: [{ Name: 'City', Value: 'Lima' }] },
    });
    for (const listId of [1, 2]) {
      expect(
        view()
          .listMembers(listId)
          .find((c) => c.contactId === 2)?.customFields,
      ).toEqual({ City: 'Lima' });
    }
  });
});

describe('DELETE /lists/{listId}/contacts/{contactId}', () => {
  it('removes from that list only: 204, the contact stays on its other lists', async () => {
    const response = await call(fake, 'DELETE', 'lists/1/contacts/2');
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(view().contact(2)?.listIds).toEqual([2]);
  });

  it('a contact that is not on the list: 204', async () => {
    expect((await call(fake, 'DELETE', 'lists/2/contacts/1')).status).toBe(204);
  });

  it.each([
    ['lists/9/contacts/1', 'List 9 does not exist.'],
    ['lists/1/contacts/99', 'Contact 99 does not exist.'],
  ])('%s -> 404', async (path, message) => {
    const response = await call(fake, 'DELETE', path, { accept: 'text/xml' });
    expect(response.status).toBe(404);
    expect(response.xml()).toEqual({ Error: { Message: message } });
  });
});

describe('DELETE /lists/{listId}/contacts?emailAddress= (remove by email)', () => {
  it('removes the contact with that address (any case) from the list: 204', async () => {
    const response = await call(fake, 'DELETE', 'lists/2/contacts?emailAddress=BEN%40example.com');
    expect(response.status).toBe(204);
    expect(view().contact(2)?.listIds).toEqual([1]);
  });

  it.each([
    ['lists/1/contacts', 400, 'The email address is missing or poorly formatted.'],
    [
      'lists/1/contacts?emailAddress=nope',
      400,
      'The email address is missing or poorly formatted.',
    ],
    [
      'lists/1/contacts?emailAddress=a@b.com&emailAddress=c@d.com',
      400,
      'The email address is missing or poorly formatted.',
    ],
    [
      'lists/1/contacts?emailAddress=zed@example.com',
      404,
      "No contact has the email address 'zed@example.com'.",
    ],
    ['lists/9/contacts?emailAddress=ben@example.com', 404, 'List 9 does not exist.'],
  ])('%s -> %i', async (path, status, message) => {
    const before = fake.exportState();
    const response = await call(fake, 'DELETE', path);
    expect(response.status).toBe(status);
    expect(response.json()).toEqual({ message });
    expect(fake.exportState()).toEqual(before);
  });
});
