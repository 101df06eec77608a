import { afterAll, beforeAll } from 'vitest';
import type { FakeMarketingServer } from '../../src/index.js';
import { makeFake } from './fake.js';
import type { Target } from './raw-socket.js';

/** Plain HTTP and HTTPS, for `describe.each`: the tests that speak to a real socket run on both. */
export const OVER_HTTP_AND_HTTPS = [
  ['HTTP', false],
  ['HTTPS', true],
] as const;

/** A fake on a real loopback socket for one `describe` block, and where raw sockets reach it. */
export interface ListeningFake {
  readonly fake: FakeMarketingServer;
  readonly target: Target;
}

/**
 * A fake (the test seed) listening over HTTPS or plain HTTP from the enclosing block's start to its
 * end. Read `fake` and `target` inside tests: they are set once the block starts.
 */
export function listeningFake(https: boolean): ListeningFake {
  const listening = {} as { fake: FakeMarketingServer; target: Target };
  beforeAll(async () => {
    listening.fake = await makeFake();
    const { url, ca } = await listening.fake.listen({ https });
    listening.target = { url, ca };
  });
  afterAll(() => listening.fake.close());
  return listening;
}
