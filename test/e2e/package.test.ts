// What `npm pack` puts in the package: the built code once, dependencies left to npm, no source
// maps; and the repository named the same by package.json and the image, or by neither.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repositoryUrl } from '../helpers/package.js';

const ROOT = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as {
  dependencies: Record<string, string>;
};

interface Packed {
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

async function pack(): Promise<Packed> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json'], {
    cwd: ROOT,
  });
  return (JSON.parse(stdout) as Packed[])[0]!;
}

describe('the npm package', () => {
  it('ships the code once: no source maps, no bundled dependency, under 1 MB unpacked', async () => {
    const packed = await pack();
    const paths = packed.files.map((file) => file.path);
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining(['dist/cli.js', 'dist/index.js', 'dist/index.cjs']),
    );
    // 1.9 MB when the CLI bundled every dependency; the whole package is now a third of that.
    expect(packed.unpackedSize).toBeLessThan(1_000_000);
    const cli = packed.files.find((file) => file.path === 'dist/cli.js')!;
    expect(cli.size).toBeLessThan(100_000);
  });

  it('loads every dependency from node_modules, in the ES module and CommonJS builds', () => {
    const esm = packedText(/^dist\/chunk-.*\.js$/);
    const cjs = readFileSync(new URL('dist/index.cjs', ROOT), 'utf8');
    for (const name of Object.keys(manifest.dependencies).filter((n) => n !== 'nanoid')) {
      const quoted = JSON.stringify(name).replace(/[/.]/g, '\\$&');
      const esmLoad = new RegExp(
        `createRequire\\d*\\(import\\.meta\\.url\\)(\\.resolve)?\\(${quoted}\\)`,
      );
      const cjsLoad = new RegExp(`(require|\\.resolve)\\(${quoted}\\)`);
      expect(esm, name).toMatch(esmLoad);
      expect(cjs, name).toMatch(cjsLoad);
    }
  });

  it('names the same repository in package.json and the image label, or none', () => {
    const dockerfile = readFileSync(new URL('Dockerfile', ROOT), 'utf8');
    const label = /org\.opencontainers\.image\.source="([^"]*)"/.exec(dockerfile)?.[1];
    expect(label).toBe(repositoryUrl());
  });
});

function packedText(pattern: RegExp): string {
  const dist = new URL('dist/', ROOT);
  return readdirSync(dist)
    .filter((name) => pattern.test(`dist/${name}`))
    .map((name) => readFileSync(new URL(name, dist), 'utf8'))
    .join('\n');
}
