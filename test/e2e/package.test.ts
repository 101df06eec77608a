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
  it('ships the code once: no source maps, no bundled dependency, under 1.55 MB unpacked', async () => {
    const packed = await pack();
    const paths = packed.files.map((file) => file.path);
    const prose = packed.files.filter(
      (file) => file.path.startsWith('docs/') || file.path === 'CHANGELOG.md',
    );
    const docBytes = prose.reduce((sum, file) => sum + file.size, 0);
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths).toEqual(
      expect.arrayContaining(['dist/cli.js', 'dist/index.js', 'dist/index.cjs']),
    );
    // 6.5 MB unpacked when the CLI bundled every dependency (1.9 MB for dist/cli.js alone); about
    // 1.0 MB with record, replay and the verify checks as data (the library once as ES modules
    // and once as CommonJS); 1.25 MB with tenants, the remote handle and the tenant routes in the
    // OpenAPI document. A bundled dependency would break this bound many times over (undici alone
    // is some 1.5 MB).
    // 1.44 MB with the inspector's polling script and its routes, verify's new checks, the
    // recorder's bounded HAR and the streaming seed reader.
    expect(packed.unpackedSize - docBytes).toBeLessThan(1_550_000);
    // The docs and the CHANGELOG (about 500 KB, a third of it the inspector's screenshot) ship
    // too, counted apart.
    expect(docBytes).toBeLessThan(700_000);
    const cli = packed.files.find((file) => file.path === 'dist/cli.js')!;
    expect(cli.size).toBeLessThan(100_000);
  });

  it("ships the docs, so that the README's links work from node_modules", async () => {
    const paths = new Set((await pack()).files.map((file) => file.path));
    const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
    const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1]!)
      .filter((target) => !/^[a-z]+:/i.test(target));
    expect(targets.length).toBeGreaterThan(5);
    expect(targets.filter((target) => !paths.has(target.replace(/^\.\//, '')))).toEqual([]);
    const pages = readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md'));
    expect(pages.filter((page) => !paths.has(`docs/${page}`))).toEqual([]);
  });

  it('loads every dependency from node_modules, in the ES module and CommonJS builds', () => {
    const esm = packedText(/^dist\/chunk-.*\.js$/);
    const cjs = readFileSync(new URL('dist/index.cjs', ROOT), 'utf8');
    for (const name of Object.keys(manifest.dependencies).filter((n) => n !== 'nanoid')) {
      const quoted = JSON.stringify(name).replace(/[/.]/g, '\\$&');
      const esmLoad = new RegExp(
        `createRequire\\d*\\(import\\.meta\\.url\\)(\\.resolve)?\\(${quoted}\\)`,
      );
      const cjsLoad = new RegExp(
        `(require|\\.resolve|createRequire\\)\\(importMetaUrl\\))\\(${quoted}\\)`,
      );
      expect(esm, name).toMatch(esmLoad);
      expect(cjs, name).toMatch(cjsLoad);
    }
  });

  // Start-up is kept short by counted work, not timed here (bench/startup.mjs times it): the
  // CLI's first answer, the health check, must not need ajv, which fast-json-stringify loads.
  it('loads no ajv until an answer needs a compiled serializer, in a fresh process', async () => {
    const script = `
      import { createRequire } from 'node:module';
      const { createFakeMarketingServer } = await import(${JSON.stringify(new URL('dist/index.js', ROOT).href)});
      const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('/node_modules/ajv/')).length;
      const fake = await createFakeMarketingServer({ seed: { servers: [{ serverId: 1234, key: 'k' }] } });
      const health = await fake.inject({ url: '/__admin/health' });
      const before = loaded();
      const lists = await fake.inject({ url: '/marketing/v1/lists', headers: { authorization: 'Basic ' + Buffer.from('1234:k').toString('base64') } });
      console.log(JSON.stringify({ health: health.statusCode, before, lists: lists.statusCode, body: lists.body, after: loaded() }));
      await fake.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      script,
    ]);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ health: 200, before: 0, lists: 200, body: '[]' });
    expect(result.after).toBeGreaterThan(0);
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
