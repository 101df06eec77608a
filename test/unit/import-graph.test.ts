import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The layers docs/architecture.md draws, kept so: no import circle anywhere in src/ (type-only and
// dynamic imports count: a circle of types still ties the files' meaning together), and each
// folder imports only the layers below it.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((item) => {
    const path = join(folder, item.name);
    if (item.isDirectory()) return sourceFiles(path);
    return item.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file of src/ (relative, e.g. `journal/journal.ts`) and the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles()) {
    // preProcessFile lists every import and export ... from, `import type` and import() included.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const imported = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(SRC, resolve(dirname(file), name.replace(/\.js$/, '.ts'))));
    graph.set(relative(SRC, file), [...new Set(imported)]);
  }
  return graph;
}

/** The circles of the graph: its strongly connected parts of more than one file (Tarjan's). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (stack.includes(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const part: string[] = [];
    let taken: string;
    do {
      taken = stack.pop()!;
      part.push(taken);
    } while (taken !== file);
    if (part.length > 1 || graph.get(file)!.includes(file)) found.push(part.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** A file's folder under src/, or `.` for the files at its top. */
const folderOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '.');

/**
 * What each folder may import besides itself and the leaf modules at src/'s top (printable.ts,
 * files.ts, ...), which import no folder's code but domain's. From the bottom: the domain (state
 * and rules) and path matching import nothing; faults, the journal and redaction (the test
 * double's machinery) stand on them; `core.ts` joins them for one fake; tenants and HTTP stand on
 * the core; the handle (`server.ts`) on HTTP; the tools (record, replay, verify) and the CLI on
 * top.
 */
const MACHINERY = ['domain', 'match', 'faults', 'journal', 'redaction'];
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  domain: [],
  match: [],
  faults: ['domain', 'match'],
  journal: ['domain', 'match', 'faults'],
  redaction: ['domain', 'match', 'journal'],
  tenants: [...MACHINERY, 'core.ts'],
  http: [...MACHINERY, 'tenants', 'core.ts'],
  testing: [...MACHINERY, 'tenants'],
  record: [...MACHINERY, 'http'],
  replay: [...MACHINERY, 'http', 'record', 'server.ts'],
  verify: [...MACHINERY, 'http', 'record', 'cli'],
  cli: [...MACHINERY, 'http', 'record', 'replay', 'verify'],
};

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('is read whole: every file, with the imports it has', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('journal/journal.ts')).toContain('journal/journal-entry.ts');
    // A type-only import is seen too.
    expect(graph.get('journal/wait-timeout-error.ts')).toContain('journal/journal-nearest.ts');
  });

  it('has no circle, type-only imports included', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle where there is one', () => {
    const looped = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(looped)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('keeps the domain free of everything else: it imports only domain/', () => {
    const outside = [...graph]
      .filter(([file]) => folderOf(file) === 'domain')
      .flatMap(([file, imported]) =>
        imported.filter((target) => folderOf(target) !== 'domain').map((t) => `${file} -> ${t}`),
      );
    expect(outside).toEqual([]);
  });

  it('lets each folder import only the layers below it', () => {
    const wrong: string[] = [];
    for (const [file, imported] of graph) {
      const from = folderOf(file);
      if (from === '.') continue;
      const allowed = MAY_IMPORT[from];
      expect(allowed, `a layer for src/${from}/ in MAY_IMPORT`).toBeDefined();
      for (const target of imported) {
        const to = folderOf(target);
        if (to === from || allowed!.includes(to) || allowed!.includes(target)) continue;
        // The leaf modules at the top import no folder but the domain.
        if (to === '.' && graph.get(target)!.every((t) => ['.', 'domain'].includes(folderOf(t))))
          continue;
        wrong.push(`${file} -> ${target}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
