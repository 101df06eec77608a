import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Files small enough to read in one sitting: none in src/ over 400 lines. A file that is one
// table (a list of entries, no logic) may be longer; it is named here, with its reason.
const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const MAX_LINES = 400;
const TABLES: Readonly<Record<string, string>> = {};

function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith('.ts') ? [path] : [];
  });
}

describe('the source files', () => {
  it(`are at most ${MAX_LINES} lines each, tables aside`, () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((file) => ({
        file: relative(SRC, file),
        lines: readFileSync(file, 'utf8').split('\n').length - 1,
      }))
      .filter(({ file, lines }) => lines > MAX_LINES && !(file in TABLES))
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
