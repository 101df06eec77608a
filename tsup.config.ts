import { defineConfig, type Options } from 'tsup';

// nanoid 5 is ESM-only; bundling it keeps the CommonJS build loadable on every Node 20.
const common: Options = {
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  splitting: false,
  noExternal: ['nanoid'],
  // `node:test` has no unprefixed name: keep every `node:` prefix as written.
  removeNodeProtocol: false,
};

export default defineConfig([
  // The library and its test-runner helpers: ESM and CommonJS, with type declarations for both.
  {
    ...common,
    entry: {
      index: 'src/index.ts',
      vitest: 'src/testing/vitest.ts',
      jest: 'src/testing/jest.ts',
      'node-test': 'src/testing/node-test.ts',
    },
    external: ['vitest', 'fake-marketing-server'],
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    shims: true,
  },
  // The CLI: ESM only (it uses top-level await), run as `fake-marketing-server`.
  // Every dependency is bundled in: resolving and loading a few hundred modules was most of its
  // start-up. CommonJS dependencies inside an ES module need a `require` of their own.
  {
    ...common,
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    clean: false,
    noExternal: [/.*/],
    banner: {
      js: "import { createRequire as __cliRequire } from 'node:module';\nconst require = __cliRequire(import.meta.url);",
    },
  },
  // The container image's HEALTHCHECK.
  { ...common, entry: { healthcheck: 'src/healthcheck.ts' }, format: ['esm'], clean: false },
]);
