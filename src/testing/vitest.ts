import type { FakeMarketingServer } from 'fake-marketing-server';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';

/**
 * A fake for this test file: created and listening in beforeAll, reset after each test, closed
 * in afterAll.
 *
 * @example
 * const fake = useFakeMarketingServer({ seed: 'test/fixtures/marketing.json' });
 * it('lists', async () => { const response = await fetch(`${fake.baseUrl}/lists`, ...) });
 */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith({ beforeAll, afterEach, afterAll }, options);
}
