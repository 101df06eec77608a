import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SOAK = fileURLToPath(new URL('../../bench/soak.mjs', import.meta.url));

// The soak tool itself (npm run soak): a short run must finish with nothing unexpected.
describe('npm run soak', () => {
  it('drives the sandbox CLI with a mixed load and reports no 5xx, errors or unexpected status', async () => {
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>(
      (resolve) => {
        execFile(process.execPath, [SOAK, '--seconds', '3'], { timeout: 60_000 }, (error, out) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout: out }),
        );
      },
    );
    expect(stdout).toContain('Nothing unexpected.');
    expect(stdout).toMatch(/statuses: 200: \d+, 204: \d+/);
    expect(code).toBe(0);
  });
});
