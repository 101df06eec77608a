import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer, type Har } from '../../src/index.js';
import { spawnCli } from '../helpers/cli.js';
import { KEY, SERVER_ID, smallSeed } from '../helpers/fake.js';

const AUTH = `Basic ${Buffer.from(`${SERVER_ID}:${KEY}`).toString('base64')}`;
let folder: string;
let har: Har;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'replay-cli-'));
  const fake = await createFakeMarketingServer({ seed: smallSeed() });
  for (const accept of ['application/json', 'text/xml']) {
    await fake.inject({
      url: '/marketing/v1/customfields',
      headers: { authorization: AUTH, accept },
    });
  }
  har = fake.requestsHar();
  await fake.close();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function file(name: string, content: string | object): string {
  const path = join(folder, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

async function replay(...args: string[]) {
  const cli = spawnCli(['replay', ...args]);
  const { code, stderr } = await cli.exited;
  return { code, stderr, stdout: cli.output() };
}

describe('fake-marketing-server replay (the CLI)', () => {
  it('exits 0 when every exchange matches', async () => {
    const { code, stdout } = await replay(file('good.har', har));
    expect(code).toBe(0);
    expect(stdout).toContain('2 match, 0 drift, 0 not comparable.');
  });

  it('exits 1 on drift and writes JUnit with --out', async () => {
    const drifted = structuredClone(har);
    drifted.log.entries[1]!.response.content.text =
      drifted.log.entries[1]!.response.content.text!.replace(
        '<CustomFieldType>String</CustomFieldType>',
        '<CustomFieldType>string</CustomFieldType>',
      );
    const out = join(folder, 'junit.xml');
    const { code, stdout } = await replay(
      file('drift.har', drifted),
      '--reporter',
      'junit',
      '--out',
      out,
    );
    expect(code).toBe(1);
    expect(stdout).toContain('DRIFT #1 GET /marketing/v1/customfields');
    expect(stdout).toContain('<CustomFieldType>: recorded "string", fake "String"');
    expect(readFileSync(out, 'utf8')).toContain('failures="1"');
  });

  it.each([
    ['not JSON', 'not-json.har', 'this is not json', /not-json\.har: not JSON: /],
    [
      'not HAR 1.2',
      'old.har',
      { log: { version: '1.1', entries: [] } },
      /old\.har: not HAR 1\.2: log\.version is "1\.1"/,
    ],
    [
      'no API entries',
      'pages.har',
      { log: { version: '1.2', entries: [] } },
      /pages\.har: no API entries/,
    ],
  ])('exits 2 for a HAR that is %s, saying so', async (_what, name, content, message) => {
    const { code, stderr } = await replay(file(name, content));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it('exits 2 for a missing file, no file, or an unreadable --seed', async () => {
    expect((await replay(join(folder, 'missing.har'))).stderr).toContain('cannot read');
    expect((await replay()).code).toBe(2);
    const { code, stderr } = await replay(
      file('seeded.har', har),
      '--seed',
      join(folder, 'nope.json'),
    );
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read seed file');
  });

  it('exits 3 when the recording shows a state no fake can start on', async () => {
    const clash = structuredClone(har);
    clash.log.entries.length = 1;
    clash.log.entries[0]!.response.content.text =
      '[{"customFieldNameId":1,"name":"City","serverId":1234,"customFieldType":"String"},{"customFieldNameId":2,"name":"CITY","serverId":1234,"customFieldType":"String"}]';
    const { code, stderr } = await replay(file('clash.har', clash));
    expect(code).toBe(3);
    expect(stderr).toMatch(
      /could not run: the starting state inferred from the recording is not a valid seed .*give one with --seed/,
    );
  });
});
