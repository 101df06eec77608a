// What the CLI loads to start the sandbox. Start-up is timed by bench/startup.mjs, not here: these
// tests count what is loaded, and when.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';

const DIST = new URL('../../dist/', import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'fms-startup-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Preloaded into the CLI: stands in for Node 22's module.enableCompileCache (Node 20 has none) to
// note which packages were loaded when the CLI asked for the cache, and which at exit (and
// whether node:worker_threads was). With NOTE_WORKER=1 it also notes which were loaded when the
// first worker thread (the certificate's) was started.
const PRELOAD = join(work, 'note-loads.cjs');
writeFileSync(
  PRELOAD,
  `// A worker thread runs the preloads of its process too: note the main thread only (a worker's
// environment is a copy of the main thread's, so it sees this variable set).
if (process.env.NOTE_LOADS_STARTED === '1') return;
process.env.NOTE_LOADS_STARTED = '1';
const Module = require('node:module');
const packages = () => [...new Set(Object.keys(require.cache)
  .filter((file) => file.includes('/node_modules/'))
  .map((file) => file.split('/node_modules/').pop().split('/'))
  .map(([scope, name]) => (scope.startsWith('@') ? scope + '/' + name : scope)))];
let atCall;
Module.enableCompileCache = () => { atCall = packages(); return { status: 0 }; };
// Whether the CLI (its code or a dependency) loads node:worker_threads. Node 20 loads it only when
// asked, so its list of loaded modules tells. Node 22 and later load it themselves as soon as an ES
// module imports node:util or node:http (a built-in's ES module face reads every export, and the
// lazy util.setTraceSigInt and http.WebSocket load it), so there what tells is whether any module
// asks for it: module.registerHooks (Node 22.15 and later) sees every import and require.
let asked = false;
if (Module.registerHooks)
  Module.registerHooks({
    resolve(specifier, context, next) {
      if (specifier === 'node:worker_threads' || specifier === 'worker_threads') asked = true;
      return next(specifier, context);
    },
  });
const workerThreads = () =>
  Module.registerHooks ? asked : process.moduleLoadList.includes('NativeModule worker_threads');
let atWorker;
if (process.env.NOTE_WORKER === '1') {
  const threads = require('node:worker_threads');
  const { Worker } = threads;
  threads.Worker = class extends Worker { constructor(...args) { atWorker ??= packages(); super(...args); } };
}
process.on('exit', () => process.stderr.write('\\nLOADS ' + JSON.stringify({ atCall, atWorker, atExit: packages(), workerThreads: workerThreads() }) + '\\n'));
`,
);

interface Loads {
  atCall?: string[];
  atWorker?: string[];
  atExit: string[];
  workerThreads: boolean;
}

/** Runs the CLI with the preload; SIGTERM once `stopWhen` is true (undefined: let it exit). */
async function runCli(
  args: string[],
  stopWhen?: (stdout: string) => boolean,
  env: Record<string, string> = {},
): Promise<Loads> {
  const child = spawn(process.execPath, ['-r', PRELOAD, CLI, ...args], {
    stdio: 'pipe',
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  let stopped = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    if (!stopped && stopWhen?.(stdout)) {
      stopped = true;
      child.kill('SIGTERM');
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code, stderr).toBe(0);
  const line = /^LOADS (.*)$/m.exec(stderr);
  expect(line, stderr).not.toBeNull();
  return JSON.parse(line![1]!) as Loads;
}

describe('the CLI start-up', () => {
  it('asks for the compile cache before it loads any dependency, then starts the sandbox', async () => {
    const loads = await runCli(['--http', '--port', '0'], (out) =>
      out.includes('Press Ctrl+C to stop.'),
    );
    expect(loads.atCall).toEqual([]);
    expect(loads.atExit).toEqual(expect.arrayContaining(['fastify', '@fastify/basic-auth']));
    // Over HTTP no certificate is made, so no worker thread is needed either.
    expect(loads.workerThreads).toBe(false);
  });

  it('starts making its certificate before it loads fastify, so both run at once', async () => {
    const loads = await runCli(
      ['--port', '0', '--ca-out', join(work, 'ca.pem')],
      (out) => out.includes('Press Ctrl+C to stop.'),
      { NOTE_WORKER: '1' },
    );
    expect(loads.atWorker).toBeDefined();
    expect(loads.atWorker).not.toContain('fastify');
    expect(loads.atExit).toContain('fastify');
  });

  it.each([['--version'], ['--help']])(
    'answers %s without loading any dependency',
    async (flag) => {
      const loads = await runCli([flag]);
      expect(loads.atCall).toEqual([]);
      expect(loads.atExit).toEqual([]);
    },
  );

  it("reaches none of the subcommands' code from the sandbox's start (only by their own import)", () => {
    const reached = new Set<string>();
    const sources: string[] = [];
    const visit = (file: string) => {
      if (reached.has(file)) return;
      reached.add(file);
      const code = readFileSync(new URL(file, DIST), 'utf8');
      sources.push(...[...code.matchAll(/^\/\/ (src\/\S+)$/gm)].map((match) => match[1]!));
      for (const [, next] of code.matchAll(/from "\.\/([\w-]+\.js)"/g)) visit(next!);
      for (const [, next] of code.matchAll(/import\("\.\/([\w-]+\.js)"\)/g))
        if (!/^(verify|record|replay)-command-/.test(next!)) visit(next!);
    };
    visit('cli.js');
    expect(sources).toEqual(expect.arrayContaining(['src/cli.ts', 'src/server.ts', 'src/app.ts']));
    expect(sources.filter((source) => /^src\/(verify|record|replay)\//.test(source))).toEqual([]);
    expect(sources.filter((source) => /-command\.ts$/.test(source))).toEqual([]);
    // Each subcommand is its own file, imported when run.
    const cli = readFileSync(new URL('cli.js', DIST), 'utf8');
    for (const command of ['verify', 'record', 'replay'])
      expect(cli).toMatch(new RegExp(`import\\("\\./${command}-command-[\\w-]+\\.js"\\)`));
  });

  // The benchmark itself (bench/startup.mjs), in one round: what it reports, not how fast.
  it('is measured by bench/startup.mjs: wall and CPU time of the CLI (HTTP and HTTPS), a baseline and two floors', async () => {
    const bench = fileURLToPath(new URL('../../bench/startup.mjs', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [
      bench,
      '--runs',
      '1',
      '--baseline',
      CLI,
    ]);
    const { cli } = JSON.parse(stdout);
    const positive = expect.any(Number);
    for (const prefix of ['', 'nodeFloor', 'fastifyFloor']) {
      const key = (name: string) =>
        prefix ? prefix + name[0]!.toUpperCase() + name.slice(1) : name;
      expect(cli[key('medianMs')], prefix).toBeGreaterThan(0);
      expect(cli[key('cpuMedianMs')], prefix).toBeGreaterThan(0);
      expect(cli[key('runs')], prefix).toEqual([positive]);
      expect(cli[key('cpuRuns')], prefix).toEqual([positive]);
    }
    const series = { runs: [positive], cpuRuns: [positive] };
    expect(cli.https).toMatchObject(series);
    expect(cli.baseline).toMatchObject({ cli: CLI, ...series, https: series });
  });
});
