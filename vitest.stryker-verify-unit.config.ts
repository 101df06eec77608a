import { defineConfig } from 'vitest/config';

/**
 * verify's unit tests alone, for a quick mutation run of `src/verify` with Stryker: each check
 * against a scripted service (test/helpers/scripted-tools.ts), the readers, the report and the
 * client. Its scores are lower bounds; `vitest.stryker-verify.config.ts` adds the drift suite and
 * the in-process e2e tests (over an hour for the folder).
 */
export default defineConfig({
  test: {
    include: ['test/unit/verify/**/*.test.ts', 'test/unit/printable.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
