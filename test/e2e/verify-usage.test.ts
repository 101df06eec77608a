import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

/**
 * `verify --server-id <a word>` said "--server-id is required" although it was given. It says what
 * is wrong, never repeating the value (a key given there by mistake is not printed).
 */
const BASE = ['--base-url', 'http://127.0.0.1:9/marketing/v1', '--key', 'some-key-123456'];

describe('verify and import: --server-id', () => {
  it.each(['verify', 'import'])(
    '%s: a value that is no server id says so, without it',
    async (command) => {
      const value = 'Secret-Key-For-Prod-777';
      const { code, stderr } = await spawnCli([
        command,
        ...BASE,
        '--server-id',
        value,
        '--out',
        '/dev/null',
      ]).exited;
      expect(code).toBe(2);
      expect(stderr).toContain(
        '--server-id must be the server id, a whole number of 1 to 9 digits',
      );
      expect(stderr).toContain('(23 characters, not shown)');
      expect(stderr).not.toContain('is required');
      expect(stderr).not.toContain(value);
    },
  );

  it('a missing one is required', async () => {
    const { code, stderr } = await spawnCli(['verify', ...BASE]).exited;
    expect(code).toBe(2);
    expect(stderr).toContain('--server-id is required');
  });
});
