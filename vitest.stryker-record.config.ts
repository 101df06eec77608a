import { defineConfig } from 'vitest/config';

/**
 * The tests that run the recorder in process, for mutation testing of `src/record` and
 * `src/cli/record-command.ts` with Stryker: tests that spawn the CLI give Stryker no coverage of
 * the mutated source (test/e2e/record-memory.test.ts spawns it alone, so it is not here). verify's
 * tests, which record through it too, are left out: they take seconds for each mutant.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/cli/record-command.test.ts',
      'test/unit/record/*.test.ts',
      'test/unit/key-files.test.ts',
      'test/e2e/record.test.ts',
      'test/e2e/record-echo.test.ts',
      'test/e2e/record-headers.test.ts',
      'test/e2e/record-host.test.ts',
      'test/e2e/record-in-flight.test.ts',
      'test/e2e/record-loop.test.ts',
      'test/e2e/record-request-bound.test.ts',
      'test/e2e/trickling-upstream.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
