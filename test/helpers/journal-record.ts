import type { JournalRecord } from '../../src/control/journal.js';

/** The facts of one add-by-email exchange, as the HTTP layer hands them to the journal. */
export const addByEmailRecord = (): JournalRecord => ({
  arrived: 0,
  durationMs: 1,
  protocol: 'http',
  method: 'PUT',
  url: '/marketing/v1/lists/1/contacts',
  serverId: 1234,
  operation: 'addToListByEmail',
  format: 'json',
  status: 200,
  fault: undefined,
  requestHeaders: {},
  responseHeaders: {},
});
