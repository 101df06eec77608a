import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface Started {
  readonly child: ChildProcess;
  readonly port: number;
  readonly stateFile: string;
  readonly exited: Promise<number | null>;
}

/** Starts `npm start` or the bin in a process group of its own, and waits for the startup block. */
async function start(how: 'npm start' | 'bin'): Promise<Started> {
  const stateFile = join(mkdtempSync(join(tmpdir(), 'fms-signals-')), 'state.json');
  const args = ['--port', '0', '--state-file', stateFile];
  const child =
    how === 'npm start'
      ? spawn('npm', ['start', '--silent', '--', ...args], { cwd: ROOT, detached: true })
      : spawn(process.execPath, [CLI, ...args], { cwd: ROOT, detached: true });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  const deadline = Date.now() + 30_000;
  while (!output.includes('Press Ctrl+C to stop.')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const port = Number(/https:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]);
  return { child, port, stateFile, exited };
}

/** The process ids in a process group, from ps. */
function groupMembers(group: number): number[] {
  const listing = execFileSync('ps', ['-e', '-o', 'pid=,pgid='], { encoding: 'utf8' });
  return listing
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, pgid]) => pgid === group)
    .map(([pid]) => pid!);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

const cases = [
  ['npm start', 'SIGINT', 'the npm process'],
  ['npm start', 'SIGTERM', 'the npm process'],
  ['npm start', 'SIGTERM', 'the sandbox process'],
  ['npm start', 'SIGINT', 'the process group'],
  ['npm start', 'SIGTERM', 'the process group'],
  ['bin', 'SIGINT', 'the sandbox process'],
  ['bin', 'SIGTERM', 'the sandbox process'],
  ['bin', 'SIGTERM', 'the process group'],
] as const;

describe('signals: the sandbox stops the same way however it is told to', () => {
  it.each(cases)(
    '%s: %s sent to %s stops it, writes the state file, frees the port',
    async (how, signal, target) => {
      const { child, port, stateFile, exited } = await start(how);
      const group = child.pid!;
      const sandbox = groupMembers(group).find((pid) => pid !== group) ?? group;
      if (target === 'the npm process') process.kill(group, signal);
      else if (target === 'the sandbox process')
        process.kill(how === 'bin' ? group : sandbox, signal);
      else process.kill(-group, signal);
      expect(await exited).toBe(0);
      // Nothing of the group is left behind, holding the port.
      const deadline = Date.now() + 5000;
      while (groupMembers(group).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(groupMembers(group)).toEqual([]);
      expect(await portIsFree(port)).toBe(true);
      expect(existsSync(stateFile)).toBe(true);
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).servers.length).toBeGreaterThan(0);
    },
    60_000,
  );
});
