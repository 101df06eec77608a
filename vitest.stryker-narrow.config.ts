import { defineConfig } from 'vitest/config';

/** Unit tests and the api tests that aim at the journal, redaction, guard, body and faults. */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/api/journal*.test.ts',
      'test/api/redaction.test.ts',
      'test/api/pipeline-mutants.test.ts',
      'test/api/faults-socket.test.ts',
      'test/api/guard-auth.test.ts',
      'test/api/routing.test.ts',
      'test/api/control-guard.test.ts',
      'test/api/bad-input.test.ts',
      'test/api/faults.test.ts',
      'test/api/control-inputs.test.ts',
      'test/api/replay.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
