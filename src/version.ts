import { readFileSync } from 'node:fs';

/** The package's version, from its package.json (one level above `src/` and `dist/` alike). */
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
