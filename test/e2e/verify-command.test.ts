import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import { EXIT_COULD_NOT_RUN, EXIT_PASS } from '../../src/cli/exit-codes.js';
import { runVerifyCommand } from '../../src/cli/verify-command.js';
import { verifyRecorded } from '../../src/cli/verify-har.js';
import { InvalidOptionError } from '../../src/domain/errors.js';
import { type FakeMarketingServer, verifyPlan } from '../../src/index.js';
import { captureOutput } from '../helpers/captured-output.js';
import { KEY, makeFake, SERVER_ID, smallSeed } from '../helpers/fake.js';

// `verify` and `import` run in process, as the CLI runs them, against a fake on a real socket:
// what they print, write and exit with. test/e2e/verify.test.ts runs the built CLI.

let fake: FakeMarketingServer;
let baseUrl: string;
let folder: string;
beforeAll(async () => {
  fake = await makeFake();
  ({ baseUrl } = await fake.listen({ https: false }));
  folder = mkdtempSync(join(tmpdir(), 'verify-command-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(folder, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

const READ_ONLY = verifyPlan(false);
const ALL = verifyPlan(true);
const account = () => ['--base-url', baseUrl, '--server-id', String(SERVER_ID), '--key', KEY];

/** Runs the command in process; what it wrote to stdout and stderr. */
function run(argv: string[], command: 'verify' | 'import' = 'verify', env: NodeJS.ProcessEnv = {}) {
  return captureOutput(() => runVerifyCommand(command, argv, env));
}

describe('verify: what it prints without sending anything', () => {
  it('--help: the usage, then every check with its section, (writes) marked', async () => {
    const { code, stdout } = await run(['--help']);
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toMatch(/^Usage:\n {2}fake-marketing-server verify --base-url URL/);
    expect(stdout).toContain('\n\nChecks (verify --list for what each requires):\n');
    const lines = stdout.trimEnd().split('\n').slice(-ALL.length);
    expect(lines).toEqual(
      ALL.map(
        (check) =>
          `  ${`${check.id}${check.writes ? ' (writes)' : ''}`.padEnd(40)}section ${check.section.split(';')[0]}`,
      ),
    );
    expect(stdout).toContain(`  ${'writes.add-creates (writes)'.padEnd(40)}section `);
    expect(stdout.endsWith('\n')).toBe(true);
  });

  it('--list: every check, writing ones too, with its section and requirement', async () => {
    const { code, stdout } = await run(['--list']);
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toBe(
      ALL.map(
        (check) =>
          `${check.id}${check.writes ? ' (writes)' : ''}\n  section ${check.section}\n  requires: ${check.requirement}\n`,
      ).join(''),
    );
    const only = await run(['--list', '--only', ` ${ALL[0]!.id} ,,`]);
    expect(only.stdout).toBe(
      `${ALL[0]!.id}\n  section ${ALL[0]!.section}\n  requires: ${ALL[0]!.requirement}\n`,
    );
  });

  it('--dry-run: the plan with the requests, read-only unless --allow-writes', async () => {
    const { code, stdout } = await run(['--dry-run']);
    expect(code).toBe(EXIT_PASS);
    const expected = READ_ONLY.map(
      (check) =>
        `${check.id}\n  requires: ${check.requirement}\n${check.requests.map((request) => `  sends:    ${request}\n`).join('')}`,
    ).join('');
    expect(stdout).toBe(`${expected}${READ_ONLY.length} checks; nothing was sent.\n`);
    const writing = await run(['--dry-run', '--allow-writes']);
    expect(writing.stdout).toContain('writes.add-creates (writes)\n  requires: ');
    expect(writing.stdout).toContain(`\n${ALL.length} checks; nothing was sent.\n`);
  });

  it('import --list and import --dry-run are not listings: they need a target', async () => {
    await expect(runVerifyCommand('import', ['--list'], {})).rejects.toThrow(
      '--base-url is required.',
    );
    await expect(runVerifyCommand('import', ['--dry-run'], {})).rejects.toThrow(
      '--base-url is required.',
    );
  });
});

describe('verify: a command line it refuses (usage, exit 2)', () => {
  const refused = (argv: string[], env: NodeJS.ProcessEnv = {}, command = 'verify' as const) =>
    runVerifyCommand(command, argv, env);

  it.each([
    [['--nope'], "Unknown option '--nope'"],
    [['--only', ' , '], '--only needs check ids (verify --list shows them).'],
    [['--list', '--only', 'no.such'], 'unknown check id(s): no.such'],
    [['--dry-run', '--only', 'writes.add-creates'], 'write(s) to the account: add --allow-writes'],
    [['--server-id', '1'], '--base-url is required.'],
    [['--base-url', 'http://x.test'], '--server-id is required: the server id, a number.'],
    [
      ['--base-url', 'http://x.test', '--server-id', '1234567890'],
      '--server-id must be the server id, a whole number of 1 to 9 digits (the Basic username); the value given (10 characters, not shown) is not one.',
    ],
    [['--base-url', 'http://x.test', '--server-id', 'a1'], '(2 characters, not shown)'],
    [['--base-url', 'http://x.test', '--server-id', '1a'], '(2 characters, not shown)'],
    [['--base-url', 'http://x.test', '--server-id', '-5'], '(2 characters, not shown)'],
    [
      ['--base-url', 'http://x.test', '--server-id', '1', '--key', 'k', '--max-new-contacts', '-1'],
      '--max-new-contacts is a whole number of contacts, 0 or more.',
    ],
    [['--base-url', 'http://x.test', '--server-id', '1'], '--key (or FMS_VERIFY_KEY) is required.'],
    [
      ['--base-url', 'ftp://x.test', '--server-id', '1', '--key', 'k'],
      '--base-url must be an http(s) URL',
    ],
  ])('%j: %s', async (argv, message) => {
    await expect(refused(argv)).rejects.toThrow(UsageError);
    await expect(refused(argv)).rejects.toThrow(message);
  });

  it('the key may come from FMS_VERIFY_KEY; an empty one is none', async () => {
    const argv = ['--base-url', 'ftp://x.test', '--server-id', '1'];
    await expect(refused(argv, { FMS_VERIFY_KEY: 'k' })).rejects.toThrow('--base-url must be');
    await expect(refused(argv, { FMS_VERIFY_KEY: '' })).rejects.toThrow('--key (or FMS_VERIFY');
  });

  it('an unreadable --ca is named', async () => {
    await expect(refused([...account(), '--ca', join(folder, 'none.pem')])).rejects.toThrow(
      `cannot read --ca ${join(folder, 'none.pem')}`,
    );
  });

  it('--reporter is text or junit; --only with a writing check needs --allow-writes', async () => {
    await expect(refused([...account(), '--reporter', 'html'])).rejects.toThrow(
      '--reporter is text or junit.',
    );
    await expect(refused([...account(), '--only', 'writes.add-creates'])).rejects.toThrow(
      'writes.add-creates write(s) to the account: add --allow-writes',
    );
  });

  it('import needs --out, and takes no --har', async () => {
    await expect(refused(account(), {}, 'import' as 'verify')).rejects.toThrow(
      'import needs --out <seed.json>.',
    );
    await expect(
      refused([...account(), '--out', 'x.json', '--har', 'x.har'], {}, 'import' as 'verify'),
    ).rejects.toThrow('--har goes with verify, not import.');
  });
});

describe('verify: a run against the fake', () => {
  it('prints the text report and exits 0; --only narrows it', async () => {
    const { code, stdout } = await run(account());
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toContain(`${READ_ONLY.length} passed, 0 failed, 0 skipped`);
    expect(stdout).not.toContain(KEY);
    const only = await run([...account(), '--only', 'lists.json']);
    expect(only.stdout).toContain('1 passed, 0 failed, 0 skipped');
  });

  it('--reporter junit prints JUnit, or with --out writes it and prints the text', async () => {
    const printed = await run([...account(), '--only', 'lists.json', '--reporter', 'junit']);
    expect(printed.stdout).toMatch(/^<\?xml /);
    const out = join(folder, 'report.xml');
    const written = await run([
      ...account(),
      '--only',
      'lists.json',
      '--reporter',
      'junit',
      '--out',
      out,
    ]);
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml /);
    expect(written.stdout).toContain('1 passed, 0 failed, 0 skipped');
    expect(written.stdout).not.toContain('<?xml');
    const text = join(folder, 'report.txt');
    const plain = await run([...account(), '--only', 'lists.json', '--out', text]);
    expect(`${readFileSync(text, 'utf8')}\n`).toBe(plain.stdout);
  });

  it('--allow-writes runs the writing checks too', async () => {
    const { code, stdout } = await run([
      ...account(),
      '--allow-writes',
      '--only',
      'writes.field-create',
    ]);
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toContain('PASS  writes.field-create');
  });

  it('--max-new-contacts lets writes.contact-cap look for the maximum; it is a whole number', async () => {
    // 3 seeded and the run's two addresses (their ids told apart), then room for one new contact.
    fake.setMaxContacts(SERVER_ID, 6);
    try {
      const only = ['--allow-writes', '--only', 'writes.contact-cap'];
      const skipped = await run([...account(), ...only]);
      expect(skipped.code).toBe(EXIT_PASS);
      expect(skipped.stdout).toContain('SKIP  writes.contact-cap');
      const { code, stdout } = await run([...account(), ...only, '--max-new-contacts', '3']);
      expect(code).toBe(EXIT_PASS);
      expect(stdout).toContain('PASS  writes.contact-cap');
      expect(stdout).toContain('403 after 1 new contact(s)');
      for (const bad of ['-1', 'x', '1.5', '', '1e3', '99999999999999999999']) {
        const flag = `--max-new-contacts=${bad}`;
        const usage = new UsageError(
          '--max-new-contacts is a whole number of contacts, 0 or more.',
        );
        await expect(run([...account(), ...only, flag])).rejects.toThrow(usage);
        // A dry run shows what the same flags would do, or says they are wrong.
        await expect(run(['--dry-run', ...only, flag])).rejects.toThrow(usage);
      }
      await expect(run(['--dry-run', '--reporter', 'tap'])).rejects.toThrow(
        new UsageError('--reporter is text or junit.'),
      );
    } finally {
      fake.reset();
    }
  });

  it('an unreachable target exits 3', async () => {
    const { code, stdout } = await run([
      '--base-url',
      'http://127.0.0.1:9/marketing/v1',
      '--server-id',
      '1',
      '--key',
      'k',
    ]);
    expect(code).toBe(EXIT_COULD_NOT_RUN);
    expect(stdout).toContain('cannot reach 127.0.0.1:9');
  });
});

describe('verify --har: its own traffic recorded', () => {
  it('records every exchange, redacted, and says how many', async () => {
    const har = join(folder, 'verify.har');
    const { code, stdout } = await run([...account(), '--only', 'lists.json', '--har', har]);
    expect(code).toBe(EXIT_PASS);
    const entries = JSON.parse(readFileSync(har, 'utf8')).log.entries as unknown[];
    expect(entries.length).toBeGreaterThan(0);
    expect(stdout).toContain(`\nRecorded ${entries.length} exchanges to ${har}.\n`);
    // The report names the target, not the recorder in between.
    expect(stdout).toContain(baseUrl);
    expect(readFileSync(har, 'utf8')).not.toContain(KEY);
  });

  it('records nothing when the target cannot be judged', async () => {
    const har = join(folder, 'down.har');
    const { code, stdout } = await run([
      '--base-url',
      'http://127.0.0.1:9/marketing/v1',
      '--server-id',
      '1',
      '--key',
      'k',
      '--har',
      har,
    ]);
    expect(code).toBe(EXIT_COULD_NOT_RUN);
    expect(stdout).toContain(`\nNothing recorded to ${har}: the target could not be judged.\n`);
  });
});

describe('verify --har over HTTPS and into a file that is not a HAR', () => {
  it('records through the recorder, trusting --ca upstream', async () => {
    const secure = await makeFake();
    try {
      const { baseUrl: url, ca } = await secure.listen();
      const caFile = join(folder, 'ca.pem');
      writeFileSync(caFile, ca as string);
      const har = join(folder, 'secure.har');
      const args = ['--base-url', url, '--server-id', String(SERVER_ID), '--key', KEY];
      const { code, stdout } = await run([
        ...args,
        '--ca',
        caFile,
        '--only',
        'lists.json',
        '--har',
        har,
      ]);
      expect(code).toBe(EXIT_PASS);
      expect(stdout).toMatch(new RegExp(`\nRecorded \\d+ exchanges to ${har}\\.\n`));
      expect(JSON.parse(readFileSync(har, 'utf8')).log.entries[0].request.url).toBe(`${url}/lists`);
    } finally {
      await secure.close();
    }
  });

  it('a --har file that cannot be written is usage, naming --har and why in words', async () => {
    const har = join(folder, 'no-such-folder', 'x.har');
    await expect(
      runVerifyCommand('verify', [...account(), '--only', 'lists.json', '--har', har], {}),
    ).rejects.toThrow(
      new UsageError(`cannot write --har ${har}: its folder does not exist; give another --har.`),
    );
  });

  it('a --har file that exists and is not a HAR is usage, naming --har', async () => {
    const har = join(folder, 'notes.txt');
    writeFileSync(har, 'my notes');
    await expect(
      runVerifyCommand('verify', [...account(), '--only', 'lists.json', '--har', har], {}),
    ).rejects.toThrow(
      new UsageError(
        `${har} exists and is not a HAR file: give another --har (it is never overwritten).`,
      ),
    );
    expect(readFileSync(har, 'utf8')).toBe('my notes');
  });
});

describe('verify --max-new-contacts: the contact maximum', () => {
  it('is a whole number', async () => {
    for (const bad of ['x', '1.5', '1234567', ' 1', '1 ', 'a1', '1a']) {
      await expect(
        runVerifyCommand('verify', [...account(), '--max-new-contacts', bad], {}),
      ).rejects.toThrow(
        new UsageError('--max-new-contacts is a whole number of contacts, 0 or more.'),
      );
    }
  });

  it('without it writes.contact-cap skips; with it, it finds the 403', async () => {
    const seed = smallSeed();
    // The seed's contacts and the run's two addresses, then room for one new contact.
    seed.servers[0]!.maxContacts = 6;
    const capped = await makeFake({ seed });
    try {
      const { baseUrl: url } = await capped.listen({ https: false });
      const args = [
        '--base-url',
        url,
        '--server-id',
        String(SERVER_ID),
        '--key',
        KEY,
        '--allow-writes',
        '--only',
        'writes.contact-cap',
      ];
      const skipped = await run(args);
      expect(skipped.stdout).toContain('SKIP  writes.contact-cap');
      expect(skipped.stdout).toContain('give --max-new-contacts <n>');
      const checked = await run([...args, '--max-new-contacts', '10']);
      expect(checked.code).toBe(EXIT_PASS);
      expect(checked.stdout).toContain('PASS  writes.contact-cap');
      expect(checked.stdout).toContain('403 after 1 new contact(s)');
    } finally {
      await capped.close();
    }
  });
});

describe('verifyRecorded', () => {
  it('a target that cannot be judged is verified directly, nothing recorded', async () => {
    const har = join(folder, 'direct.har');
    const { report, recorded } = await verifyRecorded(
      { baseUrl: 'http://127.0.0.1:9/marketing/v1', serverId: 1, key: 'k' },
      har,
    );
    expect(recorded).toBeUndefined();
    expect(report.exitCode).toBe(EXIT_COULD_NOT_RUN);
    expect(report.couldNotRun).toBeDefined();
  });
});

describe('import: a seed from the account', () => {
  it('writes the seed for its owner alone, without the key unless --keep-key', async () => {
    const out = join(folder, 'seed.json');
    const { code, stdout } = await run([...account(), '--out', out], 'import');
    expect(code).toBe(EXIT_PASS);
    expect(stdout).toBe(
      `Wrote ${out}: 2 lists, 3 custom fields, 2 content items.\nNo contacts: the API cannot list them.\nThe key is not in the file (--keep-key to write it).\n`,
    );
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const seed = readFileSync(out, 'utf8');
    expect(seed.endsWith('}\n')).toBe(true);
    expect(seed).toContain('\n  "servers": [');
    expect(seed).not.toContain(KEY);
    const kept = await run([...account(), '--out', out, '--keep-key'], 'import');
    expect(kept.stdout).toBe(
      `Wrote ${out}: 2 lists, 3 custom fields, 2 content items.\nNo contacts: the API cannot list them.\n`,
    );
    expect(JSON.parse(readFileSync(out, 'utf8')).servers[0].key).toBe(KEY);
  });

  it('says where the account held the key it kept out of the seed', async () => {
    fake.seed({ servers: [{ serverId: SERVER_ID, lists: [{ id: 7, name: `Copy of ${KEY}` }] }] });
    try {
      const out = join(folder, 'seed-with-key-name.json');
      const { code, stdout, stderr } = await run([...account(), '--out', out], 'import');
      expect(code).toBe(EXIT_PASS);
      expect(stdout).toContain('The key is not in the file (--keep-key to write it).\n');
      expect(stderr).toBe(
        "The account's data held the key; the seed has [redacted] in its place at GET /lists item 2: name.\n",
      );
      const seed = readFileSync(out, 'utf8');
      expect(seed).not.toContain(KEY);
      expect(seed).toContain('"Copy of [redacted]"');
    } finally {
      fake.reset();
    }
  });

  it('refuses an --out that is the --har file, before sending anything', async () => {
    const har = join(folder, 'both.har');
    fake.clearRequests();
    await expect(
      run([...account(), '--only', 'lists.json', '--har', har, '--out', har]),
    ).rejects.toThrow(
      new UsageError(
        `--out ${har} is the HAR --har records to: writing there would replace it. Give another --out.`,
      ),
    );
    expect(fake.requests()).toEqual([]);
  });

  it.each([
    ['verify', ['--out'], '--out'],
    ['verify', ['--har'], '--har'],
    ['import', ['--out'], '--out'],
  ] as const)(
    '%s refuses a %s that is the --ca file, leaving it as it is',
    async (command, flags, flag) => {
      const ca = join(folder, `trusted-${command}-${flag.slice(2)}.pem`);
      writeFileSync(ca, 'the PEM a user trusts');
      await expect(
        run([...account(), '--only', 'lists.json', '--ca', ca, ...flags, ca], command),
      ).rejects.toThrow(
        new UsageError(
          `${flag} ${ca} is the --ca file: writing there would replace it. Give another ${flag}.`,
        ),
      );
      expect(readFileSync(ca, 'utf8')).toBe('the PEM a user trusts');
    },
  );

  it('an --out it cannot write is usage (exit 2) saying why, for the seed and for a report', async () => {
    const taken = join(folder, 'a-folder');
    mkdirSync(taken, { recursive: true });
    const why = new UsageError(`cannot write --out ${taken}: it is a folder.`);
    await expect(run([...account(), '--out', taken], 'import')).rejects.toThrow(why);
    await expect(run([...account(), '--only', 'lists.json', '--out', taken])).rejects.toThrow(why);
    expect(readdirSync(folder).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  // An answer it cannot import is exit 2 (InvalidOptionError) naming the request and what is
  // wrong, escaped for the terminal; it was a TypeError of the reading code, or JSON.parse's text.
  it.each([
    ['[null]', '[null]', 'GET /lists answered an array whose item 0 is null, not an object'],
    ['[1]', '[1]', 'GET /lists answered an array whose item 0 is 1, not an object'],
    [
      'an item nested 100k deep',
      `[${'['.repeat(100_000)}${']'.repeat(100_000)}]`,
      `GET /lists answered JSON nested deeper than 100 levels: ${'['.repeat(200)}`,
    ],
    ['an object', '{"a":1}', 'GET /lists answered an object, not an array: {"a":1}'],
    [
      'no JSON, with a terminal escape',
      'oops \u001b[31m<html>',
      'GET /lists answered 200 with a body that is not JSON: oops \\u001b[31m<html>',
    ],
  ])(
    'refuses a /lists answer of %s as one it cannot import, saying why',
    async (_what, body, message) => {
      const odd = createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      });
      await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}/marketing/v1`;
        const args = [
          '--base-url',
          url,
          '--server-id',
          '1',
          '--key',
          'k-1',
          '--out',
          join(folder, 'odd.json'),
        ];
        const refused = run(args, 'import');
        await expect(refused).rejects.toBeInstanceOf(InvalidOptionError);
        await expect(refused).rejects.toThrow(message);
      } finally {
        await new Promise((resolve) => odd.close(resolve));
      }
    },
  );

  it('counts 0 of what the seed does not hold', async () => {
    const other = await makeFake({ seed: { servers: [{ serverId: 4321, key: 'k-4321' }] } });
    try {
      const { baseUrl: url } = await other.listen({ https: false });
      const out = join(folder, 'empty.json');
      const args = ['--base-url', url, '--server-id', '4321', '--key', 'k-4321', '--out', out];
      const { stdout } = await run(args, 'import');
      expect(stdout).toContain(`Wrote ${out}: 0 lists, 0 custom fields, 0 content items.`);
    } finally {
      await other.close();
    }
  });
});
