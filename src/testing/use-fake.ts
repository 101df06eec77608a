// The package itself, not ../server.js: the helpers are separate entry points, and importing the
// main entry keeps one copy of the library (and of its error classes) in the user's process.
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  type FakeMarketingServerOptions,
  type ListenOptions,
  StateError,
} from 'fake-marketing-server';

type Hook = (fn: () => unknown) => void;

/** The lifecycle hooks of a test runner: vitest, jest and node:test all have these. */
export interface RunnerHooks {
  readonly beforeAll: Hook;
  readonly afterEach: Hook;
  readonly afterAll: Hook;
}

export interface UseFakeOptions extends FakeMarketingServerOptions {
  /** How to listen before the tests (default: HTTPS on 127.0.0.1, a free port); false: inject only. */
  listen?: ListenOptions | false;
  /**
   * Default true: after each test, `fake.reset()`: the seed's servers back to the seed, tenants
   * made with `fake.tenant()` (in beforeAll too) back to their own seed, servers added otherwise
   * removed, the journal emptied, every fault rule ended. false: nothing between tests, for
   * concurrent tests that each own a tenant (a reset in one would reach the others mid-test).
   */
  resetAfterEach?: boolean;
}

/**
 * Creates (and listens) before the tests, resets after each test (unless told not to), and closes
 * after all of them.
 * Returns the handle at once, for use inside tests: touching it before the tests start throws.
 */
export function useFakeWith(hooks: RunnerHooks, options: UseFakeOptions = {}): FakeMarketingServer {
  const { listen = {}, resetAfterEach = true, ...fakeOptions } = options;
  let fake: FakeMarketingServer | undefined;
  hooks.beforeAll(async () => {
    fake = await createFakeMarketingServer(fakeOptions);
    if (listen !== false) await fake.listen(listen);
  });
  if (resetAfterEach) hooks.afterEach(() => fake?.reset());
  hooks.afterAll(async () => {
    await fake?.close();
    fake = undefined;
  });
  return new Proxy({} as FakeMarketingServer, {
    get(_target, property) {
      if (!fake) {
        throw new StateError(
          'The fake is created in beforeAll: use it inside tests and hooks, not at the top level of the file.',
        );
      }
      const value = Reflect.get(fake, property, fake) as unknown;
      return typeof value === 'function' ? value.bind(fake) : value;
    },
  });
}
