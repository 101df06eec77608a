/**
 * fake-marketing-server: an in-memory, faithful fake of the Marketing API (contact lists,
 * contacts, custom fields, email content) for test suites and local sandboxes.
 */

export type { WaitOptions } from './core.js';
export {
  API_ERRORS,
  ApiError,
  type ApiErrorCode,
  FakeClosedError,
  FakeMarketingServerError,
  FaultRuleError,
  InvalidOptionError,
  SeedError,
  ServerExistsError,
  StateError,
  StateSaveError,
  TooManyWaitsError,
  UnknownServerError,
} from './domain/errors.js';
export type { ContactStatus } from './domain/rules.js';
export type {
  ContactSeed,
  ContentSeed,
  CustomFieldSeed,
  ListSeed,
  NextIdsSeed,
  Seed,
  ServerSeed,
  TenantSeed,
} from './domain/seed-types.js';
export type { Credentials } from './domain/store.js';
export { FAULT_KINDS, type FaultKind, type FaultRule } from './faults/fault-rule.js';
export type {
  FaultHandle,
  Faults,
  FaultView,
  MaintenanceOptions,
} from './faults/faults.js';
export type { Har, HarEntry } from './journal/har.js';
export type {
  JournalEntry,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
} from './journal/journal.js';
export type { RequestFilter } from './journal/journal-filter.js';
export type { NearMiss } from './journal/journal-nearest.js';
export { WaitTimeoutError } from './journal/wait-timeout-error.js';
export type { Address, ListenOptions } from './listen.js';
export type { RequestMatch } from './match/request-match.js';
export {
  type Recorder,
  RecorderOptionError,
  type RecorderOptions,
  startRecorder,
} from './record/recorder.js';
export { HarInputError } from './replay/har-input.js';
export {
  type ExchangeResult,
  ReplayCannotRunError,
  type ReplayOptions,
  type ReplayReport,
  replayHar,
} from './replay/replay.js';
export { replayReportJunit, replayReportText } from './replay/report.js';
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
export {
  type ConnectOptions,
  connectFakeMarketingServer,
  RemoteFakeMarketingServer,
} from './tenants/remote.js';
export type {
  LocalTenant,
  Tenant,
  TenantFaultHandle,
  TenantFaults,
  TenantRequest,
  TenantResponse,
} from './tenants/tenant.js';
export type { FetchDispatcher } from './tenants/trust.js';
export type { ImportOptions } from './verify/import.js';
export { importSeed } from './verify/import.js';
export { reportJunit, reportText } from './verify/report.js';
export {
  type CheckResult,
  type CouldNotRun,
  type VerifyOptions,
  type VerifyReport,
  verifyPlan,
  verifyService,
} from './verify/verify.js';
