import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCliPerTest } from '../helpers/cli.js';

// A file given by mistake that never ends (a device, a FIFO nobody writes) is refused at once with
// exit 2, naming it, instead of being read until memory runs out.

const run = spawnCliPerTest();

/** The exit of a CLI run; a run still going after 8 s is a hang, and fails the test. */
async function exitOf(args: string[]) {
  const cli = run(args);
  const hung = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 8_000).unref());
  return Promise.race([cli.exited, hung]);
}

const fifo = () => {
  const path = join(mkdtempSync(join(tmpdir(), 'fms-fifo-')), 'seed.json');
  execFileSync('mkfifo', [path]);
  return path;
};

describe('files that never end', () => {
  it.each([
    [
      '--seed /dev/zero',
      () => ['--http', '--port', '0', '--seed', '/dev/zero'],
      'seed file /dev/zero',
    ],
    [
      '--state-file /dev/zero',
      () => ['--http', '--port', '0', '--state-file', '/dev/zero'],
      '/dev/zero',
    ],
    ['--seed a FIFO', () => ['--http', '--port', '0', '--seed', fifo()], 'seed file'],
    [
      '--cert and --key /dev/zero',
      () => ['--port', '0', '--cert', '/dev/zero', '--key', '/dev/zero'],
      '--cert /dev/zero',
    ],
    ['replay /dev/zero', () => ['replay', '/dev/zero'], 'cannot read /dev/zero'],
    ['replay /dev/urandom', () => ['replay', '/dev/urandom'], 'cannot read /dev/urandom'],
  ])('%s: exit 2 at once, naming the file', async (_name, args, named) => {
    const exit = await exitOf(args());
    expect(exit).not.toBe('hung');
    if (exit === 'hung') return;
    expect(exit.code).toBe(2);
    expect(exit.stderr).toContain(named);
    expect(exit.stderr).toContain('it is not a regular file');
  });
});

describe('the library', () => {
  it('refuses a seed path that is a device, with a SeedError naming it', async () => {
    const { createFakeMarketingServer, SeedError } = await import('../../src/index.js');
    const created = createFakeMarketingServer({ seed: '/dev/zero' });
    await expect(created).rejects.toThrow(SeedError);
    await expect(created).rejects.toThrow(
      'cannot read seed file /dev/zero: it is not a regular file',
    );
  });
});
