import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../../src/cli/args.js';
import {
  EXIT_COULD_NOT_RUN,
  EXIT_DRIFT,
  EXIT_PASS,
  EXIT_USAGE,
} from '../../../src/cli/exit-codes.js';
import { REPLAY_USAGE, runReplayCommand } from '../../../src/cli/replay-command.js';
import { createFakeMarketingServer, type Har } from '../../../src/index.js';
import { captureOutput } from '../../helpers/captured-output.js';
import { KEY, SERVER_ID, smallSeed } from '../../helpers/fake.js';

// `replay` run in process, as the CLI runs it: what it prints, writes and exits with. The e2e
// tests (test/e2e/replay-cli.test.ts) run the built CLI; these reach the source.

const MiB = 1024 * 1024;
let folder: string;
let har: Har;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'replay-command-'));
  const fake = await createFakeMarketingServer({ seed: smallSeed() });
  try {
    const authorization = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;
    for (const url of ['/lists', '/customfields']) {
      await fake.inject({
        method: 'GET',
        url: `/marketing/v1${url}`,
        headers: { authorization, accept: 'application/json' },
      });
    }
    har = fake.requestsHar();
  } finally {
    await fake.close();
  }
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function file(name: string, content: string | object): string {
  const path = join(folder, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** Runs `replay argv` in process; what it wrote to stdout and stderr. */
function replay(...argv: string[]) {
  return captureOutput(() => runReplayCommand(argv));
}

/** The HAR with entry 0 answered 201 instead of 200: a drift. */
function drifted(): Har {
  const copy = structuredClone(har);
  copy.log.entries[0]!.response.status = 201;
  return copy;
}

describe('replay: the command line', () => {
  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await replay('--help');
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toBe(`${REPLAY_USAGE}\n`);
  });

  it.each([
    [[], 'replay takes one HAR file: fake-marketing-server replay traffic.har'],
    [['a.har', 'b.har'], 'replay takes one HAR file'],
    [['a.har', '--reporter', 'html'], '--reporter is text or junit.'],
    [['a.har', '--max-har-size', '0'], "--max-har-size is a whole number of MiB from 1, got '0'."],
    [['a.har', '--max-har-size', '1.5'], "got '1.5'"],
    [['a.har', '--max-har-size', '1234567'], "got '1234567'"],
    [['a.har', '--max-har-size', 'x1'], "got 'x1'"],
    [['a.har', '--max-har-size', '1x'], "got '1x'"],
    [
      ['a.har', '--max-har-size', '-1'],
      "--max-har-size is a whole number of MiB from 1, got '-1'.",
    ],
    [['--max-har-size', '-1', 'a.har'], "got '-1'"],
    [['a.har', '--nope'], "Unknown option '--nope'"],
  ])('refuses %j as usage: %s', async (argv, message) => {
    await expect(runReplayCommand(argv)).rejects.toThrow(UsageError);
    await expect(runReplayCommand(argv)).rejects.toThrow(message);
  });

  it('names a file it cannot read', async () => {
    const missing = join(folder, 'missing.har');
    await expect(runReplayCommand([missing])).rejects.toThrow(UsageError);
    await expect(runReplayCommand([missing])).rejects.toThrow(
      new RegExp(`^cannot read ${missing}: ENOENT`),
    );
  });
});

describe('replay: an --out that is the HAR it replays', () => {
  it('is refused before anything is read or written, by the same path, another path or a link', async () => {
    const path = file('kept.har', har);
    const before = readFileSync(path, 'utf8');
    const link = join(folder, 'kept-link.har');
    symlinkSync(path, link);
    for (const out of [path, join(folder, '.', 'kept.har'), link]) {
      await expect(runReplayCommand([path, '--out', out])).rejects.toThrow(
        new UsageError(
          `--out ${out} is the HAR replayed: writing there would replace it. Give another --out.`,
        ),
      );
    }
    expect(readFileSync(path, 'utf8')).toBe(before);
    const seed = file('kept-seed.json', smallSeed());
    await expect(runReplayCommand([path, '--seed', seed, '--out', seed])).rejects.toThrow(
      new UsageError(
        `--out ${seed} is the --seed file: writing there would replace it. Give another --out.`,
      ),
    );
    expect(JSON.parse(readFileSync(seed, 'utf8'))).toEqual(smallSeed());
    // Another file is written as before.
    const out = join(folder, 'report.txt');
    expect((await replay(path, '--out', out)).code).toBe(EXIT_PASS);
    expect(readFileSync(out, 'utf8')).toContain('2 match');
  });
});

describe('replay: the bound on the HAR size (--max-har-size)', () => {
  it('reads a HAR of exactly the bound, and refuses one a byte past it, naming the flag', async () => {
    const text = JSON.stringify(har);
    const exact = file('exact.har', text.padEnd(MiB, ' '));
    expect((await replay(exact, '--max-har-size', '1')).code).toBe(EXIT_PASS);
    const past = file('past.har', text.padEnd(MiB + 1, ' '));
    await expect(runReplayCommand([past, '--max-har-size', '1'])).rejects.toThrow(
      new UsageError(
        `${past} is 1.0 MiB, past the 1 MiB replay reads (--max-har-size): replay needs about ten times a HAR's size in memory. Raise the bound with --max-har-size <MiB> if the machine has it.`,
      ),
    );
    expect((await replay(past, '--max-har-size', '2')).code).toBe(EXIT_PASS);
  });

  it('is 100 MiB by default, and says it is the default', async () => {
    const big = file('big.har', '');
    truncateSync(big, 100 * MiB + 1);
    await expect(runReplayCommand([big])).rejects.toThrow(
      new RegExp(`^${big} is 100\\.0 MiB, past the 100 MiB replay reads \\(the default\\)`),
    );
  });
});

