import { beforeEach, describe, expect, it } from 'vitest';
import { API_ERRORS, ApiError } from '../../../src/domain/errors.js';
import { Tenant } from '../../../src/domain/tenant.js';
import { thrownBy } from '../../helpers/thrown.js';

function tenantWithNames(maxContacts = 10): Tenant {
  const tenant = new Tenant(1234, 'key', maxContacts);
  tenant.insertField({ id: 1, name: 'FirstName' });
  tenant.insertField({ id: 2, name: 'LastName' });
  tenant.insertField({ id: 3, name: 'City' });
  tenant.insertList({ id: 1, name: 'Newsletter' });
  tenant.insertList({ id: 2, name: 'Customers' });
  return tenant;
}

function values(tenant: Tenant, email: string): Record<string, string> {
  return tenant.customFieldsOf(tenant.contactByEmail(email)!.id);
}

const listsOf = (tenant: Tenant, contactId: number) => tenant.listIdsOf(contactId);

/** Runs `action`, expects an ApiError with `code`, and that the tenant did not change. */
function expectRejected(tenant: Tenant, action: () => unknown, code: keyof typeof API_ERRORS) {
  const before = JSON.stringify(tenant.snapshot());
  const caught = thrownBy(action, ApiError);
  expect(caught.code).toBe(code);
  expect(caught.status).toBe(API_ERRORS[code].status);
  expect(JSON.stringify(tenant.snapshot())).toBe(before);
  return caught;
}

