import { defineConfig } from 'vitest/config';

/**
 * The recorder's unit tests alone, for a quick mutation run of `src/record` with Stryker. Its
 * scores are lower bounds; `vitest.stryker-record.config.ts` adds the in-process e2e tests.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/record/*.test.ts',
      'test/unit/cli/record-command.test.ts',
      'test/unit/key-files.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
