import type { FakeMarketingServer, RequestFilter } from 'fake-marketing-server';
import { receivedRequest } from './matchers.js';
import { type RunnerHooks, type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';
export { type TenantMaker, withTenant } from './with-tenant.js';

/** jest's hooks are globals; read when the helper is called, inside a test file. */
function jestHooks(): RunnerHooks {
  const globals = globalThis as unknown as Partial<RunnerHooks>;
  if (!globals.beforeAll || !globals.afterEach || !globals.afterAll) {
    throw new Error(
      'fake-marketing-server/jest: call useFakeMarketingServer() inside a jest test file.',
    );
  }
  return { beforeAll: globals.beforeAll, afterEach: globals.afterEach, afterAll: globals.afterAll };
}

declare global {
  namespace jest {
    interface Matchers<R> {
      /**
       * The fake (or tenant) received at least one request matching the filter (a journal
       * filter). For a tenant the matcher is async: `await expect(tenant).toHaveReceivedRequest()`.
       */
      toHaveReceivedRequest(filter?: RequestFilter): R;
      /** The fake received exactly `times` requests matching the filter. */
      toHaveReceivedRequestTimes(filter: RequestFilter, times: number): R;
    }
  }
}

/** The matchers, for jest's global `expect`; added when the helper is first used. */
export const fakeMatchers = {
  toHaveReceivedRequest: (received: unknown, filter?: RequestFilter) =>
    receivedRequest(received, filter),
  toHaveReceivedRequestTimes: (received: unknown, filter: RequestFilter, times: number) =>
    receivedRequest(received, filter, times),
};

/**
 * A fake for this test file: created and listening in beforeAll, reset after each test (see
 * UseFakeOptions.resetAfterEach), closed in afterAll. For concurrent tests, give each its own
 * tenant with `withTenant(fake, seed, body)` and `resetAfterEach: false`. Also adds `expect(fake).toHaveReceivedRequest(filter)` and `...Times(filter, n)`.
 */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  const hooks = jestHooks();
  const { expect } = globalThis as { expect?: { extend?: (matchers: object) => void } };
  expect?.extend?.(fakeMatchers);
  return useFakeWith(hooks, options);
}
