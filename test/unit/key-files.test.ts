import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFakeMarketingServer } from '../../src/index.js';
import { HarFile } from '../../src/record/har-file.js';
import { smallSeed } from '../helpers/fake.js';

// Files that hold keys are their owner's alone, and a recording killed mid-write leaves nothing
// that the next one keeps.

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'key-files-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('a state file', () => {
  it('is written 0600, even over a file that was 0644', async () => {
    const stateFile = join(folder, 'state.json');
    writeFileSync(stateFile, JSON.stringify(smallSeed()), { mode: 0o644 });
    await using fake = await createFakeMarketingServer({ stateFile });
    fake.saveState();
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(stateFile, 'utf8')).toContain('key-1234');
  });
});

describe('a HAR being recorded', () => {
  it('removes the temporary file a killed recording left next to it', async () => {
    const out = join(folder, 'traffic.har');
    // A pid no process has: the recording that wrote it is gone.
    const stale = `${out}.999999999.tmp`;
    writeFileSync(stale, 'half a file');
    const file = new HarFile(out);
    await file.write();
    expect(() => statSync(stale)).toThrow();
    expect(JSON.parse(readFileSync(out, 'utf8')).log.entries).toEqual([]);
  });
});
