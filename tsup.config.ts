import { defineConfig, type Options } from 'tsup';

// nanoid 5 is ESM-only; bundling it keeps the CommonJS build loadable on every Node 20.
const common: Options = {
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  splitting: false,
  noExternal: ['nanoid'],
};

export default defineConfig([
  // The library: ESM and CommonJS, with type declarations for both.
  {
    ...common,
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    shims: true,
  },
  // The CLI: ESM only (it uses top-level await), run as `fake-marketing-server`.
  { ...common, entry: { cli: 'src/cli.ts' }, format: ['esm'], clean: false },
]);
