import { defineConfig } from 'vitest/config';

/**
 * The tests that run `src/verify` in process, for mutation testing of it with Stryker (a config
 * of your own in /tmp: `"mutate": ["src/verify/**\/*.ts"]`, this file as `vitest.configFile`): the
 * unit tests of its readers, the drift suite and the e2e tests that call verifyService, verifyPlan
 * or the verify command in process. Tests that spawn the CLI give Stryker no coverage of the mutated
 * source; the ones in these files still run, so keep `dist/` built.
 */
export default defineConfig({
  test: {
    include: [
      'test/unit/verify/*.test.ts',
      'test/unit/printable.test.ts',
      'test/e2e/trickling-upstream.test.ts',
      'test/e2e/verify-drift.test.ts',
      'test/e2e/verify.test.ts',
      'test/e2e/verify-report.test.ts',
      'test/e2e/verify-secrets.test.ts',
      'test/e2e/verify-base-url-secrets.test.ts',
      'test/e2e/verify-har.test.ts',
      'test/e2e/verify-command.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
