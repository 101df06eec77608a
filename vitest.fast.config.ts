import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:fast`, the inner loop: unit, api and property tests, without the sockets, CLI,
 * browser and container tests of `npm test`. Threads start faster than the forks `npm test` uses
 * and share nothing here but the CPU. Half again as many workers as cores: several of these
 * tests spend their time waiting (a socket that times out, a body that never ends), and an idle
 * worker would leave a core unused.
 */
export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/api/**/*.test.ts', 'test/property/**/*.test.ts'],
    pool: 'threads',
    maxWorkers: Math.max(2, Math.ceil(availableParallelism() * 1.5)),
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
