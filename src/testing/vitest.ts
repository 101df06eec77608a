import type { FakeMarketingServer, RequestFilter } from 'fake-marketing-server';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { receivedRequest } from './matchers.js';
import { type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';

interface FakeMatchers<R = unknown> {
  /** The fake received at least one request matching the filter (a journal filter). */
  toHaveReceivedRequest(filter?: RequestFilter): R;
  /** The fake received exactly `times` requests matching the filter. */
  toHaveReceivedRequestTimes(filter: RequestFilter, times: number): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the declaration must match vitest's own `Matchers<T = any>`.
  interface Matchers<T = any> extends FakeMatchers<T> {}
}

expect.extend({
  toHaveReceivedRequest: (received: unknown, filter?: RequestFilter) =>
    receivedRequest(received, filter),
  toHaveReceivedRequestTimes: (received: unknown, filter: RequestFilter, times: number) =>
    receivedRequest(received, filter, times),
});

/**
 * A fake for this test file: created and listening in beforeAll, reset after each test, closed
 * in afterAll. Importing this module also adds `expect(fake).toHaveReceivedRequest(filter)` and
 * `expect(fake).toHaveReceivedRequestTimes(filter, n)`.
 *
 * @example
 * const fake = useFakeMarketingServer({ seed: 'test/fixtures/marketing.json' });
 * it('lists', async () => { const response = await fetch(`${fake.baseUrl}/lists`, ...) });
 */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith({ beforeAll, afterEach, afterAll }, options);
}
