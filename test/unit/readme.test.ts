import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const docsDir = new URL('../../docs/', import.meta.url);
const pages = readdirSync(docsDir).filter((name) => name.endsWith('.md'));

describe('README', () => {
  it('starts with the two commands that work on a fresh machine', () => {
    const top = readme.split('\n').slice(0, 6).join('\n');
    expect(top).toContain('npm ci && npm start');
    expect(top).toContain('npm ci && npm test');
  });

  it('is a landing page a newcomer reads in minutes: at most 300 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
  });

  it('has the three quick starts: in a test, the sandbox, the container', () => {
    expect(readme).toMatch(/^## Quick start: in a test$/m);
    expect(readme).toMatch(/^## Quick start: the sandbox$/m);
    expect(readme).toMatch(/^## Quick start: the container$/m);
  });

  it('links to every docs page', () => {
    expect(pages.length).toBeGreaterThanOrEqual(12);
    for (const page of pages) expect(readme, page).toContain(`](docs/${page})`);
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

describe('docs pages', () => {
  it.each(pages)('%s has a title and its own contents list', (page) => {
    const text = readFileSync(new URL(page, docsDir), 'utf8');
    expect(text).toMatch(/^# \S/);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    expect(sections.length).toBeGreaterThan(0);
    const contents = text.slice(0, text.indexOf('\n## '));
    for (const section of sections) expect(contents, page).toContain(`[${section}](#`);
  });
});
