import { defineConfig } from 'vitest/config';

/**
 * Every unit test and only the api tests named in `STRYKER_API_TESTS` (comma-separated file
 * globs under test/api, e.g. `redaction,journal-socket`): for measuring one file with
 * Stryker on a busy machine, when the file runs on every request and the whole api suite would
 * run for each of its mutants. A mutant killed here is killed by the whole fast suite, so the
 * figures are lower bounds (docs/benchmarks.md, mutation testing).
 */
const api = (process.env.STRYKER_API_TESTS ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter((name) => name !== '')
  .map((name) => `test/api/**/${name}.test.ts`);

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', ...api],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
