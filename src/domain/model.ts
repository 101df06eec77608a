import type { ContactStatus } from './rules.js';

/** The shapes of one server's data, shared by the domain, seeds and views. */

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

/**
 * A contact is only its identity and status: list memberships and custom-field values are kept
 * per list and per field (see Tenant), so a million contacts are a million small objects.
 */
export interface Contact {
  readonly id: number;
  readonly emailAddress: string;
  status: ContactStatus;
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

/** A contact with everything attached to it: what seeds load and what views show. */
export interface ContactSnapshot {
  readonly id: number;
  readonly emailAddress: string;
  readonly status: ContactStatus;
  /** Flat `[fieldId, value, ...]`. */
  readonly values: readonly (number | string)[];
  readonly listIds: readonly number[];
}

/**
 * Everything needed to rebuild a tenant exactly, kept by column (reset() rebuilds from it): the
 * strings are shared with the live state, so a baseline costs a few numbers per contact.
 */
export interface TenantSnapshot {
  readonly serverId: number;
  readonly key: string;
  readonly maxContacts: number;
  readonly lists: readonly List[];
  readonly fields: readonly CustomField[];
  readonly content: readonly Content[];
  readonly contacts: readonly Contact[];
  /** Per list id, the ids of its members. */
  readonly members: readonly (readonly [number, readonly number[]])[];
  /** Per field id, the contact ids and their values. */
  readonly values: readonly (readonly [number, readonly number[], readonly string[]])[];
  readonly nextIds: Readonly<NextIds>;
}

export interface NextIds {
  list: number;
  contact: number;
  field: number;
  content: number;
}
