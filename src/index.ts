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
export type { Har, HarEntry } from './control/har.js';
export type {
  JournalEntry,
  RecordedBody,
  RecordedRequest,
  RecordedResponse,
} from './control/journal.js';
export type { RequestFilter } from './control/journal-filter.js';
export type { NearMiss } from './control/journal-nearest.js';
export type { RequestMatch } from './control/request-match.js';
export { WaitTimeoutError } from './control/wait-timeout-error.js';
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
export type { Address, ListenOptions } from './listen.js';
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
