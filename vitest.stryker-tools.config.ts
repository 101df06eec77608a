import { defineConfig } from 'vitest/config';

/**
 * The tests that run replay and the CLI's tools in process, for mutation testing of `src/replay`
 * and `src/cli` with Stryker (docs/benchmarks.md, "Mutation testing"): unit tests, the replay api
 * and property tests, and the e2e tests that call replay or verify functions in process. Tests
 * that spawn the CLI give Stryker no coverage of the mutated source, so they are not here.
 * `STRYKER_SKIP_SLOW=1` leaves out the two slowest (the replay property test and the drift
 * proxy's e2e test, which replay many whole sessions for each mutant): for a run on a busy
 * machine; a mutant killed without them is killed with them, so the figures are lower bounds.
 */
const slow = ['test/property/replay.test.ts', 'test/e2e/replay-drifts.test.ts'];

export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/api/replay/*.test.ts',
      'test/api/journal/journal-body-as-sent.test.ts',
      'test/e2e/verify-command.test.ts',
      ...(process.env.STRYKER_SKIP_SLOW === '1' ? [] : slow),
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
