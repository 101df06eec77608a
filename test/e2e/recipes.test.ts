/**
 * The recipes of test/recipes/ for sharing one fake across test files and processes, each run as
 * its users run it: a child process of the real runner (vitest, jest, Playwright Test), whose
 * summary must say that every test passed, with the expected count. A failure prints the child's
 * whole output.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { connectFakeMarketingServer } from 'fake-marketing-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerProblem } from '../helpers/docker.js';
import { freePort } from '../helpers/free-port.js';
import { IMAGE_TAG } from '../helpers/package.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RECIPES = join(ROOT, 'test/recipes');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');
const JEST = join(ROOT, 'node_modules/jest/bin/jest.js');
const PLAYWRIGHT = join(ROOT, 'node_modules/@playwright/test/cli.js');
/** A recipe that takes longer than this is stuck: it is killed and fails with its output. */
const CHILD_TIMEOUT_MS = 90_000;
/**
 * The runners' own per-test timeout (5 s by default in vitest and jest), raised as this
 * repository's vitest.config.ts does: under `npm test` the recipes share two cores with every
 * other test file.
 */
const VITEST_TIMEOUTS = ['--testTimeout=20000', '--hookTimeout=30000'];

// .ci/run installs Docker, starts dockerd and builds this image (`npm run image`) before the tests.
const IMAGE = IMAGE_TAG;
const run = promisify(execFile);

const problem = dockerProblem('recipes.test.ts: the container shard recipe');

interface Finished {
  command: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr as they came, without colours. */
  output: string;
}

/**
 * The child's environment: this process's, without what vitest sets for its own workers (a
 * nested vitest would read it) or a FAKE_MARKETING_ variable from the caller's shell, without
 * colours (the summaries are parsed), plus `env`.
 */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(__)?VITEST|^TEST$|^FAKE_MARKETING_|^FORCE_COLOR$/.test(name)) continue;
    clean[name] = value;
  }
  return { ...clean, NO_COLOR: '1', ...env };
}

/** Runs `node <bin> ...args` from the repository's root, as `npx <runner> ...args` would. */
function runRecipe(bin: string, args: string[], env: Record<string, string> = {}) {
  const command = `node ${bin.slice(ROOT.length)} ${args.join(' ')}`;
  return new Promise<Finished>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      output += `\n[recipes.test.ts: killed after ${CHILD_TIMEOUT_MS} ms]`;
      child.kill('SIGKILL');
    }, CHILD_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ command, code, signal, output: output.replace(/\x1b\[[0-9;]*m/g, '') });
    });
  });
}

/** The text after `label` on the summary line that starts with it (vitest's, jest's). */
function summaryLine(output: string, label: string): string | undefined {
  const pattern = new RegExp(`^\\s*${label}\\s+(.+?)\\s*$`, 'm');
  return pattern.exec(output)?.[1];
}

/** What vitest's summary says, e.g. `{ files: '2 passed (2)', tests: '6 passed (6)' }`. */
function vitestSummary(run: Finished) {
  return {
    code: run.code,
    files: summaryLine(run.output, 'Test Files'),
    tests: summaryLine(run.output, 'Tests'),
  };
}

/** Asserts that the run passed with the expected summary; on failure prints its output. */
function expectPassed(run: Finished, summary: object, expected: object): void {
  expect(
    summary,
    `${run.command} (exit ${run.code}${run.signal ? `, ${run.signal}` : ''}) printed:\n${run.output}`,
  ).toEqual({ code: 0, ...expected });
}