describe('add to list by email', () => {
  let tenant: Tenant;
  beforeEach(() => {
    tenant = tenantWithNames();
  });

  it('rule 1: an unknown address creates the contact and adds it to the list', () => {
    const result = tenant.addToListByEmail(1, { emailAddress: 'ann@example.com' });
    expect(result).toEqual({ serverId: 1234, contactId: 1, listId: 1 });
    expect(tenant.contacts.size).toBe(1);
    expect(tenant.contactByEmail('ann@example.com')).toMatchObject({ id: 1, status: 'Active' });
    expect(listsOf(tenant, 1)).toEqual([1]);
  });

  it('rule 2: a known address (any case) adds that same contact', () => {
    tenant.addToListByEmail(1, { emailAddress: 'Ann@Example.com' });
    const result = tenant.addToListByEmail(2, { emailAddress: 'ANN@example.COM' });
    expect(result.contactId).toBe(1);
    expect(tenant.contacts.size).toBe(1);
    expect(listsOf(tenant, 1)).toEqual([1, 2]);
    expect(tenant.contactByEmail('ann@example.com')?.emailAddress).toBe('Ann@Example.com');
  });

  it('re-adding a contact already on the list succeeds and changes nothing', () => {
    tenant.addToListByEmail(1, { emailAddress: 'ann@example.com' });
    const before = JSON.stringify(tenant.snapshot());
    expect(tenant.addToListByEmail(1, { emailAddress: 'ann@example.com' })).toEqual({
      serverId: 1234,
      contactId: 1,
      listId: 1,
    });
    expect(JSON.stringify(tenant.snapshot())).toBe(before);
  });

  it('rule 3: an unknown custom field fails, naming the field, and creates nothing', () => {
    const error = expectRejected(
      tenant,
      () =>
        tenant.addToListByEmail(1, {
          emailAddress: 'ann@example.com',
          customFields: [{ name: 'Shoe', value: '42' }],
        }),
      'UNKNOWN_CUSTOM_FIELD',
    );
    expect(error.message).toBe("The custom field 'Shoe' does not exist.");
  });

  it('rule 3: custom field names match case-insensitively', () => {
    tenant.addToListByEmail(1, {
      emailAddress: 'ann@example.com',
      customFields: [{ name: 'city', value: 'Lisbon' }],
    });
    expect(values(tenant, 'ann@example.com')).toEqual({ City: 'Lisbon' });
  });

  it('rule 3: omitted custom fields leave an existing contact unchanged; given ones update it', () => {
    tenant.addToListByEmail(1, {
      emailAddress: 'ann@example.com',
      customFields: [
        { name: 'City', value: 'Lisbon' },
        { name: 'LastName', value: 'Lee' },
      ],
    });
    tenant.addToListByEmail(2, { emailAddress: 'ann@example.com' });
    expect(values(tenant, 'ann@example.com')).toEqual({ City: 'Lisbon', LastName: 'Lee' });
    tenant.addToListByEmail(2, {
      emailAddress: 'ann@example.com',
      customFields: [{ name: 'City', value: 'Porto' }],
    });
    expect(values(tenant, 'ann@example.com')).toEqual({ City: 'Porto', LastName: 'Lee' });
  });

  it('rule 4: firstName/lastName fill FirstName/LastName of a new contact', () => {
    tenant.addToListByEmail(1, {
      emailAddress: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
    });
    expect(values(tenant, 'ann@example.com')).toEqual({ FirstName: 'Ann', LastName: 'Lee' });
  });

  it('rule 4: firstName/lastName are ignored for an existing contact', () => {
    tenant.addToListByEmail(1, { emailAddress: 'ann@example.com', firstName: 'Ann' });
    tenant.addToListByEmail(2, {
      emailAddress: 'ann@example.com',
      firstName: 'Anna',
      lastName: 'X',
    });
    expect(values(tenant, 'ann@example.com')).toEqual({ FirstName: 'Ann' });
  });

  it('rule 4: a CustomFields value for the same field wins over firstName', () => {
    tenant.addToListByEmail(1, {
      emailAddress: 'ann@example.com',
      firstName: 'Ann',
      customFields: [{ name: 'firstname', value: 'Annie' }],
    });
    expect(values(tenant, 'ann@example.com')).toEqual({ FirstName: 'Annie' });
  });

  it.each([
    ['firstName', { firstName: 'Ann' }, 'FirstName'],
    ['lastName', { lastName: 'Lee' }, 'LastName'],
  ])('rule 4: %s without that field fails, for new and existing contacts', (_, names, field) => {
    const bare = new Tenant(1234, 'key', 10);
    bare.insertList({ id: 1, name: 'Newsletter' });
    const error = expectRejected(
      bare,
      () => bare.addToListByEmail(1, { emailAddress: 'ann@example.com', ...names }),
      'UNKNOWN_CUSTOM_FIELD',
    );
    expect(error.message).toBe(`The custom field '${field}' does not exist.`);
    bare.addToListByEmail(1, { emailAddress: 'ann@example.com' });
    expectRejected(
      bare,
      () => bare.addToListByEmail(1, { emailAddress: 'ann@example.com', ...names }),
      'UNKNOWN_CUSTOM_FIELD',
    );
  });

  it.each([[undefined], [''], ['ann'], ['ann@example'], [42]])(
    'rule 5: email %j is a 400 and changes nothing',
    (emailAddress) => {
      expectRejected(tenant, () => tenant.addToListByEmail(1, { emailAddress }), 'INVALID_EMAIL');
    },
  );

  it('rule 6: a new contact beyond the cap is a 403; existing contacts are still added', () => {
    const small = tenantWithNames(2);
    small.addToListByEmail(1, { emailAddress: 'a@example.com' });
    small.addToListByEmail(1, { emailAddress: 'b@example.com' });
    small.unsubscribe(2); // unsubscribed contacts still count
    const error = expectRejected(
      small,
      () => small.addToListByEmail(1, { emailAddress: 'c@example.com' }),
      'CONTACT_LIMIT',
    );
    expect(error.status).toBe(403);
    expect(small.addToListByEmail(2, { emailAddress: 'B@example.com' }).contactId).toBe(2);
  });

  it('an unknown list is a 404 and creates no contact', () => {
    expectRejected(
      tenant,
      () => tenant.addToListByEmail(9, { emailAddress: 'ann@example.com' }),
      'LIST_NOT_FOUND',
    );
  });

  it('an unsubscribed contact can be added and stays Unsubscribed', () => {
    tenant.addToListByEmail(1, { emailAddress: 'ann@example.com' });
    tenant.unsubscribe(1);
    tenant.addToListByEmail(2, { emailAddress: 'ann@example.com' });
    expect(tenant.contacts.get(1)?.status).toBe('Unsubscribed');
    expect(listsOf(tenant, 1)).toEqual([1, 2]);
  });
});

