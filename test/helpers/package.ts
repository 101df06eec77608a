import { readFileSync } from 'node:fs';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  version: string;
  repository?: string | { url?: string };
};

/**
 * The container image's tag as `npm run image` makes it and the docs name it; the container tests
 * use it unless `FMS_TEST_IMAGE` names another.
 */
export const IMAGE_TAG = process.env.FMS_TEST_IMAGE ?? `fake-marketing-server:${manifest.version}`;

/**
 * package.json's repository as a browsable https address (`git+https://...git` forms normalised),
 * or undefined when it names none.
 */
export function repositoryUrl(): string | undefined {
  const { repository } = manifest;
  const url = typeof repository === 'string' ? repository : repository?.url;
  return url?.replace(/^git\+/, '').replace(/\.git$/, '');
}
