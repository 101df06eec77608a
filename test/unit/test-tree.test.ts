import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Someone looking for what protects src/<folder>/<file>.ts finds it under test/unit/<folder>/ or
// test/api/<folder>/, in files named for the behaviour they keep, never for the tool that found
// their cases.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TIERS = ['test/unit', 'test/api'];

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return testFiles(path);
    return item.name.endsWith('.test.ts') ? [path] : [];
  });
}

const isFolder = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

describe('the test tree', () => {
  it.each(TIERS)('%s has only the folders src/ has', (tier) => {
    const folders = new Set(
      testFiles(join(ROOT, tier)).map((file) => dirname(relative(join(ROOT, tier), file))),
    );
    expect(folders.size).toBeGreaterThan(5);
    const strays = [...folders].filter((folder) => !isFolder(join(ROOT, 'src', folder)));
    expect(strays).toEqual([]);
  });

  it('has a unit test in a folder only when it imports from the same folder of src/', () => {
    const unit = join(ROOT, 'test/unit');
    const files = testFiles(unit).filter((file) => dirname(file) !== unit);
    expect(files.length).toBeGreaterThan(50);
    const misplaced = files.filter((file) => {
      const folder = dirname(relative(unit, file));
      return !readFileSync(file, 'utf8').includes(`/src/${folder}/`);
    });
    expect(misplaced).toEqual([]);
  });

  it('names no test file after a tool', () => {
    const named = TIERS.flatMap((tier) => testFiles(join(ROOT, tier)))
      .concat(testFiles(join(ROOT, 'test/e2e')), testFiles(join(ROOT, 'test/property')))
      .filter((file) => /-(mutants|stryker|fuzzer)\.test\.ts$/.test(file));
    expect(named).toEqual([]);
  });
});
