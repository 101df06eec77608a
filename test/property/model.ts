import { MAX_CUSTOM_FIELDS, RESERVED_FIELD_NAMES } from '../../src/domain/rules.js';
import type { Seed } from '../../src/index.js';

/**
 * A deliberately naive model of one server, written from the specification rather than from
 * the implementation: every command predicts the status and the state change, and the fake must
 * agree after every step.
 */
export interface ModelContact {
  id: number;
  email: string;
  status: 'Active' | 'Unsubscribed';
  values: Map<string, { name: string; value: string }>;
  lists: number[];
}

export interface ModelField {
  id: number;
  name: string;
}

export class ServerModel {
  readonly lists = [1, 2, 3];
  contacts: ModelContact[] = [];
  fields: ModelField[] = [];
  nextContactId = 1;
  nextFieldId = 1;
  cap: number;

  constructor(cap: number, fieldNames: readonly string[]) {
    this.cap = cap;
    for (const name of fieldNames) this.fields.push({ id: this.nextFieldId++, name });
  }

  private field(name: string) {
    return this.fields.find((field) => field.name.toLowerCase() === name.toLowerCase());
  }

  contactByEmail(email: string) {
    return this.contacts.find((contact) => contact.email.toLowerCase() === email.toLowerCase());
  }

  addByEmail(
    listId: number,
    email: string,
    customFields: { name: string; value: string }[] | undefined,
    firstName: string | undefined,
    lastName: string | undefined,
  ): number {
    if (!this.lists.includes(listId)) return 404;
    if (!/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email)) return 400;
    for (const { name } of customFields ?? []) if (!this.field(name)) return 400;
    if (firstName !== undefined && !this.field('FirstName')) return 400;
    if (lastName !== undefined && !this.field('LastName')) return 400;
    let contact = this.contactByEmail(email);
    if (contact) {
      for (const { name, value } of customFields ?? []) {
        const field = this.field(name)!;
        contact.values.set(field.name.toLowerCase(), { name: field.name, value });
      }
    } else {
      if (this.contacts.length >= this.cap) return 403;
      contact = { id: this.nextContactId++, email, status: 'Active', values: new Map(), lists: [] };
      this.contacts.push(contact);
      const named = [
        ...(firstName === undefined ? [] : [{ name: 'FirstName', value: firstName }]),
        ...(lastName === undefined ? [] : [{ name: 'LastName', value: lastName }]),
        ...(customFields ?? []),
      ];
      for (const { name, value } of named) {
        const field = this.field(name)!;
        contact.values.set(field.name.toLowerCase(), { name: field.name, value });
      }
    }
    if (!contact.lists.includes(listId)) contact.lists.push(listId);
    return 200;
  }

  addById(listId: number, contactId: number): number {
    const contact = this.contacts.find((c) => c.id === contactId);
    if (!this.lists.includes(listId) || !contact) return 404;
    if (!contact.lists.includes(listId)) contact.lists.push(listId);
    return 200;
  }

  remove(listId: number, contact: ModelContact | undefined): number {
    if (!this.lists.includes(listId) || !contact) return 404;
    contact.lists = contact.lists.filter((id) => id !== listId);
    return 204;
  }

  unsubscribe(contact: ModelContact | undefined): number {
    if (!contact) return 404;
    contact.status = 'Unsubscribed';
    return 200;
  }

  createField(name: string): number {
    if (name.length < 1 || name.length > 50) return 409;
    if (name.includes('<') || name.includes('>')) return 400;
    if (RESERVED_FIELD_NAMES.has(name.toLowerCase())) return 409;
    if (this.field(name)) return 409;
    if (this.fields.length >= MAX_CUSTOM_FIELDS) return 409;
    this.fields.push({ id: this.nextFieldId++, name });
    return 200;
  }

  deleteField(id: number): number {
    const field = this.fields.find((f) => f.id === id);
    if (!field) return 404;
    this.fields = this.fields.filter((f) => f.id !== id);
    for (const contact of this.contacts) contact.values.delete(field.name.toLowerCase());
    return 204;
  }

  /** The model's state in exportState() form, for one server. */
  toServerSeed(serverId: number, key: string) {
    return {
      serverId,
      key,
      maxContacts: this.cap,
      customFields: this.fields.map((f) => ({ customFieldNameId: f.id, name: f.name })),
      lists: this.lists.map((id) => ({ id, name: `List ${id}` })),
      contacts: this.contacts.map((c) => ({
        contactId: c.id,
        emailAddress: c.email,
        status: c.status,
        customFields: Object.fromEntries(
          [...c.values.values()].map(({ name, value }) => [name, value]),
        ),
        // The fake reports memberships in list order.
        lists: [...c.lists].sort((a, b) => a - b),
      })),
      content: [],
      // Ids are never reused: the counters only move forward, deletions included.
      nextIds: {
        list: Math.max(0, ...this.lists) + 1,
        contact: this.nextContactId,
        customField: this.nextFieldId,
        content: 1,
      },
    };
  }
}

/** Invariants of the specification that must hold in any reachable state. */
export function checkInvariants(state: Seed): string[] {
  const problems: string[] = [];
  for (const server of state.servers) {
    const emails = new Set<string>();
    const listIds = new Set((server.lists ?? []).map((list) => list.id));
    const fieldNames = new Set((server.customFields ?? []).map((field) => field.name));
    if ((server.customFields ?? []).length > MAX_CUSTOM_FIELDS)
      problems.push('more than 20 fields');
    if ((server.contacts ?? []).length > (server.maxContacts ?? Number.POSITIVE_INFINITY)) {
      problems.push('more contacts than the cap');
    }
    for (const contact of server.contacts ?? []) {
      const folded = contact.emailAddress.toLowerCase();
      if (emails.has(folded)) problems.push(`two contacts for ${folded}`);
      emails.add(folded);
      for (const listId of contact.lists ?? []) {
        if (!listIds.has(listId))
          problems.push(`contact ${contact.contactId} on missing list ${listId}`);
      }
      for (const name of Object.keys(contact.customFields ?? {})) {
        if (!fieldNames.has(name))
          problems.push(`contact ${contact.contactId} has a value under missing field ${name}`);
      }
    }
  }
  return problems;
}
