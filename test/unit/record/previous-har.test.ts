import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { readPrevious } from '../../../src/record/previous-har.js';
import { RecorderOptionError } from '../../../src/record/recorder-error.js';

const folder = mkdtempSync(join(tmpdir(), 'previous-har-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('a file at --out nested far deeper than any HAR', () => {
  it('is refused as no HAR without being built, and left as it is', async () => {
    const out = join(folder, 'deep.har');
    const text = `{"log":{"entries":[${'['.repeat(200_000)}${']'.repeat(200_000)}]}}`;
    writeFileSync(out, text);
    const parse = vi.spyOn(JSON, 'parse');
    const refusal = await readPrevious(out).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RecorderOptionError);
    expect((refusal as Error).message).toBe(
      `${out} exists and is not a HAR file: give another --out (it is never overwritten).`,
    );
    // Built, 200,000 levels take tens of times the file's size: it is judged by its text alone.
    expect(parse.mock.calls.some(([given]) => given === text)).toBe(false);
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('reads a reformatted HAR that nests as HARs do', async () => {
    const out = join(folder, 'reformatted.har');
    const entry = { request: { headers: [{ name: 'Accept', value: 'application/json' }] } };
    writeFileSync(
      out,
      JSON.stringify(
        {
          log: {
            version: '1.2',
            creator: { name: 'fake-marketing-server record' },
            entries: [entry],
          },
        },
        null,
        2,
      ),
    );
    await expect(readPrevious(out)).resolves.toEqual({ entries: [entry] });
  });
});
