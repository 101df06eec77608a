import { AssertionError } from 'node:assert';
import { after, afterEach, before } from 'node:test';
import type { FakeMarketingServer, RequestFilter, Tenant, TenantSeed } from 'fake-marketing-server';
import { type MatcherResult, receivedRequest } from './matchers.js';
import { type UseFakeOptions, useFakeWith } from './use-fake.js';
import type { TenantMaker } from './with-tenant.js';

export type { UseFakeOptions } from './use-fake.js';
export { type TenantMaker, withTenant } from './with-tenant.js';

/**
 * A fake for this test file (node:test): created in before, reset after each test (see
 * UseFakeOptions.resetAfterEach), closed in after.
 */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith({ beforeAll: before, afterEach, afterAll: after }, options);
}

/**
 * A tenant for this test alone, closed when the test ends (`t.after`): works with concurrent
 * tests. `await using` in the test body does the same without the context.
 *
 * @example
 * test('adds', { concurrency: true }, async (t) => { const tenant = await tenantFor(t, fake, seed); ... });
 */
export async function tenantFor<T extends Tenant>(
  context: { after(fn: () => unknown): void },
  fake: TenantMaker<T>,
  seed?: TenantSeed,
): Promise<T> {
  const tenant = await fake.tenant(seed);
  context.after(() => tenant.close());
  return tenant;
}

/**
 * node:test has no `expect`: this throws an AssertionError unless the fake received a request
 * matching `filter` (exactly `times` times, when given); the message shows the nearest requests.
 * Given a tenant, it returns a promise to await (a tenant's journal may be remote).
 */
export function assertReceivedRequest(
  fake: FakeMarketingServer,
  filter?: RequestFilter,
  times?: number,
): void;
export function assertReceivedRequest(
  tenant: Tenant,
  filter?: RequestFilter,
  times?: number,
): Promise<void>;
export function assertReceivedRequest(
  received: FakeMarketingServer | Tenant,
  filter?: RequestFilter,
  times?: number,
): void | Promise<void> {
  const result = receivedRequest(received, filter, times);
  if (result instanceof Promise) return result.then(check);
  check(result);
}

function check(result: MatcherResult): void {
  if (!result.pass) {
    throw new AssertionError({ message: result.message(), stackStartFn: assertReceivedRequest });
  }
}