describe('add to list by id, remove, unsubscribe', () => {
  let tenant: Tenant;
  beforeEach(() => {
    tenant = tenantWithNames();
    tenant.addToListByEmail(1, { emailAddress: 'ann@example.com' });
    tenant.addToListByEmail(2, { emailAddress: 'ann@example.com' });
  });

  it('adds an existing contact by id, idempotently', () => {
    tenant.removeFromList(2, 1);
    expect(tenant.addToListById(2, 1)).toEqual({ serverId: 1234, contactId: 1, listId: 2 });
    expect(tenant.addToListById(2, 1)).toEqual({ serverId: 1234, contactId: 1, listId: 2 });
    expect(listsOf(tenant, 1)).toEqual([1, 2]);
  });

  it.each([
    [9, 1, 'LIST_NOT_FOUND'],
    [1, 9, 'CONTACT_NOT_FOUND'],
  ] as const)('add by id (list %i, contact %i) -> %s', (listId, contactId, code) => {
    expectRejected(tenant, () => tenant.addToListById(listId, contactId), code);
  });

  it('removal takes the contact off one list only, and the contact stays', () => {
    tenant.removeFromList(1, 1);
    expect(listsOf(tenant, 1)).toEqual([2]);
    tenant.removeFromList(1, 1); // not on the list: still fine
    expect(listsOf(tenant, 1)).toEqual([2]);
  });

  it('removal by email is case-insensitive', () => {
    tenant.removeFromListByEmail(2, 'ANN@example.com');
    expect(listsOf(tenant, 1)).toEqual([1]);
  });

  it.each([
    [() => (t: Tenant) => t.removeFromList(9, 1), 'LIST_NOT_FOUND'],
    [() => (t: Tenant) => t.removeFromList(1, 9), 'CONTACT_NOT_FOUND'],
    [() => (t: Tenant) => t.removeFromListByEmail(1, 'zed@example.com'), 'CONTACT_EMAIL_NOT_FOUND'],
    [() => (t: Tenant) => t.removeFromListByEmail(1, 'not-an-address'), 'INVALID_EMAIL'],
    [() => (t: Tenant) => t.removeFromListByEmail(9, 'ann@example.com'), 'LIST_NOT_FOUND'],
  ] as const)('removal errors %#', (make, code) => {
    expectRejected(tenant, () => make()(tenant), code);
  });

  it('unsubscribe is server-wide, keeps lists, and repeats harmlessly', () => {
    tenant.unsubscribe(1);
    tenant.unsubscribe(1);
    expect(tenant.contacts.get(1)?.status).toBe('Unsubscribed');
    expect(listsOf(tenant, 1)).toEqual([1, 2]);
  });

  it('unsubscribe by email matches case-insensitively', () => {
    tenant.unsubscribeByEmail('Ann@EXAMPLE.com');
    expect(tenant.contacts.get(1)?.status).toBe('Unsubscribed');
  });

  it.each([
    [(t: Tenant) => t.unsubscribe(9), 'CONTACT_NOT_FOUND'],
    [(t: Tenant) => t.unsubscribeByEmail('zed@example.com'), 'CONTACT_EMAIL_NOT_FOUND'],
    [(t: Tenant) => t.unsubscribeByEmail(undefined), 'INVALID_EMAIL'],
    [(t: Tenant) => t.unsubscribeByEmail('zed'), 'INVALID_EMAIL'],
  ] as const)('unsubscribe errors %#', (action, code) => {
    expectRejected(tenant, () => action(tenant), code);
  });
});

