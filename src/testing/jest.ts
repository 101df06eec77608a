import type { FakeMarketingServer } from 'fake-marketing-server';
import { type RunnerHooks, type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';

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

/** A fake for this test file: created and listening in beforeAll, reset after each test, closed in afterAll. */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith(jestHooks(), options);
}
