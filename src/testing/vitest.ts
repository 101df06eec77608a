import {
  type ConnectOptions,
  connectFakeMarketingServer,
  createFakeMarketingServer,
  type FakeMarketingServer,
  type LocalTenant,
  type RemoteFakeMarketingServer,
  type RequestFilter,
  type Tenant,
  type TenantSeed,
} from 'fake-marketing-server';
import { afterAll, afterEach, test as baseTest, beforeAll, expect, type TestAPI } from 'vitest';
import { receivedRequest } from './matchers.js';
import { type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';
export { type TenantMaker, withTenant } from './with-tenant.js';

interface FakeMatchers<R = unknown> {
  /**
   * The fake (or tenant) received at least one request matching the filter (a journal filter).
   * For a tenant the matcher is async: `await expect(tenant).toHaveReceivedRequest(filter)`.
   */
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
 * A fake for this test file: created and listening in beforeAll, reset after each test (see
 * UseFakeOptions.resetAfterEach), closed in afterAll. For concurrent tests, use
 * {@link createTenantTest}: a tenant per test. Importing this module also adds `expect(fake).toHaveReceivedRequest(filter)` and
 * `expect(fake).toHaveReceivedRequestTimes(filter, n)`.
 *
 * @example
 * const fake = useFakeMarketingServer({ seed: 'test/fixtures/marketing.json' });
 * it('lists', async () => { const response = await fetch(`${fake.baseUrl}/lists`, ...) });
 */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith({ beforeAll, afterEach, afterAll }, options);
}

/** Options of {@link createTenantTest}. */
export interface TenantTestOptions {
  /** Each test's tenant's seed (one server: lists, customFields, contacts, ...); none: empty. */
  seed?: TenantSeed | (() => TenantSeed);
  /** The in-process fake the file shares (created once per file, listening unless `listen: false`). */
  fake?: UseFakeOptions;
  /**
   * Share a fake that runs elsewhere instead (the CLI, a container, a globalSetup's): how to reach
   * it, or a function giving that when the file starts (e.g. from vitest's `inject`).
   */
  connect?: ConnectOptions | (() => ConnectOptions);
}

/** The fixtures of {@link createTenantTest}. */
export interface TenantFixtures<F, T extends Tenant> {
  /** This test's own tenant, created before it and closed after it. */
  tenant: T;
  /** The fake the file's tests share: one per file. */
  fake: F;
}

/**
 * A vitest `test` whose tests each get their own tenant (`test.extend` fixtures), closed after
 * the test, under `test.concurrent` too; the fake is shared by the file's tests (a file-scoped
 * fixture), in process or, with `connect`, running elsewhere.
 *
 * @example
 * const test = createTenantTest({ seed: { lists: [{ id: 1, name: 'Newsletter' }] } });
 * test.concurrent('adds a contact', async ({ tenant, expect }) => {
 *   const response = await tenant.inject({ method: 'PUT', url: '/lists/1/contacts', payload: {...} });
 *   expect(response.statusCode).toBe(200);
 * });
 */
export function createTenantTest(
  options: TenantTestOptions & { connect: ConnectOptions | (() => ConnectOptions) },
): TestAPI<TenantFixtures<RemoteFakeMarketingServer, Tenant>>;
export function createTenantTest(
  options?: TenantTestOptions,
): TestAPI<TenantFixtures<FakeMarketingServer, LocalTenant>>;
export function createTenantTest(options: TenantTestOptions = {}): unknown {
  const seedOf = () => (typeof options.seed === 'function' ? options.seed() : options.seed);
  type Use<T> = (value: T) => Promise<void>;
  type AnyFake = FakeMarketingServer | RemoteFakeMarketingServer;
  // Typed here, not through vitest's generics: their shape differs between vitest 3 and 4, while
  // the object form (a tuple with { scope: 'file' } for the fake) works in both.
  const extend = baseTest.extend as unknown as (fixtures: object) => unknown;
  return extend.call(baseTest, {
    fake: [
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
      async ({}: object, use: Use<AnyFake>) => {
        const fake = await openFake(options);
        try {
          await use(fake);
        } finally {
          await fake.close();
        }
      },
      { scope: 'file' },
    ],
    tenant: async ({ fake }: { fake: AnyFake }, use: Use<Tenant>) => {
      const tenant = await fake.tenant(seedOf());
      try {
        await use(tenant);
      } finally {
        await tenant.close();
      }
    },
  });
}

async function openFake(
  options: TenantTestOptions,
): Promise<FakeMarketingServer | RemoteFakeMarketingServer> {
  if (options.connect !== undefined) {
    const connect = typeof options.connect === 'function' ? options.connect() : options.connect;
    return connectFakeMarketingServer(connect);
  }
  const { listen = {}, resetAfterEach: _ignored, ...fakeOptions } = options.fake ?? {};
  const fake = await createFakeMarketingServer(fakeOptions);
  if (listen !== false) await fake.listen(listen);
  return fake;
}
