import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, type TestContext, test } from 'vitest';
import { type RunningCli, spawnCli, started } from '../helpers/cli.js';

// Test suites in other languages against one CLI sandbox (HTTPS, its certificate written with
// --ca-out), each test of theirs owning a tenant made over the control API: Python's unittest
// (standard library only) and Java's JUnit 5 (JDK 17's HttpClient, Debian's junit5 package).
// Both suites run at the same time against the same fake, as the tenants are meant to.
//
// A missing tool skips its suite, saying which; under CI=true it fails instead (.ci/run installs
// them all).
const FIXTURES = fileURLToPath(new URL('../fixtures/languages/', import.meta.url));
/** Debian's Python (a pyenv python3 may come first on the PATH; the suite needs the stdlib only). */
const PYTHON = '/usr/bin/python3';
/** Debian's junit5: the console launcher, whose manifest names the engines next to it. */
const JUNIT = '/usr/share/java/junit-platform-console-standalone.jar';

const works = (command: string, ...args: string[]) =>
  spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
function missing(commands: string[], debian: string): string | undefined {
  const absent = commands.filter((command) => !works('sh', '-c', `command -v ${command}`));
  return absent.length > 0 ? `${absent.join(', ')} not installed (Debian: ${debian})` : undefined;
}
const tools = {
  python: missing([PYTHON], 'python3'),
  java:
    missing(['java', 'javac'], 'openjdk-17-jdk-headless') ??
    (existsSync(JUNIT) ? undefined : `no ${JUNIT} (Debian: junit5)`),
};

/** A missing tool: a visible skip with the reason, or under CI=true a failure. */
function requireTool(ctx: TestContext, problem: string | undefined) {
  if (problem === undefined) return;
  if (process.env.CI === 'true')
    throw new Error(
      `${problem}: under CI=true a missing tool fails the test (.ci/run installs it)`,
    );
  ctx.skip(problem);
}

function run(command: string, args: string[], options: { cwd?: string; env?: object } = {}) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...process.env, ...options.env },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          output: `$ ${command} ${args.join(' ')}\n${stdout}${stderr}`,
        }),
    );
  });
}

/**
 * The runner's output, printed when the test fails, under the test's name (the two tests run at
 * the same time, so vitest may list the print under the other one).
 */
function printOnFailure(ctx: TestContext, output: () => string) {
  ctx.onTestFailed(() => {
    console.log(`--- output of "${ctx.task.name}" ---\n${output()}\n--- end of output ---`);
  });
}

let cli: RunningCli;
let env: { FAKE_URL: string; FAKE_CA: string };
const dir = mkdtempSync(join(tmpdir(), 'fms-languages-'));

beforeAll(async () => {
  const caFile = join(dir, 'ca.pem');
  cli = spawnCli(['--port', '0', '--ca-out', caFile]);
  const { url } = await started(cli, 30_000);
  env = { FAKE_URL: url, FAKE_CA: caFile };
});
afterAll(async () => {
  if (cli && cli.child.exitCode === null) {
    cli.child.kill('SIGTERM');
    await cli.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('suites in other languages against the CLI sandbox', () => {
  test('Python unittest (test_tenants.py): every test passes', async (ctx) => {
    requireTool(ctx, tools.python);
    const names = [
      ...readFileSync(join(FIXTURES, 'test_tenants.py'), 'utf8').matchAll(/^ {4}def (test_\w+)/gm),
    ].map((m) => m[1]!);
    ctx.expect(names.length).toBeGreaterThanOrEqual(4);

    // -B: no __pycache__ written into the fixtures folder.
    const result = await run(PYTHON, ['-B', '-m', 'unittest', '-v', 'test_tenants'], {
      cwd: FIXTURES,
      env,
    });
    printOnFailure(ctx, () => result.output);
    ctx.expect(result.code, 'unittest exit code').toBe(0);
    for (const name of names)
      ctx.expect(result.output).toMatch(new RegExp(`^${name} \\(.*\\) \\.\\.\\. ok$`, 'm'));
    ctx.expect(result.output).toMatch(new RegExp(`^Ran ${names.length} tests? in `, 'm'));
    ctx.expect(result.output).toMatch(/^OK$/m);
  }, 150_000);

  test('Java JUnit 5 (TenantsTest.java): every test passes', async (ctx) => {
    requireTool(ctx, tools.java);
    const source = readFileSync(join(FIXTURES, 'TenantsTest.java'), 'utf8');
    const names = [...source.matchAll(/@Test\s+void (\w+)\(/g)].map((m) => m[1]!);
    ctx.expect(names.length).toBeGreaterThanOrEqual(4);

    const classes = join(dir, 'classes');
    const compiled = await run('javac', [
      '-d',
      classes,
      '-cp',
      JUNIT,
      join(FIXTURES, 'TenantsTest.java'),
    ]);
    let output = compiled.output;
    printOnFailure(ctx, () => output);
    ctx.expect(compiled.code, 'javac exit code').toBe(0);

    const result = await run(
      'java',
      [
        '-jar',
        JUNIT,
        '--class-path',
        classes,
        '--select-class',
        'TenantsTest',
        '--disable-banner',
        '--disable-ansi-colors',
        '--details=tree',
        '--details-theme=ascii',
      ],
      { env },
    );
    output += result.output;
    ctx.expect(result.code, 'JUnit console exit code').toBe(0);
    for (const name of names) ctx.expect(result.output).toContain(`${name}() [OK]`);
    ctx.expect(result.output).toMatch(new RegExp(`\\[\\s*${names.length} tests successful\\s*\\]`));
    ctx.expect(result.output).toMatch(/\[\s*0 tests failed\s*\]/);
  }, 150_000);
});
