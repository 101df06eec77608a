import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';

// The sandbox is Playwright's webServer: started once before the tests, stopped after them, and
// shared by every worker (process) through its control API: each test takes its own tenant.

/** A free port, picked once: the workers load this file again and inherit the main process's env. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
process.env.FAKE_MARKETING_PORT ??= String(await freePort());
const port = process.env.FAKE_MARKETING_PORT;
// Where the sandbox writes its certificate (--ca-out), for the tests to trust (fixtures.ts).
process.env.FAKE_MARKETING_CA = join(tmpdir(), `fake-marketing-playwright-${port}-ca.pem`);
process.env.FAKE_MARKETING_URL = `https://127.0.0.1:${port}`;

// This repository's built CLI; in your project: `npx fake-marketing-server --port ...`.
const cli = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  workers: 2,
  reporter: 'list',
  outputDir: join(tmpdir(), 'fake-marketing-playwright-results'),
  webServer: {
    command: `node "${cli}" --port ${port} --ca-out "${process.env.FAKE_MARKETING_CA}"`,
    url: `${process.env.FAKE_MARKETING_URL}/__admin/health`,
    // For this readiness probe only: Playwright's probe cannot be given a CA, and the sandbox's
    // certificate is made when it starts. The tests' own requests trust that certificate
    // (connectFakeMarketingServer({ url, ca }) in fixtures.ts) and never ignore HTTPS errors.
    ignoreHTTPSErrors: true,
    reuseExistingServer: false,
    // SIGTERM stops the sandbox cleanly (the default is SIGKILL).
    gracefulShutdown: { signal: 'SIGTERM', timeout: 5000 },
    timeout: 30_000,
  },
});
