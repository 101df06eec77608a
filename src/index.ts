/**
 * fake-marketing-server: an in-memory, faithful fake of the Marketing API (contact lists,
 * contacts, custom fields, email content) for test suites and local sandboxes.
 */

export { FAULT_KINDS, type FaultKind, type FaultRule } from './control/fault-rule.js';
export type {
  FaultHandle,
  Faults,
  FaultView,
  MaintenanceOptions,
} from './control/faults.js';
export type { JournalEntry } from './control/journal.js';
export type { RequestMatch } from './control/request-match.js';
export {
  API_ERRORS,
  ApiError,
  type ApiErrorCode,
  FakeMarketingServerError,
  FaultRuleError,
  InvalidOptionError,
  SeedError,
  StateError,
  UnknownServerError,
} from './domain/errors.js';
export type { ContactStatus } from './domain/rules.js';
export type {
  ContactSeed,
  ContentSeed,
  CustomFieldSeed,
  ListSeed,
  Seed,
  ServerSeed,
} from './domain/seed-types.js';
export type { Credentials } from './domain/store.js';
export type { Address, ListenOptions } from './listen.js';
export {
  createFakeMarketingServer,
  type FakeMarketingServer,
  type FakeMarketingServerOptions,
} from './server.js';
export type {
  ContactView,
  ContentItemView,
  CustomFieldView,
  ListView,
  ServerView,
} from './server-view.js';
