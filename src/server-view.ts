import type { Contact } from './domain/model.js';
import type { ContactStatus } from './domain/rules.js';
import type { Store } from './domain/store.js';
import type { Tenant } from './domain/tenant.js';

/** A contact as `server(id).contact()` shows it: a copy, safe to keep and compare. */
export interface ContactView {
  contactId: number;
  emailAddress: string;
  status: ContactStatus;
  /** Values by custom field name. */
  customFields: Record<string, string>;
  listIds: number[];
}

export interface ListView {
  id: number;
  serverId: number;
  name: string;
}

export interface CustomFieldView {
  customFieldNameId: number;
  name: string;
  serverId: number;
  customFieldType: 'String';
}

export interface ContentItemView {
  id: number;
  name: string;
  created: string;
  updated: string;
}

/** A read-only view of one server, for assertions. Every call reads the current state. */
export interface ServerView {
  readonly serverId: number;
  /** The current key (it changes with regenerateKey). */
  key(): string;
  maxContacts(): number;
  lists(): ListView[];
  contacts(): ContactView[];
  /** By contact id, or by email address (case-insensitive). */
  contact(idOrEmail: number | string): ContactView | undefined;
  customFields(): CustomFieldView[];
  content(): ContentItemView[];
  /** The contacts on one list, in the order they joined it. */
  listMembers(listId: number): ContactView[];
}

export function createServerView(store: Store, serverId: number): ServerView {
  // Looked up on every call: reset() replaces tenants, and a view must follow.
  const tenant = (): Tenant => store.requireTenant(serverId);
  const viewContact = (contact: Contact): ContactView => {
    const current = tenant();
    return {
      contactId: contact.id,
      emailAddress: contact.emailAddress,
      status: contact.status,
      customFields: current.customFieldsOf(contact.id),
      listIds: current.listIdsOf(contact.id),
    };
  };
  store.requireTenant(serverId);
  return {
    serverId,
    key: () => tenant().key,
    maxContacts: () => tenant().maxContacts,
    lists: () =>
      Array.from(tenant().lists.values(), (list) => ({ id: list.id, serverId, name: list.name })),
    contacts: () => Array.from(tenant().contacts.values(), viewContact),
    contact: (idOrEmail) => {
      const found =
        typeof idOrEmail === 'number'
          ? tenant().contacts.get(idOrEmail)
          : tenant().contactByEmail(idOrEmail);
      return found && viewContact(found);
    },
    customFields: () =>
      Array.from(tenant().fields.values(), (field) => ({
        customFieldNameId: field.id,
        name: field.name,
        serverId,
        customFieldType: 'String' as const,
      })),
    content: () =>
      Array.from(tenant().content.values(), (item) => ({
        id: item.id,
        name: item.name,
        created: new Date(item.created).toISOString(),
        updated: new Date(item.updated).toISOString(),
      })),
    listMembers: (listId) => {
      const current = tenant();
      return Array.from(current.memberIds(listId), (id) => viewContact(current.contacts.get(id)!));
    },
  };
}
