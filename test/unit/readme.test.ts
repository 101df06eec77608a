import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('starts with the two commands that work on a fresh machine', () => {
    const top = readme.split('\n').slice(0, 6).join('\n');
    expect(top).toContain('npm ci && npm start');
    expect(top).toContain('npm ci && npm test');
  });

  it('shows the vitest example that test/examples/readme-example.test.ts runs', () => {
    const example = readFileSync(
      new URL('../examples/readme-example.test.ts', import.meta.url),
      'utf8',
    );
    expect(readme).toContain(
      example.replace("from '../../src/index.js';", "from 'fake-marketing-server';"),
    );
  });
});
