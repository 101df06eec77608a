// Docs that cannot rot: every code block of the README and docs/ is either run here (or is the
// text of a test file that runs) or says, in a `<!-- doc: not-run reason -->` line above it, why it
// cannot be; every relative link and anchor leads somewhere. Block annotations:
//   <!-- doc: file <path> -->    the block is that test file (importing the package by name)
//   <!-- doc: seed -->           a seed: valid by seed.schema.json and loaded by a fake
//   <!-- doc: node prints <out> --> a module run by node (importing the built package by name);
//                                its output must be <out>
//   <!-- doc: banner {facts} --> the sandbox's startup block, as banner() prints it for the
//                                sandbox seed on https://127.0.0.1:8443 with these facts
//   <!-- doc: sandbox -->        shell run against a real sandbox (the built CLI), every curl a 2xx
//   <!-- doc: folder-map -->     a folder map: every path it names exists
//   <!-- doc: not-run <why> -->  shown, not run; the reason is required
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banner } from '../../src/cli/banner.js';
import { API_ERRORS, createFakeMarketingServer } from '../../src/index.js';
import { PACKAGE_VERSION } from '../../src/version.js';
import { type RunningCli, spawnCli, started } from '../helpers/cli.js';
import {
  anchors,
  type CodeBlock,
  codeBlocks,
  docFiles,
  linkTargets,
  ROOT,
  readDoc,
} from './markdown.js';

const files = docFiles();
const blocks = files.flatMap((file) => codeBlocks(file, readDoc(file)));
const KINDS = new Set(['file', 'seed', 'node', 'banner', 'sandbox', 'folder-map', 'not-run']);
const where = (block: CodeBlock) => `${block.file}:${block.line}`;

