import { ApiError } from './errors.js';
import type {
  AddByEmailRequest,
  Contact,
  ContactSnapshot,
  Content,
  CustomField,
  FieldValue,
  List,
  Membership,
  NextIds,
  TenantSnapshot,
} from './model.js';
import {
  type ContactStatus,
  fieldNameProblem,
  foldCase,
  isValidEmail,
  MAX_CUSTOM_FIELDS,
  MAX_ID,
} from './rules.js';

const FIRST_NAME = 'FirstName';
const LAST_NAME = 'LastName';

/**
 * One server of the service: its credentials, lists, contacts, custom fields and content, with
 * every rule of the Marketing API. Knows nothing of HTTP; rule violations throw ApiError.
 *
 * Memberships are a Set of contact ids per list and values a Map per field: deleting a field
 * drops its values on every contact at once, and a contact costs one small object.
 */
export class Tenant {
  readonly serverId: number;
  maxContacts: number;
  readonly lists = new Map<number, List>();
  readonly contacts = new Map<number, Contact>();
  readonly fields = new Map<number, CustomField>();
  readonly content = new Map<number, Content>();
  private readonly members = new Map<number, Set<number>>();
  private readonly values = new Map<number, Map<number, string>>();
  private readonly contactsByEmail = new Map<string, Contact>();
  private readonly fieldsByName = new Map<string, CustomField>();
  private readonly nextIds: NextIds = { list: 1, contact: 1, field: 1, content: 1 };

  /** The Basic-auth password; it changes with regenerateKey. */
  key: string;
  /** Changes whenever the lists change (only seeding adds lists), so answers can be cached. */
  listsRevision = 0;

  constructor(serverId: number, key: string, maxContacts: number) {
    this.serverId = serverId;
    this.maxContacts = maxContacts;
    this.key = key;
  }

  // ---- lookups --------------------------------------------------------------------------

  contactByEmail(emailAddress: string): Contact | undefined {
    return this.contactsByEmail.get(foldCase(emailAddress));
  }

  fieldByName(name: string): CustomField | undefined {
    return this.fieldsByName.get(foldCase(name));
  }

  /** The lists a contact is on, in list order. */
  listIdsOf(contactId: number): number[] {
    const ids: number[] = [];
    for (const [listId, members] of this.members) if (members.has(contactId)) ids.push(listId);
    return ids;
  }

  /** A contact's values by field name, in field order (own properties, even for `__proto__`). */
  customFieldsOf(contactId: number): Record<string, string> {
    const pairs: [string, string][] = [];
    for (const [fieldId, values] of this.values) {
      const value = values.get(contactId);
      if (value !== undefined) pairs.push([this.fields.get(fieldId)!.name, value]);
    }
    return Object.fromEntries(pairs);
  }

  /** The ids of a list's members, in the order they joined. */
  memberIds(listId: number): ReadonlySet<number> {
    return this.members.get(listId) ?? new Set();
  }

  // ---- the API's rules ------------------------------------------------------------------

  /** PUT /lists/{listId}/contacts/{contactId}. Re-adding is not an error. */
  addToListById(listId: number, contactId: number): Membership {
    const members = this.requireList(listId);
    const contact = this.requireContact(contactId);
    return this.join(members, contact, listId);
  }

  /**
   * PUT /lists/{listId}/contacts. Every check runs before anything changes, so a rejected call
   * leaves the server exactly as it was.
   */
  addToListByEmail(listId: number, request: AddByEmailRequest): Membership {
    const members = this.requireList(listId);
    const { emailAddress } = request;
    if (!isValidEmail(emailAddress)) throw new ApiError('INVALID_EMAIL');
    const values = this.resolveValues(request.customFields ?? []);
    // firstName/lastName are checked on every call but only ever fill in a new contact.
    const nameValues = this.resolveValues([
      ...(request.firstName === undefined ? [] : [{ name: FIRST_NAME, value: request.firstName }]),
      ...(request.lastName === undefined ? [] : [{ name: LAST_NAME, value: request.lastName }]),
    ]);

    const existing = this.contactByEmail(emailAddress);
    if (existing) {
      if (request.customFields !== undefined) this.setValues(existing.id, values);
      return this.join(members, existing, listId);
    }
    if (this.contacts.size >= this.maxContacts) {
      throw new ApiError('CONTACT_LIMIT', { max: this.maxContacts });
    }
    if (this.nextIds.contact > MAX_ID)
      throw new ApiError('ID_LIMIT', { kind: 'contact', max: MAX_ID });
    const contact = this.addContact(this.nextIds.contact, emailAddress, 'Active');
    // A value given in CustomFields for FirstName/LastName wins over firstName/lastName.
    this.setValues(contact.id, nameValues);
    this.setValues(contact.id, values);
    return this.join(members, contact, listId);
  }

