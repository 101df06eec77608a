// The package itself for the handle's type: one copy of the library in the user's process. The
// filter helpers are pure functions over journal entries, bundled into each runner's entry.
import type { FakeMarketingServer, RequestFilter } from 'fake-marketing-server';
import { compileFilter, describeNearest, nearest } from '../control/journal-filter.js';

/** What a runner's `expect.extend` wants back from a matcher. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

function isFake(value: unknown): value is FakeMarketingServer {
  return typeof (value as FakeMarketingServer | undefined)?.requests === 'function';
}

/**
 * Did the fake receive a request matching `filter` (`times` times exactly, when given)? On failure
 * the message shows the recorded requests nearest to the filter and what differs in each, so a
 * failing test says what the client did instead.
 */
export function receivedRequest(
  received: unknown,
  filter: RequestFilter = {},
  times?: number,
): MatcherResult {
  if (!isFake(received)) {
    return {
      pass: false,
      message: () => 'expected a fake-marketing-server handle (the fake itself)',
    };
  }
  if (times !== undefined && (!Number.isSafeInteger(times) || times < 0)) {
    throw new TypeError(`times must be a whole number of 0 or more, got ${times}`);
  }
  // requests() checks the filter and throws what to fix.
  const matching = received.requests(filter);
  const all = received.requests();
  const wanted = `a request matching ${JSON.stringify(filter)}${times === undefined ? '' : ` ${times} time(s)`}`;
  const pass = times === undefined ? matching.length > 0 : matching.length === times;
  const compiled = compileFilter(filter);
  return {
    pass,
    message: () => {
      if (pass) {
        const ids = matching.map((entry) => `#${entry.id}`).join(', ');
        return `expected the fake not to have received ${wanted}, but it did: ${ids}`;
      }
      const got = `it received ${matching.length} matching`;
      const context =
        matching.length > 0 && times !== undefined
          ? `Matching: ${matching.map((entry) => `#${entry.id} ${entry.method} ${entry.path} -> ${entry.status}`).join(', ')}`
          : describeNearest(nearest(all, compiled), all.length);
      return `expected the fake to have received ${wanted}, but ${got}.\n${context}`;
    },
  };
}