describe('every code block is run or says why not', () => {
  it('has an annotation of a known kind on each block', () => {
    const unmarked = blocks.filter((block) => !block.kind || !KINDS.has(block.kind)).map(where);
    expect(unmarked, 'add <!-- doc: KIND --> on the line before each of these blocks').toEqual([]);
  });

  it('gives a reason for every block it does not run', () => {
    const bare = blocks.filter((b) => b.kind === 'not-run' && b.rest.split(' ').length < 3);
    expect(bare.map(where)).toEqual([]);
  });

  it.each(blocks.filter((b) => b.kind === 'file').map((b) => [where(b), b] as const))(
    '%s is the text of the test file it names',
    (_, block) => {
      const path = join(ROOT, block.rest);
      expect(block.rest).toMatch(/^test\/.+\.test\.ts$/);
      const source = readFileSync(path, 'utf8');
      expect(block.code).toBe(
        source.replace("from '../../src/index.js';", "from 'fake-marketing-server';"),
      );
    },
  );

  it.each(blocks.filter((b) => b.kind === 'seed').map((b) => [where(b), b] as const))(
    '%s is a seed the schema accepts and a fake loads',
    async (_, block) => {
      const seed = JSON.parse(block.code);
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      (addFormats as unknown as (target: Ajv2020) => void)(ajv);
      const schema = JSON.parse(readFileSync(join(ROOT, 'seed.schema.json'), 'utf8'));
      const valid = ajv.validate(schema, seed);
      expect(ajv.errors ?? [], ajv.errorsText()).toEqual([]);
      expect(valid).toBe(true);
      const fake = await createFakeMarketingServer({ seed });
      try {
        expect(fake.exportState().servers.length).toBe(seed.servers.length);
      } finally {
        await fake.close();
      }
    },
  );

  it.each(blocks.filter((b) => b.kind === 'node').map((b) => [where(b), b] as const))(
    '%s runs in node and prints what the page says',
    async (_, block) => {
      // Inside the package's folder, so `fake-marketing-server` resolves to this package (dist/).
      const dir = mkdtempSync(join(ROOT, 'test/docs/.run-'));
      try {
        const file = join(dir, 'block.mjs');
        writeFileSync(file, block.code);
        const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: dir });
        expect(stdout.trim()).toBe(block.rest.replace(/^prints /, ''));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it.each(blocks.filter((b) => b.kind === 'banner').map((b) => [where(b), b] as const))(
    '%s is the startup block the CLI prints',
    (_, block) => {
      const sandboxSeed = JSON.parse(readFileSync(join(ROOT, 'fixtures/default.json'), 'utf8'));
      const printed = banner({
        version: PACKAGE_VERSION,
        url: 'https://127.0.0.1:8443',
        baseUrl: 'https://127.0.0.1:8443/marketing/v1',
        host: '127.0.0.1',
        port: 8443,
        caFile: undefined,
        adminToken: false,
        servers: sandboxSeed.servers.map(
          ({ serverId, key }: { serverId: number; key: string }) => ({
            serverId,
            key,
          }),
        ),
        ...JSON.parse(block.rest),
      });
      expect(block.code).toBe(`${printed}\n`);
    },
  );

  it.each(blocks.filter((b) => b.kind === 'folder-map').map((b) => [where(b), b] as const))(
    '%s names only paths that exist',
    (_, block) => {
      const missing: string[] = [];
      let parent = '';
      for (const line of block.code.split('\n')) {
        const entry = /^( {0,2})([^ ,]+(?:, [^ ,]+)*)/.exec(line);
        if (!entry) continue;
        const names = entry[2]!.split(', ');
        if (entry[1] === '') parent = names[0]!.endsWith('/') ? names[0]! : '';
        const base = entry[1] === '' ? '' : parent;
        for (const name of names) {
          if (!existsSync(join(ROOT, base, name))) missing.push(`${base}${name}`);
        }
      }
      expect(missing).toEqual([]);
    },
  );
});

// curl runs the shell blocks; a machine without it skips them saying so, but CI must have it.
const hasCurl = spawnSync('curl', ['--version']).status === 0;
if (!hasCurl && process.env.CI !== 'true') {
  console.warn('docs: curl is not installed, so the shell blocks of the docs are not run here.');
}

describe.skipIf(!hasCurl && process.env.CI !== 'true')(
  'shell blocks against a real sandbox',
  () => {
    const sandboxBlocks = blocks.filter((b) => b.kind === 'sandbox');
    let cli: RunningCli;
    let url: string;
    let dir: string;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'fms-docs-'));
      cli = spawnCli(['--port', '0', '--ca-out', join(dir, 'sandbox-ca.pem')]);
      ({ url } = await started(cli));
    });
    afterAll(async () => {
      cli?.child.kill('SIGTERM');
      await cli?.exited;
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs some', () => {
      expect(sandboxBlocks.length).toBeGreaterThan(3);
    });

    // The blocks of one page run as one script, in order: a page may set variables once.
    it.each(files.filter((file) => sandboxBlocks.some((b) => b.file === file)))(
      'runs the blocks of %s, every curl answered 2xx',
      async (file) => {
        const script = [
          'set -euo pipefail',
          'curl() { command curl --silent --show-error --fail-with-body "$@"; }',
          ...sandboxBlocks.filter((b) => b.file === file).map((b) => b.code),
        ]
          .join('\n')
          .replaceAll('https://127.0.0.1:8443', url);
        const result = await promisify(execFile)('bash', ['-c', script], { cwd: dir })
          .then(({ stderr }) => ({ code: 0, stderr }))
          .catch((error: { code: number; stderr: string }) => ({
            code: error.code,
            stderr: error.stderr,
          }));
        expect(result).toEqual({ code: 0, stderr: '' });
      },
    );
  },
);

/**
 * What a shell example makes, for the examples after it on the same page: files copied or
 * redirected to, folders made, CA files written (also through a `$PWD` volume of a container).
 */
