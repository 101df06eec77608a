import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, spawnCli } from '../helpers/cli.js';

/**
 * Replay peaked at about 40 times the HAR's size and read a HAR of any size. Past --max-har-size
 * (100 MiB by default) it refuses the file (exit 2) saying how to raise the bound; and it no longer
 * holds every injected request until it ends.
 */
const MiB = 1024 * 1024;
const folder = mkdtempSync(join(tmpdir(), 'replay-size-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A file of `size` bytes that takes no disk (sparse): not JSON, so reading it fails as such. */
function sparse(name: string, size: number): string {
  const file = join(folder, name);
  writeFileSync(file, '');
  truncateSync(file, size);
  return file;
}

describe('replay: the size of a HAR', () => {
  it('refuses a file past the default 100 MiB with exit 2, naming the flag', async () => {
    const file = sparse('big.har', 100 * MiB + 1);
    const { code, stderr } = await spawnCli(['replay', file]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain('is 100.0 MiB, past the 100 MiB replay reads (the default)');
    expect(stderr).toContain('--max-har-size <MiB>');
  });

  it('--max-har-size raises (or lowers) the bound; a bad value is usage', async () => {
    const file = sparse('raised.har', 100 * MiB + 1);
    const raised = await spawnCli(['replay', file, '--max-har-size', '101']).exited;
    expect(raised.code).toBe(2);
    expect(raised.stderr).toContain('not JSON');
    const lowered = await spawnCli(['replay', sparse('small.har', 2 * MiB), '--max-har-size', '1'])
      .exited;
    expect(lowered.stderr).toContain('past the 1 MiB replay reads (--max-har-size)');
    for (const bad of ['0', '-1', '1.5', 'lots']) {
      const { code, stderr } = await spawnCli(['replay', file, `--max-har-size=${bad}`]).exited;
      expect(code).toBe(2);
      expect(stderr).toContain(`--max-har-size is a whole number of MiB from 1, got '${bad}'`);
    }
  });

  it('replays 50 000 entries (14 MB) in a 160 MB heap: no request is held until the end', async () => {
    const auth = [
      { name: 'Authorization', value: `Basic ${Buffer.from('12345:abcdefgh').toString('base64')}` },
    ];
    const entry = JSON.stringify({
      request: { method: 'GET', url: 'https://x/marketing/v1/lists', headers: auth },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        content: { mimeType: 'application/json', text: '[]' },
      },
    });
    const file = join(folder, 'many.har');
    writeFileSync(
      file,
      `{"log":{"version":"1.2","entries":[${Array(50_000).fill(entry).join(',')}]}}`,
    );
    const child = spawn(process.execPath, ['--max-old-space-size=160', CLI, 'replay', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(stdout).toContain('50000 match, 0 drift');
    expect(code).toBe(0);
  }, 60_000);
});
