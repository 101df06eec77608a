import { API_ERRORS, FakeMarketingServerError, fillTemplate } from '../domain/errors.js';
import type { NearMiss } from './journal-nearest.js';

/**
 * `waitForRequest()` timed out; the message lists the recorded requests closest to the filter.
 * It lives with the journal, whose entries it carries, so that the domain's errors need nothing
 * of the journal; its code and message are in the one table, `API_ERRORS`.
 */
export class WaitTimeoutError extends FakeMarketingServerError {
  override name = 'WaitTimeoutError';
  /** The closest recorded requests, with what differs in each. */
  readonly closest: readonly NearMiss[];

  constructor(message: string, closest: readonly NearMiss[]) {
    super(
      fillTemplate(API_ERRORS.REQUEST_NOT_RECEIVED.message, { detail: message }),
      'REQUEST_NOT_RECEIVED',
    );
    this.closest = closest;
  }
}