function madeBy(code: string, made: Set<string>): void {
  const volumes = [...code.matchAll(/-v\s+"?\$PWD\/([^:"\s]+):(\/[^:"\s]+)/g)].map(
    (match) => [match[1]!, match[2]!] as const,
  );
  const add = (path: string) => {
    if (!path.startsWith('/')) made.add(normalize(path));
    for (const [host, inside] of volumes) {
      if (path.startsWith(`${inside}/`)) made.add(normalize(host + path.slice(inside.length)));
    }
  };
  for (const match of code.matchAll(/(?:^|\s)cp\s+(?:-\S+\s+)*\S+\s+(\S+)/gm)) add(match[1]!);
  for (const match of code.matchAll(/docker cp \S+ (\S+)/g)) add(match[1]!);
  for (const match of code.matchAll(/>\s*([\w./-]+)/g)) add(match[1]!);
  for (const match of code.matchAll(/mkdir -p (\S+)/g)) add(match[1]!);
  for (const match of code.matchAll(/(?:--ca-out[ =]|FMS_CA_OUT=|--out[ =])(\S+)/g)) add(match[1]!);
}

/** The CA file `npm start` writes (package.json's start script): every page may trust it. */
const START_CA = /--ca-out (\S+)/.exec(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start,
)?.[1];

describe('the files shell examples name', () => {
  const shell = blocks.filter((block) => ['sh', 'bash', 'shell'].includes(block.info));
  const relative = (path: string) => !/^[/$<~"'`]/.test(path) && !path.includes('$');

  it.each(files.filter((file) => shell.some((block) => block.file === file)))(
    '%s: a seed it names exists or is made first; a file it writes has a folder; a CA it trusts is written first',
    (file) => {
      const made = new Set<string>(START_CA === undefined ? [] : [START_CA]);
      const problems: string[] = [];
      for (const block of shell.filter((b) => b.file === file)) {
        const code = block.code;
        const here = (path: string) => existsSync(join(ROOT, path)) || made.has(normalize(path));
        madeBy(code, made);
        for (const match of code.matchAll(/(?:--seed[ =]|FMS_SEED=)(\S+)/g)) {
          const seed = match[1]!;
          if (relative(seed) && !here(seed)) problems.push(`${where(block)}: no seed ${seed}`);
        }
        for (const match of code.matchAll(
          /(?:--state-file[ =]|FMS_STATE_FILE=|--ca-out[ =]|FMS_CA_OUT=|--out[ =])(\S+)/g,
        )) {
          const folder = dirname(match[1]!);
          if (relative(folder) && folder !== '.' && !here(folder))
            problems.push(`${where(block)}: no folder ${folder} for ${match[1]}`);
        }
        for (const match of code.matchAll(/--cacert[ =](\S+)/g)) {
          const ca = match[1]!;
          if (relative(ca) && !made.has(normalize(ca)))
            problems.push(`${where(block)}: ${ca} is trusted but nothing on the page writes it`);
        }
      }
      expect(problems).toEqual([]);
    },
  );
});

describe('docs of the present', () => {
  it('keep docs/benchmarks.md to 250 lines: the current figures, not their history', () => {
    expect(readDoc('docs/benchmarks.md').split('\n').length - 1).toBeLessThanOrEqual(250);
  });

  it.each(files.filter((file) => file !== 'CHANGELOG.md'))(
    "%s names no issue number and no round of work (history is the CHANGELOG's)",
    (file) => {
      const history = readDoc(file).match(
        /\bissue #?\d+|\b(first|second|third|fourth|fifth|sixth|seventh|last) round of work|\b(second|third|fourth|fifth|sixth|seventh) round\b/gi,
      );
      expect(history ?? []).toEqual([]);
    },
  );
});

describe('links', () => {
  const anchorsOf = new Map<string, Set<string>>();
  const anchorsIn = (file: string) => {
    if (!anchorsOf.has(file)) anchorsOf.set(file, anchors(readFileSync(join(ROOT, file), 'utf8')));
    return anchorsOf.get(file)!;
  };

  it.each(files)('%s has no dead relative link or anchor', (file) => {
    const dead: string[] = [];
    for (const target of linkTargets(readDoc(file))) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      if (!existsSync(join(ROOT, resolved))) {
        dead.push(`${target} (no file ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor)) {
        dead.push(`${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(dead).toEqual([]);
  });
});

describe('the request pipeline in docs/architecture.md', () => {
  it('lists the steps app.ts names, in its order, with their files', () => {
    const app = readFileSync(join(ROOT, 'src/app.ts'), 'utf8');
    const inCode = [...app.matchAll(/^ \* (\d+)\. (\w+) \((http\/pipeline\/[\w-]+\.ts)\)/gm)].map(
      (m) => `${m[1]}. ${m[2]} ${m[3]}`,
    );
    const page = readDoc('docs/architecture.md');
    const inDocs = [
      ...page.matchAll(/^\| (\d+)\. (\w+) \| `(http\/pipeline\/[\w-]+\.ts)` \|/gm),
    ].map((m) => `${m[1]}. ${m[2]} ${m[3]}`);
    expect(inCode.length).toBeGreaterThan(5);
    expect(inDocs).toEqual(inCode);
  });
});

describe('the error codes in docs/emulated-api.md', () => {
  it('are exactly API_ERRORS: every code, its status and its message, in order', () => {
    const page = readDoc('docs/emulated-api.md');
    const section = page.slice(page.indexOf('## Error codes'));
    const rows = [...section.matchAll(/^\| `(\w+)` \| ([^|]+) \| `(.*)` \|$/gm)].map((m) => [
      m[1],
      m[2]!.trim(),
      m[3],
    ]);
    const table = Object.entries(API_ERRORS).map(([code, error]) => [
      code,
      String(error.status),
      error.message,
    ]);
    expect(rows).toEqual(table);
  });
});
