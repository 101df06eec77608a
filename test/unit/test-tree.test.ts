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

/** Every file under `folder` whose name ends in `ending`, node_modules left out. */
function filesEndingIn(folder: string, ending: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return item.name === 'node_modules' ? [] : filesEndingIn(path, ending);
    return item.name.endsWith(ending) ? [path] : [];
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

  // A title or comment says what a case keeps and why; how the case was found (a round of work,
  // a finding, an issue) is history, which the CHANGELOG and the commits hold.
  it('names no round of work, finding or issue number in titles or comments', () => {
    const self = fileURLToPath(import.meta.url);
    const files = filesEndingIn(join(ROOT, 'test'), '.ts')
      .filter((file) => file !== self)
      .concat(filesEndingIn(join(ROOT, 'src'), '.ts'), filesEndingIn(join(ROOT, 'bench'), '.mjs'));
    expect(files.length).toBeGreaterThan(200);
    const history = /outside attack|attack \d|\bround \d+\b|finding \d+|issue \d+/i;
    const named = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          history.test(line) ? [`${relative(ROOT, file)}:${index + 1}`] : [],
        ),
    );
    expect(named).toEqual([]);
  });
});
