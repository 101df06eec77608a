import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  importSeed,
  verifyPlan,
  verifyService,
} from '../../src/index.js';
import { CLI, spawnCli, started } from '../helpers/cli.js';
import { DRIFTS, startDriftProxy } from '../helpers/drift-proxy.js';
import { KEY, makeFake, SERVER_ID } from '../helpers/fake.js';

const READ_ONLY = verifyPlan(false).map((check) => check.id);
const ALL = verifyPlan(true).map((check) => check.id);

let fake: FakeMarketingServer;
let baseUrl: string;
beforeAll(async () => {
  fake = await makeFake();
  ({ baseUrl } = await fake.listen({ https: false }));
});
afterAll(() => fake.close());

describe('verifyService against this fake', () => {
  it('passes every check, read-only, and changes nothing', async () => {
    const before = fake.exportState();
    const report = await verifyService({ baseUrl, serverId: SERVER_ID, key: KEY });
    expect(report.results.map((result) => [result.id, result.status])).toEqual(
      READ_ONLY.map((id) => [id, 'pass']),
    );
    expect(report.failed).toBe(0);
    expect(report.leftBehind).toEqual([]);
    expect(fake.exportState()).toEqual(before);
    expect(JSON.stringify(report)).not.toContain(KEY);
  });

  it('with allowWrites, checks the writing rules with throwaway names and says what it left', async () => {
    const before = fake.server(SERVER_ID);
    const contactsBefore = before.contacts();
    const fieldsBefore = before.customFields();
    const report = await verifyService({
      baseUrl,
      serverId: SERVER_ID,
      key: KEY,
      allowWrites: true,
    });
    // Without maxNewContacts the contact maximum is not looked for: skipped, saying how to.
    expect(report.results.map((result) => [result.id, result.status])).toEqual(
      ALL.map((id) => [id, id === 'writes.contact-cap' ? 'skipped' : 'pass']),
    );
    expect(report.results.at(-1)!.got).toMatch(/^the maximum is not given .*--max-new-contacts/);
    expect(report.exitCode).toBe(0);
    const address = /fms-verify-[0-9a-f]{12}@example\.com/.exec(report.leftBehind.join(' '))![0];
    const second = address.replace('@', '-2@');
    const idOf = (email: string) => fake.server(SERVER_ID).contact(email)?.contactId;
    // Undone in reverse order of making: the second address, made to tell the ids apart, first.
    expect(report.leftBehind).toEqual([
      `the contact ${second} (id ${idOf(second)} as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${address} (id ${idOf(address)} as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${address} is unsubscribed (no method moves it out of Unsubscribed)`,
    ]);
    expect(address).toMatch(/^fms-verify-[0-9a-f]{12}@example\.com$/);
    const after = fake.server(SERVER_ID);
    // The two things added: the throwaway contacts, on no list; every other contact as it was.
    expect(
      after.contacts().filter((contact) => ![address, second].includes(contact.emailAddress)),
    ).toEqual(contactsBefore);
    expect(after.contact(address)).toMatchObject({ status: 'Unsubscribed', listIds: [] });
    expect(after.contact(second)).toMatchObject({ status: 'Active', listIds: [] });
    expect(after.customFields()).toEqual(fieldsBefore);
  });

  it('with maxNewContacts, reaches the contact maximum and leaves exactly the contacts it lists', async () => {
    await using capped = await makeFake();
    const { baseUrl: cappedUrl } = await capped.listen({ https: false });
    // The seed holds 3 contacts; with a cap of 7 the run's two and 2 more reach it.
    capped.setMaxContacts(SERVER_ID, 7);
    const before = capped.server(SERVER_ID).contacts();
    const report = await verifyService({
      baseUrl: cappedUrl,
      serverId: SERVER_ID,
      key: KEY,
      allowWrites: true,
      maxNewContacts: 5,
    });
    expect(report.results.filter((result) => result.status !== 'pass')).toEqual([]);
    expect(report.results.at(-1)!.got).toBe(
      '403 after 2 new contact(s), in JSON and XML; an existing contact is still added',
    );
    const tag = /fms-verify-([0-9a-f]{12})@/.exec(report.leftBehind.join(' '))![1]!;
    expect(report.leftBehind.at(-1)).toBe(
      `2 contact(s) fms-verify-${tag}-cap1@example.com to fms-verify-${tag}-cap2@example.com (contacts cannot be deleted through the API)`,
    );
    const added = capped
      .server(SERVER_ID)
      .contacts()
      .filter((contact) => !before.some((old) => old.contactId === contact.contactId));
    expect(added.map((contact) => [contact.emailAddress, contact.listIds])).toEqual([
      [`fms-verify-${tag}@example.com`, []],
      [`fms-verify-${tag}-2@example.com`, []],
      [`fms-verify-${tag}-cap1@example.com`, []],
      [`fms-verify-${tag}-cap2@example.com`, []],
    ]);
  });

  it('with maxNewContacts below the room left, skips the contact maximum saying so, and lists the one it made', async () => {
    await using roomy = await makeFake();
    const { baseUrl: roomyUrl } = await roomy.listen({ https: false });
    const report = await verifyService({
      baseUrl: roomyUrl,
      serverId: SERVER_ID,
      key: KEY,
      allowWrites: true,
      only: ['writes.contact-cap'],
      maxNewContacts: 1,
    });
    expect(report.results[0]).toMatchObject({
      status: 'skipped',
      got: 'no 403 within 1 new contact(s): the maximum is further (give a larger --max-new-contacts, or an account nearer its maximum)',
    });
    const tag = /fms-verify-([0-9a-f]{12})-cap1@/.exec(report.leftBehind[0]!)![1]!;
    const idOf = (email: string) => roomy.server(SERVER_ID).contact(email)?.contactId;
    // Undone in reverse order of making: the one made last is listed first.
    expect(report.leftBehind).toEqual([
      `1 contact(s) fms-verify-${tag}-cap1@example.com (contacts cannot be deleted through the API)`,
      `the contact fms-verify-${tag}@example.com (id ${idOf(`fms-verify-${tag}@example.com`)} as the service answered it; contacts cannot be deleted through the API)`,
      `the contact fms-verify-${tag}-2@example.com (id ${idOf(`fms-verify-${tag}-2@example.com`)} as the service answered it; contacts cannot be deleted through the API)`,
    ]);
    expect(roomy.server(SERVER_ID).contact(`fms-verify-${tag}-cap1@example.com`)?.listIds).toEqual(
      [],
    );
  });

  it('with maxNewContacts on an account one contact from its maximum, the first new one is refused and none is left', async () => {
    await using full = await makeFake();
    const { baseUrl: fullUrl } = await full.listen({ https: false });
    // 3 seeded and the run's two addresses make 5: the next new contact is past the maximum.
    full.setMaxContacts(SERVER_ID, 5);
    const report = await verifyService({
      baseUrl: fullUrl,
      serverId: SERVER_ID,
      key: KEY,
      allowWrites: true,
      only: ['writes.contact-cap'],
      maxNewContacts: 3,
    });
    expect(report.results[0]).toMatchObject({
      status: 'pass',
      got: '403 after 0 new contact(s), in JSON and XML; an existing contact is still added',
    });
    expect(report.leftBehind).toEqual([
      expect.stringMatching(
        /^the contact fms-verify-[0-9a-f]{12}@example\.com \(id \d+ as the service answered it; contacts cannot/,
      ),
      expect.stringMatching(
        /^the contact fms-verify-[0-9a-f]{12}-2@example\.com \(id \d+ as the service answered it; contacts cannot/,
      ),
    ]);
    expect(full.server(SERVER_ID).contacts()).toHaveLength(5);
  });

  it('refuses a maxNewContacts that is no whole number', async () => {
    for (const maxNewContacts of [-1, 1.5, Number.NaN]) {
      await expect(
        verifyService({ baseUrl, serverId: SERVER_ID, key: KEY, maxNewContacts }),
      ).rejects.toThrow('maxNewContacts must be a whole number, 0 or more');
    }
  });

  it('--dry-run: the plan, nothing sent', () => {
    expect(verifyPlan(false).every((check) => !check.writes && check.requests.length > 0)).toBe(
      true,
    );
    expect(
      verifyPlan(true)
        .filter((check) => check.writes)
        .map((check) => check.id),
    ).toEqual([
      'writes.add-creates',
      'writes.second-contact',
      'writes.add-by-id',
      'writes.re-add-idempotent',
      'writes.remove-keeps-contact',
      'writes.unsubscribe-by-email',
      'writes.unsubscribe-by-id',
      'writes.field-create',
      'writes.field-duplicate',
      'writes.field-delete',
      'writes.field-name-50',
      'writes.field-name-1',
      'writes.field-limit',
      'writes.stable-after-write',
      'writes.contact-cap',
    ]);
  });

  it('refuses options that make no sense', async () => {
    await expect(verifyService({ baseUrl: 'ftp://x', serverId: 1, key: 'k' })).rejects.toThrow(
      /baseUrl/,
    );
    await expect(verifyService({ baseUrl, serverId: 1, key: '' })).rejects.toThrow(/key/);
  });
});

describe('the verify and import commands, over HTTPS through the CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fms-verify-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [CLI, ...args],
        { env: { ...process.env, ...env } },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it('verify passes against the sandbox, writes JUnit, and never prints the key', async () => {
    const sandbox = spawnCli(['--port', '0', '--ca-out', join(dir, 'ca.pem')]);
    try {
      const { baseUrl: sandboxUrl, servers } = await started(sandbox);
      const { serverId, key } = servers[0]!;
      const account = [
        '--base-url',
        sandboxUrl,
        '--server-id',
        String(serverId),
        '--ca',
        join(dir, 'ca.pem'),
      ];
      const junit = join(dir, 'report.xml');
      const result = await cli(['verify', ...account, '--reporter', 'junit', '--out', junit], {
        FMS_VERIFY_KEY: key,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${READ_ONLY.length} passed, 0 failed, 0 skipped`);
      expect(result.stdout + result.stderr + readFileSync(junit, 'utf8')).not.toContain(key);
      const parsed = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, 'utf8'));
      const suite = parsed.testsuites.testsuite;
      expect(suite['@_tests']).toBe(String(READ_ONLY.length));
      expect(suite['@_failures']).toBe('0');
      expect(suite.testcase.map((test: Record<string, string>) => test['@_name'])).toEqual(
        READ_ONLY,
      );

      const wrong = await cli(['verify', ...account], {
        FMS_VERIFY_KEY: `${key}x`,
      });
      // Refused credentials: could not run (3), said once with what to fix, no check reported.
      expect(wrong.code).toBe(3);
      expect(wrong.stdout).toContain('COULD NOT RUN: no check was made.');
      expect(wrong.stdout.match(/the credentials are refused/g)).toHaveLength(1);
      expect(wrong.stdout).toContain('fix:     check --server-id (the Basic username) and the key');
      expect(wrong.stdout).not.toMatch(/^(PASS|FAIL|SKIP) /m);

      const seedFile = join(dir, 'imported.json');
      const imported = await cli(['import', ...account, '--out', seedFile], {
        FMS_VERIFY_KEY: key,
      });
      expect(imported.code).toBe(0);
      expect(imported.stdout).toContain('No contacts: the API cannot list them.');
      expect(readFileSync(seedFile, 'utf8')).not.toContain(key);
      // A seed can hold the key (--keep-key): the file is its owner's alone.
      expect(statSync(seedFile).mode & 0o777).toBe(0o600);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.exited;
    }
  }, 60_000);

  it('--dry-run prints the plan; a missing key is a usage error', async () => {
    const plan = await cli(['verify', '--dry-run', '--allow-writes']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(`${ALL.length} checks; nothing was sent.`);
    expect(plan.stdout).toContain('writes.add-creates (writes)');
    const missing = await cli(['verify', '--base-url', baseUrl, '--server-id', '1234'], {
      FMS_VERIFY_KEY: '',
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--key (or FMS_VERIFY_KEY) is required.');
    const noCa = await cli(
      ['verify', '--base-url', baseUrl, '--server-id', '1234', '--ca', '/nonexistent/ca.pem'],
      {
        FMS_VERIFY_KEY: 'k',
      },
    );
    expect(noCa.code).toBe(2);
    expect(noCa.stderr).toContain('cannot read --ca /nonexistent/ca.pem');
  });
});

describe('verify exit codes and listings, through the CLI', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [CLI, ...args],
        { env: { ...process.env, ...env } },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it('exit 1 on drift (JUnit <failure>), 0 without; --only narrows the run', async () => {
    const proxy = await startDriftProxy({
      upstream: baseUrl,
      drift: DRIFTS.find((drift) => drift.id === 'content.created-us-date-json'),
    });
    const dir = mkdtempSync(join(tmpdir(), 'fms-verify-junit-'));
    try {
      const args = ['verify', '--base-url', proxy.baseUrl, '--server-id', String(SERVER_ID)];
      const junit = join(dir, 'report.xml');
      const drifted = await cli([...args, '--reporter', 'junit', '--out', junit], {
        FMS_VERIFY_KEY: KEY,
      });
      expect(drifted.code).toBe(1);
      expect(drifted.stdout).toContain('FAIL  content.timestamps');
      const parsed = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(junit, 'utf8'));
      expect(parsed.testsuites['@_failures']).toBe('1');
      expect(parsed.testsuites['@_errors']).toBe('0');
      const only = await cli([...args, '--only', 'lists.json,lists.xml'], { FMS_VERIFY_KEY: KEY });
      expect(only.code).toBe(0);
      expect(only.stdout).toContain('2 passed, 0 failed, 0 skipped');
    } finally {
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);

  it('--list prints every check with its requirement; --help lists them; bad --only is usage (2)', async () => {
    const list = await cli(['verify', '--list']);
    expect(list.code).toBe(0);
    for (const check of verifyPlan(true)) {
      expect(list.stdout).toContain(`${check.id}${check.writes ? ' (writes)' : ''}\n`);
      expect(list.stdout).toContain(`  requires: ${check.requirement}\n`);
    }
    const help = await cli(['verify', '--help']);
    for (const id of ALL) expect(help.stdout).toContain(`  ${id}`);
    expect(help.stdout).toContain('3 could not run');
    const unknown = await cli(['verify', '--only', 'lists.jsn', '--list']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown check id(s): lists.jsn');
    const writing = await cli(
      ['verify', '--base-url', baseUrl, '--server-id', '1234', '--only', 'writes.field-create'],
      { FMS_VERIFY_KEY: KEY },
    );
    expect(writing.code).toBe(2);
    expect(writing.stderr).toContain('add --allow-writes');
  }, 30_000);
});

describe('importSeed', () => {
  it('reads lists, custom fields and content into a seed that loads and equals the source', async () => {
    const seed = await importSeed({ baseUrl, serverId: SERVER_ID, key: KEY });
    expect(seed.servers[0]!.key).toBeUndefined();
    expect(seed.servers[0]!.contacts).toBeUndefined();
    const schema = JSON.parse(
      readFileSync(new URL('../../seed.schema.json', import.meta.url), 'utf8'),
    );
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    (addFormats as unknown as (target: Ajv2020) => void)(ajv);
    expect(ajv.validate(schema, seed), JSON.stringify(ajv.errors)).toBe(true);
    await using copy = await createFakeMarketingServer({ seed });
    const source = fake.server(SERVER_ID);
    const imported = copy.server(SERVER_ID);
    expect(imported.lists()).toEqual(source.lists());
    expect(imported.customFields()).toEqual(source.customFields());
    expect(imported.content()).toEqual(source.content());
    const withKey = await importSeed({ baseUrl, serverId: SERVER_ID, key: KEY, keepKey: true });
    expect(withKey.servers[0]!.key).toBe(KEY);
  });
});
