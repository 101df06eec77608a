import { AssertionError } from 'node:assert';
import { after, afterEach, before } from 'node:test';
import type { FakeMarketingServer, RequestFilter } from 'fake-marketing-server';
import { receivedRequest } from './matchers.js';
import { type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';

/** A fake for this test file (node:test): created in before, reset after each test, closed in after. */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith({ beforeAll: before, afterEach, afterAll: after }, options);
}

/**
 * node:test has no `expect`: this throws an AssertionError unless the fake received a request
 * matching `filter` (exactly `times` times, when given); the message shows the nearest requests.
 */
export function assertReceivedRequest(
  fake: FakeMarketingServer,
  filter?: RequestFilter,
  times?: number,
): void {
  const result = receivedRequest(fake, filter, times);
  if (!result.pass) {
    throw new AssertionError({ message: result.message(), stackStartFn: assertReceivedRequest });
  }
}
