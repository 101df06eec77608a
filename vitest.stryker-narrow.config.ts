import { defineConfig } from 'vitest/config';

/** Unit tests and the api tests that aim at the journal, redaction, guard, body and faults. */
export default defineConfig({
  test: {
    include: [
      'test/unit/**/*.test.ts',
      'test/api/journal/*.test.ts',
      'test/api/redaction/redaction.test.ts',
      'test/api/http/pipeline/request-limits.test.ts',
      'test/api/faults/faults-socket.test.ts',
      'test/api/http/pipeline/guard-auth.test.ts',
      'test/api/http/routing.test.ts',
      'test/api/http/pipeline/control-guard.test.ts',
      'test/api/http/bad-input.test.ts',
      'test/api/faults/faults.test.ts',
      'test/api/http/routes/control-inputs.test.ts',
      'test/api/replay/replay.test.ts',
    ],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
