import type { JournalRecord } from '../../src/journal/journal.js';

/** The facts of one add-by-email exchange, as the HTTP layer hands them to the journal. */
export const addByEmailRecord = (): JournalRecord => ({
  arrived: 0,
  durationMs: 1,
  protocol: 'http',
  method: 'PUT',
  url: '/marketing/v1/lists/1/contacts',
  serverId: 1234,
  authenticated: true,
  operation: 'addToListByEmail',
  format: 'json',
  status: 200,
  fault: undefined,
  requestHeaders: {},
  responseHeaders: {},
});

/** The facts of a GET /lists exchange at a fixed time, with `parts` changed: for the Journal's own tests. */
export const listsRecord = (parts: Partial<JournalRecord> = {}): JournalRecord => ({
  arrived: Date.UTC(2026, 10, 22, 12, 0, 0),
  durationMs: 3,
  protocol: 'http',
  method: 'GET',
  url: '/marketing/v1/lists',
  serverId: undefined,
  authenticated: false,
  operation: undefined,
  format: 'json',
  status: 200,
  fault: undefined,
  requestHeaders: { host: 'fake.test' },
  responseHeaders: {},
  ...parts,
});