describe('custom fields', () => {
  it('creates a field with the next id and the name as given', () => {
    const tenant = tenantWithNames();
    expect(tenant.createField('Shoe Size')).toEqual({ id: 4, name: 'Shoe Size' });
    expect(tenant.fieldByName('shoe size')?.id).toBe(4);
  });

  it.each([
    ['', 'FIELD_NAME_LENGTH', 'The field Name must be a string with a maximum length of 50.'],
    [
      'x'.repeat(51),
      'FIELD_NAME_LENGTH',
      'The field Name must be a string with a maximum length of 50.',
    ],
    ['<b>', 'FIELD_NAME_CHARACTERS', 'The field Name contains characters that are not allowed.'],
    ['EmailAddress', 'FIELD_RESERVED', 'That name is system reserved, please choose another.'],
    ['CONTACTID', 'FIELD_RESERVED', 'That name is system reserved, please choose another.'],
    ['id', 'FIELD_RESERVED', 'That name is system reserved, please choose another.'],
    ['city', 'FIELD_EXISTS', "The field 'city' can't be created because it already exists."],
  ] as const)('%j -> %s', (name, code, message) => {
    const tenant = tenantWithNames();
    expect(expectRejected(tenant, () => tenant.createField(name), code).message).toBe(message);
  });

  it('allows 20 fields and refuses the 21st', () => {
    const tenant = tenantWithNames();
    for (let i = 4; i <= 20; i++) tenant.createField(`Field${i}`);
    expect(tenant.fields.size).toBe(20);
    const error = expectRejected(tenant, () => tenant.createField('One too many'), 'FIELD_LIMIT');
    expect(error.message).toBe(
      'You have exceeded the maximum number of Custom Field Names allowed.',
    );
  });

  it('checks the name before the limit: a reserved name at 20 fields says reserved', () => {
    const tenant = tenantWithNames();
    for (let i = 4; i <= 20; i++) tenant.createField(`Field${i}`);
    expectRejected(tenant, () => tenant.createField('Id'), 'FIELD_RESERVED');
    expectRejected(tenant, () => tenant.createField('City'), 'FIELD_EXISTS');
  });

  it('deleting a field deletes its values on every contact, and its id is not reused', () => {
    const tenant = tenantWithNames();
    for (const email of ['a@example.com', 'b@example.com']) {
      tenant.addToListByEmail(1, {
        emailAddress: email,
        customFields: [
          { name: 'City', value: 'Lisbon' },
          { name: 'FirstName', value: 'A' },
        ],
      });
    }
    tenant.deleteField(3);
    expect(values(tenant, 'a@example.com')).toEqual({ FirstName: 'A' });
    expect(values(tenant, 'b@example.com')).toEqual({ FirstName: 'A' });
    expect(tenant.fieldByName('City')).toBeUndefined();
    expect(tenant.createField('City').id).toBe(4);
    expect(values(tenant, 'a@example.com')).toEqual({ FirstName: 'A' });
  });

  it('deleting an unknown or already deleted field is a 404', () => {
    const tenant = tenantWithNames();
    tenant.deleteField(3);
    expectRejected(tenant, () => tenant.deleteField(3), 'CUSTOM_FIELD_NOT_FOUND');
    expectRejected(tenant, () => tenant.deleteField(99), 'CUSTOM_FIELD_NOT_FOUND');
  });
});

describe('snapshot and restore', () => {
  it('restore(snapshot()) rebuilds the same tenant, ids included', () => {
    const tenant = tenantWithNames();
    tenant.addToListByEmail(1, {
      emailAddress: 'a@example.com',
      customFields: [{ name: 'City', value: 'X' }],
    });
    tenant.createField('Gone');
    tenant.deleteField(4);
    const copy = Tenant.restore(tenant.snapshot());
    expect(copy.snapshot()).toEqual(tenant.snapshot());
    expect(copy.createField('Next').id).toBe(5);
    expect(copy.contactByEmail('A@EXAMPLE.COM')?.id).toBe(1);
  });

  it('a restored tenant shares no mutable state with the snapshot', () => {
    const tenant = tenantWithNames();
    tenant.addToListByEmail(1, { emailAddress: 'a@example.com' });
    const snapshot = tenant.snapshot();
    const copy = Tenant.restore(snapshot);
    copy.addToListByEmail(2, { emailAddress: 'a@example.com' });
    expect(Tenant.restore(snapshot).listIdsOf(1)).toEqual([1]);
  });
});
