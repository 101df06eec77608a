// The package itself for the handle's type: one copy of the library in the user's process. The
// filter helpers are pure functions over journal entries, bundled into each runner's entry.
import type {
  FakeMarketingServer,
  JournalEntry,
  RequestFilter,
  Tenant,
} from 'fake-marketing-server';
import { compileFilter } from '../journal/journal-filter.js';
import { describeNearest, nearest } from '../journal/journal-nearest.js';

/** What a runner's `expect.extend` wants back from a matcher. */
export interface MatcherResult {
  pass: boolean;
  message: () => string;
}

type Journaled = Pick<FakeMarketingServer, 'requests'> | Pick<Tenant, 'requests' | 'serverId'>;

function isJournaled(value: unknown): value is Journaled {
  return typeof (value as Journaled | undefined)?.requests === 'function';
}

/**
 * Did the fake (or tenant) receive a request matching `filter` (`times` times exactly, when
 * given)? On failure the message shows the recorded requests nearest to the filter and what
 * differs in each, so a failing test says what the client did instead. A fake answers at once; a
 * tenant, whose journal is read through a promise (it may be remote), answers with a promise:
 * `await expect(tenant).toHaveReceivedRequest(...)`.
 */
export function receivedRequest(
  received: Pick<Tenant, 'requests' | 'serverId'>,
  filter?: RequestFilter,
  times?: number,
): Promise<MatcherResult>;
export function receivedRequest(
  received: unknown,
  filter?: RequestFilter,
  times?: number,
): MatcherResult;
export function receivedRequest(
  received: unknown,
  filter?: RequestFilter,
  times?: number,
): MatcherResult | Promise<MatcherResult> {
  if (!isJournaled(received)) {
    return {
      pass: false,
      message: () => 'expected a fake-marketing-server handle or tenant',
    };
  }
  if (times !== undefined && (!Number.isSafeInteger(times) || times < 0)) {
    throw new TypeError(`times must be a whole number of 0 or more, got ${times}`);
  }
  const wanted = filter ?? {};
  // requests() checks the filter and throws (or rejects with) what to fix.
  const matching = received.requests(wanted);
  if (matching instanceof Promise) {
    const who = `tenant ${(received as Tenant).serverId}`;
    return Promise.all([matching, received.requests() as Promise<JournalEntry[]>]).then(
      ([found, all]) => verdict(found, all, wanted, times, who),
    );
  }
  return verdict(matching, received.requests() as JournalEntry[], wanted, times, 'fake');
}

function verdict(
  matching: JournalEntry[],
  all: JournalEntry[],
  filter: RequestFilter,
  times: number | undefined,
  who: string,
): MatcherResult {
  const wanted = `a request matching ${JSON.stringify(filter)}${times === undefined ? '' : ` ${times} time(s)`}`;
  const pass = times === undefined ? matching.length > 0 : matching.length === times;
  const compiled = compileFilter(filter);
  return {
    pass,
    message: () => {
      if (pass) {
        const ids = matching.map((entry) => `#${entry.id}`).join(', ');
        return `expected the ${who} not to have received ${wanted}, but it did: ${ids}`;
      }
      const got = `it received ${matching.length} matching`;
      const context =
        matching.length > 0 && times !== undefined
          ? `Matching: ${matching.map((entry) => `#${entry.id} ${entry.method} ${entry.path} -> ${entry.status}`).join(', ')}`
          : all.length === 0 && who !== 'fake'
            ? `The ${who}'s journal is empty: no request named its server since it was made or reset.`
            : describeNearest(nearest(all, compiled), all.length);
      return `expected the ${who} to have received ${wanted}, but ${got}.\n${context}`;
    },
  };
}