  /** DELETE /lists/{listId}/contacts/{contactId}: the contact stays on its other lists. */
  removeFromList(listId: number, contactId: number): void {
    const members = this.requireList(listId);
    members.delete(this.requireContact(contactId).id);
  }

  /** DELETE /lists/{listId}/contacts?emailAddress=... */
  removeFromListByEmail(listId: number, emailAddress: unknown): void {
    const members = this.requireList(listId);
    members.delete(this.requireContactByEmail(emailAddress).id);
  }

  /** POST /contacts/unsubscribe/{contactId}: server-wide, and unsubscribing twice is fine. */
  unsubscribe(contactId: number): void {
    this.requireContact(contactId).status = 'Unsubscribed';
  }

  /** POST /contacts/unsubscribe with { emailAddress }. */
  unsubscribeByEmail(emailAddress: unknown): void {
    this.requireContactByEmail(emailAddress).status = 'Unsubscribed';
  }

  /** POST /customfields/{name}, with the checks in the order the contract fixes. */
  createField(name: unknown): CustomField {
    switch (fieldNameProblem(name)) {
      case 'length':
        throw new ApiError('FIELD_NAME_LENGTH');
      case 'characters':
        throw new ApiError('FIELD_NAME_CHARACTERS');
      case 'reserved':
        throw new ApiError('FIELD_RESERVED');
    }
    const fieldName = name as string;
    if (this.fieldByName(fieldName)) throw new ApiError('FIELD_EXISTS', { name: fieldName });
    if (this.fields.size >= MAX_CUSTOM_FIELDS) throw new ApiError('FIELD_LIMIT');
    if (this.nextIds.field > MAX_ID) {
      throw new ApiError('ID_LIMIT', { kind: 'custom field', max: MAX_ID });
    }
    return this.insertField({ id: this.nextIds.field, name: fieldName });
  }

  /** DELETE /customfields/{id}: the values stored under the field go with it, on every contact. */
  deleteField(fieldId: number): void {
    const field = this.fields.get(fieldId);
    if (!field) throw new ApiError('CUSTOM_FIELD_NOT_FOUND', { id: fieldId });
    this.fields.delete(fieldId);
    this.fieldsByName.delete(foldCase(field.name));
    this.values.delete(fieldId);
  }

  // ---- loading (trusted input: seeds are validated before they get here) ----------------

  insertList(list: List): List {
    this.listsRevision += 1;
    this.lists.set(list.id, list);
    this.members.set(list.id, new Set());
    this.nextIds.list = Math.max(this.nextIds.list, list.id + 1);
    return list;
  }

  insertField(field: CustomField): CustomField {
    this.fields.set(field.id, field);
    this.fieldsByName.set(foldCase(field.name), field);
    this.values.set(field.id, new Map());
    this.nextIds.field = Math.max(this.nextIds.field, field.id + 1);
    return field;
  }

  insertContact(snapshot: ContactSnapshot): Contact {
    const contact = this.addContact(snapshot.id, snapshot.emailAddress, snapshot.status);
    const { values, listIds } = snapshot;
    for (let index = 0; index < values.length; index += 2) {
      this.values.get(values[index] as number)!.set(contact.id, values[index + 1] as string);
    }
    for (const listId of listIds) this.members.get(listId)!.add(contact.id);
    return contact;
  }