/** Every file under a folder, relative to it: a recipe must leave nothing behind. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('recipes: one fake shared across test files and processes', () => {
  it('vitest: globalSetup starts a fake and provides its URL and CA; two files of concurrent tenant tests', async () => {
    const dir = join(RECIPES, 'vitest-global-setup');
    const before = filesUnder(dir);
    const finished = await runRecipe(VITEST, [
      'run',
      '--config',
      join(dir, 'vitest.config.ts'),
      ...VITEST_TIMEOUTS,
    ]);
    expectPassed(finished, vitestSummary(finished), {
      files: '2 passed (2)',
      tests: '6 passed (6)',
    });
    expect(filesUnder(dir)).toEqual(before);
  }, 120_000);

  it('jest: globalSetup starts a fake, globalTeardown stops it; CommonJS files with withTenant and test.concurrent', async () => {
    const dir = join(RECIPES, 'jest-global-setup');
    const before = filesUnder(dir);
    const finished = await runRecipe(JEST, [
      '--config',
      join(dir, 'jest.config.cjs'),
      '--testTimeout=20000',
    ]);
    expectPassed(
      finished,
      {
        code: finished.code,
        suites: summaryLine(finished.output, 'Test Suites:'),
        tests: summaryLine(finished.output, 'Tests:'),
      },
      { suites: '2 passed, 2 total', tests: '4 passed, 4 total' },
    );
    expect(filesUnder(dir)).toEqual(before);
  }, 120_000);

  it('Playwright Test: the sandbox CLI as webServer, two workers with a tenant per test, trusting its CA', async () => {
    const dir = join(RECIPES, 'playwright-web-server');
    const before = filesUnder(dir);
    const port = await freePort();
    // Where playwright.config.ts has the sandbox write its certificate (--ca-out).
    const caFile = join(tmpdir(), `fake-marketing-playwright-${port}-ca.pem`);
    try {
      const finished = await runRecipe(
        PLAYWRIGHT,
        ['test', '--config', join(dir, 'playwright.config.ts')],
        { FAKE_MARKETING_PORT: String(port) },
      );
      const passed = /^\s*(\d+) passed \(/m.exec(finished.output)?.[1];
      const notPassed = finished.output.match(
        /^\s*\d+ (failed|flaky|skipped|interrupted|did not run)\b.*$/gm,
      );
      expectPassed(
        finished,
        {
          code: finished.code,
          workers: /using (\d+) workers/.exec(finished.output)?.[1],
          passed,
          notPassed,
        },
        { workers: '2', passed: '4', notPassed: null },
      );
      // The sandbox was stopped with the run: its port is closed.
      await expect(
        connectFakeMarketingServer({ url: `https://127.0.0.1:${port}`, ca: caFile }),
      ).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      rmSync(caFile, { force: true });
    }
    expect(filesUnder(dir)).toEqual(before);
  }, 120_000);
});

describe.skipIf(problem !== undefined)(
  `recipes: CI shards sharing one container (${IMAGE})`,
  () => {
    let name: string | undefined;
    let url: string;
    let caFile: string;

    beforeAll(async () => {
      const port = await freePort();
      name = `fms-recipes-${port}`;
      // As CI would start it: the default seed (servers 12345 and 6789), on the host's network, so
      // that the control API answers the shards at 127.0.0.1 with no admin token (the image's
      // FMS_LOCAL_CONTROL_ONLY: loopback clients only).
      await run('docker', [
        'run',
        '--detach',
        '--name',
        name,
        '--network',
        'host',
        '--env',
        `FMS_PORT=${port}`,
        '--env',
        'FMS_CA_OUT=/tmp/fms-ca.pem',
        IMAGE,
      ]);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const { stdout } = await run('docker', [
          'inspect',
          '--format',
          '{{.State.Health.Status}}',
          name,
        ]);
        if (stdout.trim() === 'healthy') break;
        if (Date.now() > deadline)
          throw new Error(`container ${name} not healthy: ${stdout.trim()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      caFile = join(mkdtempSync(join(tmpdir(), 'fms-recipes-')), 'ca.pem');
      await run('docker', ['cp', `${name}:/tmp/fms-ca.pem`, caFile]);
      url = `https://127.0.0.1:${port}`;
    }, 60_000);

    afterAll(async () => {
      if (name) await run('docker', ['rm', '--force', name]).catch(() => undefined);
      if (caFile) rmSync(join(caFile, '..'), { recursive: true, force: true });
    });

    it('two vitest shards run in parallel against one container; every tenant is gone afterwards', async () => {
      const config = join(RECIPES, 'vitest-global-setup/vitest.config.ts');
      const env = { FAKE_MARKETING_URL: url, FAKE_MARKETING_CA: caFile };
      const shards = await Promise.all(
        ['1/2', '2/2'].map((shard) =>
          runRecipe(
            VITEST,
            ['run', '--config', config, `--shard=${shard}`, ...VITEST_TIMEOUTS],
            env,
          ),
        ),
      );
      // Two files, one per shard, three tests each.
      for (const shard of shards) {
        expectPassed(shard, vitestSummary(shard), { files: '1 passed (1)', tests: '3 passed (3)' });
      }

      const fake = await connectFakeMarketingServer({ url, ca: caFile });
      try {
        const state = await fake.exportState();
        expect(state.servers.map((server) => server.serverId).sort((a, b) => a - b)).toEqual([
          6789, 12345,
        ]);
        // The shards' tenants did reach the container: each file's outage test got its one 503.
        const outages = await fake.requests({ status: 503 });
        expect(outages).toHaveLength(2);
        expect(new Set(outages.map((entry) => entry.serverId)).size).toBe(2);
      } finally {
        await fake.close();
      }
    }, 120_000);
  },
);
