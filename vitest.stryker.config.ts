import { defineConfig } from 'vitest/config';

/**
 * The fast suites only (unit, api, property), for mutation testing with Stryker
 * (`npm run mutation`): no e2e, no built `dist/`, no Chromium or Docker.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/property/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
