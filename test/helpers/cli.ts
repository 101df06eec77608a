import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, onTestFinished } from 'vitest';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly output: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Spawns the built CLI as a real process; `nodeArgs` go to Node itself (`--import=...`). */
export function spawnCli(args: string[], nodeArgs: string[] = []): RunningCli {
  const child = spawn(process.execPath, [...nodeArgs, CLI, ...args], { stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, output: () => stdout, exited };
}

/**
 * {@link spawnCli} for one test file: a CLI still running after its test is killed (SIGKILL), so
 * that a test that fails never leaves a sandbox behind.
 */
export function spawnCliPerTest(): (args: string[], nodeArgs?: string[]) => RunningCli {
  const running: RunningCli[] = [];
  afterEach(() => {
    for (const cli of running.splice(0)) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  });
  return (args, nodeArgs) => {
    const cli = spawnCli(args, nodeArgs);
    running.push(cli);
    return cli;
  };
}

/** Waits until the startup block is printed, and reads the addresses from it. */
export async function started(cli: RunningCli, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!cli.output().includes('Press Ctrl+C to stop.')) {
    if (cli.child.exitCode !== null)
      throw new Error(`CLI exited early: ${(await cli.exited).stderr}`);
    if (Date.now() > deadline) throw new Error(`CLI did not start: ${cli.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const text = cli.output();
  const baseUrl = /Base URL\s+(\S+)/.exec(text)![1]!;
  const caFile = /CA file\s+(\S+)/.exec(text)?.[1];
  const servers = [...text.matchAll(/Server (\d+)\s+key (\S+)/g)].map((m) => ({
    serverId: Number(m[1]),
    key: m[2]!,
  }));
  return { baseUrl, url: baseUrl.replace('/marketing/v1', ''), caFile, servers, text };
}

/**
 * The CLI, printing its peak RSS (bytes) on stderr as it exits: for tests that bound a command's
 * memory whatever its input.
 */
export function spawnCliWithPeakRss(args: string[]) {
  const peak = `process.on('exit',()=>process.stderr.write('\\nmaxrss='+process.resourceUsage().maxRSS*1024+'\\n'))`;
  const cli = spawnCli(args, [`--import=data:text/javascript,${encodeURIComponent(peak)}`]);
  const exited = cli.exited.then(({ code, stderr }) => ({
    code,
    stdout: cli.output(),
    stderr,
    rss: Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? Number.POSITIVE_INFINITY),
  }));
  return { child: cli.child, exited, stdout: cli.output };
}

/**
 * `record --http` on a free port in front of `upstream`, writing `out`, with its peak RSS
 * ({@link spawnCliWithPeakRss}), once it prints its base URL; killed when its test finishes.
 */
export async function startRecorderWithPeakRss(upstream: string, out: string) {
  const recorder = spawnCliWithPeakRss([
    'record',
    '--http',
    '--port',
    '0',
    '--upstream',
    upstream,
    '--out',
    out,
  ]);
  onTestFinished(() => {
    if (recorder.child.exitCode === null) recorder.child.kill('SIGKILL');
  });
  while (!recorder.stdout().includes('Press Ctrl+C')) {
    if (recorder.child.exitCode !== null) throw new Error((await recorder.exited).stderr);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const baseUrl = /Base URL\s+(\S+)/.exec(recorder.stdout())![1]!;
  return { ...recorder, baseUrl };
}
