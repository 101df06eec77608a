import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';
import {
  type ContactStatus,
  fieldNameProblem,
  foldCase,
  isValidEmail,
  MAX_CUSTOM_FIELDS,
} from './rules.js';

export interface List {
  readonly id: number;
  readonly name: string;
}

export interface CustomField {
  readonly id: number;
  readonly name: string;
}

export interface Content {
  readonly id: number;
  readonly name: string;
  /** Epoch milliseconds, UTC. */
  readonly created: number;
  readonly updated: number;
}

export interface Contact {
  readonly id: number;
  readonly emailAddress: string;
  status: ContactStatus;
  /** Custom field id to value; created on first value so that bare contacts stay small. */
  values: Map<number, string> | undefined;
  /** Ids of the lists the contact is on; a contact is on few lists, so an array beats a Set. */
  listIds: number[];
}

/** What both add-to-list calls return. */
export interface Membership {
  readonly serverId: number;
  readonly contactId: number;
  readonly listId: number;
}

export interface FieldValue {
  readonly name: string;
  readonly value: string;
}

/** PUT /lists/{listId}/contacts, already shaped by the HTTP layer. */
export interface AddByEmailRequest {
  readonly emailAddress: unknown;
  readonly customFields?: readonly FieldValue[] | undefined;
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
}

/** Everything needed to rebuild a tenant exactly: used by reset() and exportState(). */
export interface TenantSnapshot {
  readonly serverId: number;
  readonly key: string;
  readonly maxContacts: number;
  readonly lists: readonly List[];
  readonly fields: readonly CustomField[];
  readonly contacts: readonly ContactSnapshot[];
  readonly content: readonly Content[];
  readonly nextIds: Readonly<NextIds>;
}

export interface ContactSnapshot {
  readonly id: number;
  readonly emailAddress: string;
  readonly status: ContactStatus;
  readonly values: readonly (readonly [number, string])[];
  readonly listIds: readonly number[];
}

interface NextIds {
  list: number;
  contact: number;
  field: number;
  content: number;
}

const FIRST_NAME = 'FirstName';
const LAST_NAME = 'LastName';

/** SHA-256 of a key: fixed-length, so keys can be compared with timingSafeEqual. */
export function digestKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * One server of the service: its credentials, lists, contacts, custom fields and content, with
 * every rule of the Marketing API. Knows nothing of HTTP; rule violations throw ApiError.
 */
export class Tenant {
  readonly serverId: number;
  maxContacts: number;
  readonly lists = new Map<number, List>();
  readonly contacts = new Map<number, Contact>();
  readonly fields = new Map<number, CustomField>();
  readonly content = new Map<number, Content>();
  private readonly contactsByEmail = new Map<string, Contact>();
  private readonly fieldsByName = new Map<string, CustomField>();
  private readonly nextIds: NextIds = { list: 1, contact: 1, field: 1, content: 1 };
  private currentKey = '';
  private currentKeyDigest: Buffer = digestKey('');

  constructor(serverId: number, key: string, maxContacts: number) {
    this.serverId = serverId;
    this.maxContacts = maxContacts;
    this.key = key;
  }

  get key(): string {
    return this.currentKey;
  }

  set key(key: string) {
    this.currentKey = key;
    this.currentKeyDigest = digestKey(key);
  }

  get keyDigest(): Buffer {
    return this.currentKeyDigest;
  }

  // ---- lookups --------------------------------------------------------------------------

  contactByEmail(emailAddress: string): Contact | undefined {
    return this.contactsByEmail.get(foldCase(emailAddress));
  }

  fieldByName(name: string): CustomField | undefined {
    return this.fieldsByName.get(foldCase(name));
  }

  // ---- the API's rules ------------------------------------------------------------------

  /** PUT /lists/{listId}/contacts/{contactId}. Re-adding is not an error. */
  addToListById(listId: number, contactId: number): Membership {
    this.requireList(listId);
    const contact = this.requireContact(contactId);
    return this.join(contact, listId);
  }

