import type { ContactStatus } from './rules.js';

/** A seed: servers and their data, as a fixture file or an object. See `seed.schema.json`. */
export interface Seed {
  servers: ServerSeed[];
}

/** One server (tenant). Every id is optional: missing ids follow the largest id given. */
export interface ServerSeed {
  /** The Basic-auth username: a 4- or 5-digit number. */
  serverId: number;
  /** The Basic-auth password; a fresh random key when missing. */
  key?: string;
  /** The contact cap; the fake's `maxContacts` option when missing. */
  maxContacts?: number;
  customFields?: CustomFieldSeed[];
  lists?: ListSeed[];
  contacts?: ContactSeed[];
  content?: ContentSeed[];
  /**
   * The id the next item of each kind created through the API gets (the export always writes
   * them), so deleted ids stay unused after `seed(exportState())`. Each must be past every id of
   * its kind the server uses or has used.
   */
  nextIds?: NextIdsSeed;
}

/**
 * One tenant's seed (`fake.tenant(seed)`, `POST /__admin/tenants`): a server's seed whose
 * serverId may be left out (a free 5-digit id is chosen).
 */
export type TenantSeed = Omit<ServerSeed, 'serverId'> & { serverId?: number };

/** The id counters of a server, by kind of item. */
export interface NextIdsSeed {
  list?: number;
  contact?: number;
  customField?: number;
  content?: number;
}

export interface CustomFieldSeed {
  customFieldNameId?: number;
  name: string;
}

export interface ListSeed {
  id?: number;
  name: string;
}

export interface ContactSeed {
  contactId?: number;
  emailAddress: string;
  /** `"Active"` when missing. */
  status?: ContactStatus;
  /** Values by custom field name (case-insensitive), e.g. `{ "FirstName": "Ann" }`. */
  customFields?: Record<string, string>;
  /** Ids of lists of the same server. */
  lists?: number[];
}

export interface ContentSeed {
  id?: number;
  name: string;
  /** ISO 8601 UTC; the fake's clock when missing. */
  created?: string;
  /** ISO 8601 UTC, not before `created`; `created` when missing. */
  updated?: string;
}
