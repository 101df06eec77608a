import { after, afterEach, before } from 'node:test';
import type { FakeMarketingServer } from 'fake-marketing-server';
import { type UseFakeOptions, useFakeWith } from './use-fake.js';

export type { UseFakeOptions } from './use-fake.js';

/** A fake for this test file (node:test): created in before, reset after each test, closed in after. */
export function useFakeMarketingServer(options?: UseFakeOptions): FakeMarketingServer {
  return useFakeWith({ beforeAll: before, afterEach, afterAll: after }, options);
}
