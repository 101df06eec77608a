import { readFileSync } from 'node:fs';

const manifest = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  repository?: string | { url?: string };
};

/**
 * package.json's repository as a browsable https address (`git+https://...git` forms normalised),
 * or undefined when it names none.
 */
export function repositoryUrl(): string | undefined {
  const { repository } = manifest;
  const url = typeof repository === 'string' ? repository : repository?.url;
  return url?.replace(/^git\+/, '').replace(/\.git$/, '');
}