describe('replay: the report and the exit code', () => {
  it('prints the text report and exits 0 when nothing drifts; --all lists the matches', async () => {
    const path = file('same.har', har);
    const plain = await replay(path);
    expect(plain.code).toBe(EXIT_PASS);
    expect(plain.stderr).toBe('');
    expect(plain.stdout).toMatch(new RegExp(`^replay of ${path}: 2 API exchanges`));
    expect(plain.stdout).toContain('starting state inferred from the recording');
    expect(plain.stdout).not.toContain('#0 GET');
    expect(plain.stdout.endsWith('2 match, 0 drift, 0 not comparable.\n')).toBe(true);
    const all = await replay(path, '--all');
    expect(all.stdout).toContain('ok    #0 GET /marketing/v1/lists');
  });

  it('exits 1 on a drift', async () => {
    const { code, stdout } = await replay(file('drift.har', drifted()));
    expect(code).toBe(EXIT_DRIFT);
    expect(stdout).toContain('DRIFT #0 GET /marketing/v1/lists');
  });

  it('--seed starts from that seed file', async () => {
    const seed = file('seed.json', smallSeed());
    const { code, stdout } = await replay(file('seeded.har', har), '--seed', seed);
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toContain('starting state from --seed');
  });

  it('--out with --all: the matches listed in both', async () => {
    const out = join(folder, 'all.txt');
    const { stdout } = await replay(file('all.har', har), '--all', '--out', out);
    expect(stdout).toContain('ok    #0 GET /marketing/v1/lists');
    expect(readFileSync(out, 'utf8')).toBe(stdout.slice(0, -1));
  });

  it('--out writes the report there and prints it too', async () => {
    const out = join(folder, 'report.txt');
    const { stdout } = await replay(file('out.har', drifted()), '--out', out);
    expect(readFileSync(out, 'utf8')).toBe(stdout.slice(0, -1));
    expect(stdout).toContain('DRIFT #0');
  });

  it('an --out it cannot write is usage (exit 2) saying why, never a stack trace', async () => {
    const taken = join(folder, 'a-folder');
    mkdirSync(taken, { recursive: true });
    await expect(replay(file('taken.har', drifted()), '--out', taken)).rejects.toThrow(
      new UsageError(`cannot write --out ${taken}: it is a folder.`),
    );
  });

  it('--reporter junit prints JUnit, or with --out writes it and prints the text report', async () => {
    const path = file('junit.har', drifted());
    const printed = await replay(path, '--reporter', 'junit');
    expect(printed.code).toBe(EXIT_DRIFT);
    expect(printed.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuite /);
    expect(printed.stdout).toContain(`name="replay ${path}"`);
    const out = join(folder, 'junit.xml');
    const written = await replay(path, '--reporter', 'junit', '--out', out);
    expect(readFileSync(out, 'utf8')).toBe(printed.stdout.slice(0, -1));
    expect(written.stdout).toMatch(new RegExp(`^replay of ${path}: `));
    expect(written.stdout).not.toContain('<testsuite');
  });
});

describe('replay: what it cannot use, on stderr', () => {
  it('a HAR it cannot read exits 2, naming the file', async () => {
    const path = file('bad.har', '{"log": ');
    const { code, stdout, stderr } = await replay(path);
    expect(code).toBe(EXIT_USAGE);
    expect(stdout).toBe('');
    expect(stderr).toMatch(new RegExp(`^fake-marketing-server replay: ${path}: not JSON: .*\n$`));
  });

  it('a HAR it refuses is quoted with its control and bidi characters as escapes', async () => {
    const hostile = structuredClone(har);
    hostile.log.entries[0]!.request.url = 'evil\u202etxt\u200b\u001b]0;pwned\u0007';
    const { code, stderr } = await replay(file('hostile.har', hostile));
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u200b\u202e]/u);
    expect(stderr).toContain('evil\\u202etxt\\u200b');
  });

  it('a seed it cannot use exits 2, naming --seed', async () => {
    const seed = file('bad-seed.json', { servers: 'none' });
    const { code, stderr } = await replay(file('for-seed.har', har), '--seed', seed);
    expect(code).toBe(EXIT_USAGE);
    expect(stderr).toMatch(new RegExp(`^fake-marketing-server replay: --seed ${seed}: .*\n$`));
  });

  it('a state no fake can start on exits 3, saying why', async () => {
    const clash = structuredClone(har);
    clash.log.entries.length = 1;
    clash.log.entries[0]!.request.url = clash.log.entries[0]!.request.url.replace(
      '/lists',
      '/customfields',
    );
    clash.log.entries[0]!.response.content.text =
      '[{"customFieldNameId":1,"name":"City"},{"customFieldNameId":2,"name":"CITY"}]';
    const { code, stderr } = await replay(file('clash.har', clash));
    expect(code).toBe(EXIT_COULD_NOT_RUN);
    expect(stderr).toMatch(
      /^fake-marketing-server replay: could not run: the starting state inferred from the recording is not a valid seed .*give one with --seed\.\n$/,
    );
  });
});
