import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCliPerTest, started } from '../helpers/cli.js';
import { send } from '../helpers/request.js';
import { UNWRITABLE_STATE_FILES } from '../helpers/unwritable-state-files.js';

const run = spawnCliPerTest();

const dir = () => mkdtempSync(join(tmpdir(), 'fms-state-cli-'));
const isRoot = process.getuid?.() === 0;

describe('the sandbox with a --state-file it cannot write', () => {
  it.each(UNWRITABLE_STATE_FILES)(
    'a state file %s: exit 2 at start naming the flag and the path',
    async (_, path, why) => {
      const folder = dir();
      writeFileSync(join(folder, 'file.txt'), 'x');
      const file = path(folder);
      const cli = run(['--http', '--port', '0', '--state-file', file]);
      const { code, stderr } = await cli.exited;
      expect(code).toBe(2);
      expect(stderr).toContain(`--state-file ${file} cannot be written: ${why}.`);
      expect(cli.output()).not.toContain('Press Ctrl+C');
    },
  );

  // /proc exists, but no file can be made in it (ENOENT all the same).
  it.runIf(process.platform === 'linux')(
    'a file in a folder that takes no new file (/proc/version): the right reason',
    async () => {
      const { code, stderr } = await run(['--http', '--port', '0', '--state-file', '/proc/version'])
        .exited;
      expect(code).toBe(2);
      expect(stderr).toContain(
        '--state-file /proc/version cannot be written: no file can be created in its folder.',
      );
    },
  );

  it('a folder it has no permission to write in: exit 2 at start', async () => {
    // root writes anywhere but a read-only file system: /sys refuses even root.
    const folder = isRoot ? '/sys' : dir();
    if (!isRoot) {
      mkdirSync(join(folder, 'locked'), { mode: 0o555 });
    }
    const file = isRoot ? '/sys/state.json' : join(folder, 'locked', 'state.json');
    const { code, stderr } = await run(['--http', '--port', '0', '--state-file', file]).exited;
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(
        `--state-file ${file.replace(/[./]/g, '\\$&')} cannot be written: (no permission to write in its folder|its file system is read-only)\\.`,
      ),
    );
  });

  it('a folder removed while it runs: POST /__admin/save answers 507, SIGTERM says the state was lost and exits 1', async () => {
    const folder = join(dir(), 'state');
    mkdirSync(folder);
    const file = join(folder, 'state.json');
    const cli = run(['--http', '--port', '0', '--state-file', file]);
    const { url } = await started(cli);
    rmSync(folder, { recursive: true });
    const saved = await send(`${url}/__admin/save`, { method: 'POST' });
    expect(saved.status).toBe(507);
    expect(JSON.parse(saved.body).message).toBe(
      `Could not write the state file ${file}: its folder does not exist. The state is still in memory: fix that and save again.`,
    );
    cli.child.kill('SIGTERM');
    const { code, stderr } = await cli.exited;
    expect(code).toBe(1);
    expect(stderr).toContain(
      `stopped, but could not write the state file ${file}: its folder does not exist. This session's changes are lost.`,
    );
    expect(stderr).not.toContain('could not stop cleanly');
  });
});
