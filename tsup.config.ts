import { readFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const { dependencies } = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};
const escapeRegExp = (name: string) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * In the ES module builds, each CommonJS dependency is loaded with `require` (from
 * `createRequire`), not `import`: Node 20 loads a CommonJS package imported from an ES module
 * through its ES module loader, lexing and compiling every file of it twice, which made the CLI's
 * start-up about 1.5 times slower than with the dependencies bundled. Every value import of a
 * dependency is a default import, which is exactly `module.exports`.
 */
const commonJsDependencies = Object.keys(dependencies).filter((name) => name !== 'nanoid');
const requireCommonJsDependencies: Plugin = {
  name: 'require-commonjs-dependencies',
  setup(build) {
    const names = commonJsDependencies;
    const filter = new RegExp(`^(${names.map(escapeRegExp).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'commonjs-dependency' }));
    build.onLoad({ filter: /.*/, namespace: 'commonjs-dependency' }, (args) => ({
      contents: `import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)(${JSON.stringify(args.path)});\n`,
      loader: 'js',
    }));
  },
};

// Dependencies stay external (tsup's default): the package depends on them, so npm installs them
// once, and the library and the CLI share them. nanoid 5 is ESM-only; bundling it keeps the
// CommonJS build loadable on every Node 20.
const common: Options = {
  target: 'node20',
  platform: 'node',
  // Built for debugging here; package.json's `files` leaves the maps out of the package.
  sourcemap: true,
  noExternal: ['nanoid'],
  // `node:test` has no unprefixed name: keep every `node:` prefix as written.
  removeNodeProtocol: false,
};

const helpers = {
  vitest: 'src/testing/vitest.ts',
  jest: 'src/testing/jest.ts',
  'node-test': 'src/testing/node-test.ts',
};

export default defineConfig([
  // ES modules: the library, the CLI (`fake-marketing-server`, which uses top-level await) and
  // the container's HEALTHCHECK. Code splitting puts what the CLI shares with the library in
  // chunks that both load, so the package holds one copy of it.
  {
    ...common,
    entry: { index: 'src/index.ts', cli: 'src/cli.ts', healthcheck: 'src/healthcheck.ts' },
    format: ['esm'],
    splitting: true,
    // Not bundled either: tsup's own external plugin would keep them as `import`s.
    noExternal: ['nanoid', ...commonJsDependencies],
    esbuildPlugins: [requireCommonJsDependencies],
    dts: { entry: { index: 'src/index.ts' } },
    clean: true,
  },
  // The test-runner helpers import the package by name, so a user's process holds one copy of the
  // library (and of its error classes); ES modules and CommonJS.
  {
    ...common,
    entry: helpers,
    external: ['vitest', 'fake-marketing-server'],
    format: ['esm', 'cjs'],
    splitting: false,
    dts: true,
    clean: false,
    shims: true,
  },
  // The library as CommonJS.
  {
    ...common,
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    splitting: false,
    dts: true,
    clean: false,
    shims: true,
  },
]);