  /**
   * PUT /lists/{listId}/contacts. Every check runs before anything changes, so a rejected call
   * leaves the server exactly as it was.
   */
  addToListByEmail(listId: number, request: AddByEmailRequest): Membership {
    this.requireList(listId);
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
      if (request.customFields !== undefined) setValues(existing, values);
      return this.join(existing, listId);
    }
    if (this.contacts.size >= this.maxContacts) {
      throw new ApiError('CONTACT_LIMIT', { max: this.maxContacts });
    }
    const contact = this.insertContact({
      id: this.nextIds.contact,
      emailAddress,
      status: 'Active',
      values: [],
      listIds: [],
    });
    // A value given in CustomFields for FirstName/LastName wins over firstName/lastName.
    setValues(contact, nameValues);
    setValues(contact, values);
    return this.join(contact, listId);
  }

  /** DELETE /lists/{listId}/contacts/{contactId}: the contact stays on its other lists. */
  removeFromList(listId: number, contactId: number): void {
    this.requireList(listId);
    leave(this.requireContact(contactId), listId);
  }

  /** DELETE /lists/{listId}/contacts?emailAddress=... */
  removeFromListByEmail(listId: number, emailAddress: unknown): void {
    this.requireList(listId);
    leave(this.requireContactByEmail(emailAddress), listId);
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
    return this.insertField({ id: this.nextIds.field, name: fieldName });
  }

  /** DELETE /customfields/{id}: the values stored under the field go with it, on every contact. */
  deleteField(fieldId: number): void {
    const field = this.fields.get(fieldId);
    if (!field) throw new ApiError('CUSTOM_FIELD_NOT_FOUND', { id: fieldId });
    this.fields.delete(fieldId);
    this.fieldsByName.delete(foldCase(field.name));
    for (const contact of this.contacts.values()) contact.values?.delete(fieldId);
  }

  // ---- loading (trusted input: seeds are validated before they get here) ----------------

  insertList(list: List): List {
    this.lists.set(list.id, list);
    this.nextIds.list = Math.max(this.nextIds.list, list.id + 1);
    return list;
  }

  insertField(field: CustomField): CustomField {
    this.fields.set(field.id, field);
    this.fieldsByName.set(foldCase(field.name), field);
    this.nextIds.field = Math.max(this.nextIds.field, field.id + 1);
    return field;
  }

  insertContact(snapshot: ContactSnapshot): Contact {
    const contact: Contact = {
      id: snapshot.id,
      emailAddress: snapshot.emailAddress,
      status: snapshot.status,
      values: snapshot.values.length > 0 ? new Map(snapshot.values) : undefined,
      listIds: [...snapshot.listIds],
    };
    this.contacts.set(contact.id, contact);
    this.contactsByEmail.set(foldCase(contact.emailAddress), contact);
    this.nextIds.contact = Math.max(this.nextIds.contact, contact.id + 1);
    return contact;
  }

  insertContent(content: Content): Content {
    this.content.set(content.id, content);
    this.nextIds.content = Math.max(this.nextIds.content, content.id + 1);
    return content;
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
      contacts: Array.from(this.contacts.values(), (contact) => ({
        id: contact.id,
        emailAddress: contact.emailAddress,
        status: contact.status,
        values: contact.values ? [...contact.values] : [],
        listIds: [...contact.listIds],
      })),
      content: [...this.content.values()],
      nextIds: this.peekNextIds(),
    };
  }

  static restore(snapshot: TenantSnapshot): Tenant {
    const tenant = new Tenant(snapshot.serverId, snapshot.key, snapshot.maxContacts);
    for (const list of snapshot.lists) tenant.insertList(list);
    for (const field of snapshot.fields) tenant.insertField(field);
    for (const contact of snapshot.contacts) tenant.insertContact(contact);
    for (const content of snapshot.content) tenant.insertContent(content);
    Object.assign(tenant.nextIds, snapshot.nextIds);
    return tenant;
  }

  // ---- helpers --------------------------------------------------------------------------

  private requireList(listId: number): List {
    const list = this.lists.get(listId);
    if (!list) throw new ApiError('LIST_NOT_FOUND', { id: listId });
    return list;
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

  private join(contact: Contact, listId: number): Membership {
    if (!contact.listIds.includes(listId)) contact.listIds.push(listId);
    return { serverId: this.serverId, contactId: contact.id, listId };
  }
}

function setValues(contact: Contact, values: readonly [number, string][]): void {
  if (values.length === 0) return;
  contact.values ??= new Map();
  for (const [fieldId, value] of values) contact.values.set(fieldId, value);
}

function leave(contact: Contact, listId: number): void {
  const index = contact.listIds.indexOf(listId);
  if (index !== -1) contact.listIds.splice(index, 1);
}