  insertContent(content: Content): Content {
    this.content.set(content.id, content);
    this.nextIds.content = Math.max(this.nextIds.content, content.id + 1);
    return content;
  }

  /** Moves counters forward (a seed's `nextIds`, checked against every id used); never back. */
  raiseNextIds(next: Partial<NextIds>): void {
    for (const [name, value] of Object.entries(next) as [keyof NextIds, number][]) {
      this.nextIds[name] = Math.max(this.nextIds[name], value);
    }
  }

  /** The id the next created item of each kind gets: ids are never reused after deletion. */
  peekNextIds(): Readonly<NextIds> {
    return { ...this.nextIds };
  }

  snapshot(): TenantSnapshot {
    return {
      serverId: this.serverId,
      key: this.key,
      maxContacts: this.maxContacts,
      lists: [...this.lists.values()],
      fields: [...this.fields.values()],
      content: [...this.content.values()],
      contacts: Array.from(this.contacts.values(), ({ id, emailAddress, status }) => ({
        id,
        emailAddress,
        status,
      })),
      members: Array.from(this.members, ([listId, ids]) => [listId, [...ids]] as const),
      values: Array.from(
        this.values,
        ([fieldId, values]) => [fieldId, [...values.keys()], [...values.values()]] as const,
      ),
      nextIds: this.peekNextIds(),
    };
  }

  static restore(snapshot: TenantSnapshot): Tenant {
    const tenant = new Tenant(snapshot.serverId, snapshot.key, snapshot.maxContacts);
    for (const list of snapshot.lists) tenant.insertList(list);
    for (const field of snapshot.fields) tenant.insertField(field);
    for (const item of snapshot.content) tenant.insertContent(item);
    for (const { id, emailAddress, status } of snapshot.contacts) {
      tenant.addContact(id, emailAddress, status);
    }
    for (const [listId, ids] of snapshot.members) tenant.members.set(listId, new Set(ids));
    for (const [fieldId, ids, values] of snapshot.values) {
      const column = tenant.values.get(fieldId)!;
      for (let index = 0; index < ids.length; index++) column.set(ids[index]!, values[index]!);
    }
    Object.assign(tenant.nextIds, snapshot.nextIds);
    return tenant;
  }

  // ---- helpers --------------------------------------------------------------------------

  private addContact(id: number, emailAddress: string, status: ContactStatus): Contact {
    const contact: Contact = { id, emailAddress, status };
    this.contacts.set(id, contact);
    this.contactsByEmail.set(foldCase(emailAddress), contact);
    this.nextIds.contact = Math.max(this.nextIds.contact, id + 1);
    return contact;
  }

  /** The members of a list that exists. */
  private requireList(listId: number): Set<number> {
    const members = this.members.get(listId);
    if (!members) throw new ApiError('LIST_NOT_FOUND', { id: listId });
    return members;
  }

  private requireContact(contactId: number): Contact {
    const contact = this.contacts.get(contactId);
    if (!contact) throw new ApiError('CONTACT_NOT_FOUND', { id: contactId });
    return contact;
  }

  private requireContactByEmail(emailAddress: unknown): Contact {
    if (!isValidEmail(emailAddress)) throw new ApiError('INVALID_EMAIL');
    const contact = this.contactByEmail(emailAddress);
    if (!contact) throw new ApiError('CONTACT_EMAIL_NOT_FOUND', { email: emailAddress });
    return contact;
  }

  private resolveValues(values: readonly FieldValue[]): [number, string][] {
    return values.map(({ name, value }) => {
      const field = this.fieldByName(name);
      if (!field) throw new ApiError('UNKNOWN_CUSTOM_FIELD', { name });
      return [field.id, value];
    });
  }

  private setValues(contactId: number, values: readonly [number, string][]): void {
    for (const [fieldId, value] of values) this.values.get(fieldId)!.set(contactId, value);
  }

  private join(members: Set<number>, contact: Contact, listId: number): Membership {
    members.add(contact.id);
    return { serverId: this.serverId, contactId: contact.id, listId };
  }
}
