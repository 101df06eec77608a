import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// One fake for the whole run: global-setup.ts starts it (or checks the one FAKE_MARKETING_URL
// names) and provides its URL and certificate; every test file connects to it and takes a tenant
// per test.
export default defineConfig({
  // This folder, wherever vitest is started from.
  root: here('.'),
  // Vite's cache goes to the repository's node_modules, not into this folder.
  cacheDir: here('../../../node_modules/.vite/recipe-vitest-global-setup'),
  test: {
    include: ['**/*.recipe.ts'],
    globalSetup: ['./global-setup.ts'],
  },
});
