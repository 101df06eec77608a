import { afterAll, beforeAll } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { type DriftProxy, startDriftProxy } from './drift-proxy.js';
import { makeFake } from './fake.js';

/**
 * For the whole test file: a fake on plain HTTP with the drift proxy in front of it, both
 * closed after the file's tests. Read `fake` and `proxy` inside tests (set before they run).
 */
export function fakeBehindDriftProxy(): { fake: FakeMarketingServer; proxy: DriftProxy } {
  const running = {} as { fake: FakeMarketingServer; proxy: DriftProxy };
  beforeAll(async () => {
    running.fake = await makeFake();
    const address = await running.fake.listen({ https: false });
    running.proxy = await startDriftProxy({ upstream: address.url });
  });
  afterAll(async () => {
    await running.proxy.close();
    await running.fake.close();
  });
  return running;
}
