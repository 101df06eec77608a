import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HarValidator } from '@har-sdk/validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeMarketingServer, type FakeMarketingServer, replayHar } from '../../src/index.js';
import { spawnCli } from '../helpers/cli.js';
import { KEY, SERVER_ID, smallSeed } from '../helpers/fake.js';

let fake: FakeMarketingServer;
let folder: string;
let caFile: string;

beforeAll(async () => {
  fake = await createFakeMarketingServer({ seed: smallSeed() });
  const { ca } = await fake.listen();
  folder = mkdtempSync(join(tmpdir(), 'verify-har-'));
  caFile = join(folder, 'ca.pem');
  writeFileSync(caFile, ca as string);
});
afterAll(async () => {
  await fake?.close();
  rmSync(folder, { recursive: true, force: true });
});

async function verify(...args: string[]) {
  const cli = spawnCli(['verify', '--server-id', String(SERVER_ID), '--key', KEY, ...args]);
  const { code, stderr } = await cli.exited;
  return { code, stderr, stdout: cli.output() };
}

describe('verify --har', () => {
  it("records verify's own traffic through the recorder, redacted, and the recording replays", async () => {
    const har = join(folder, 'verify.har');
    const { code, stdout } = await verify(
      '--base-url',
      fake.baseUrl,
      '--ca',
      caFile,
      '--allow-writes',
      '--har',
      har,
    );
    expect(code).toBe(0);
    const recorded = Number(/Recorded (\d+) exchanges to /.exec(stdout)?.[1]);
    const text = readFileSync(har, 'utf8');
    const document = JSON.parse(text);
    expect(await new HarValidator().verify(document)).toEqual([]);
    expect(document.log.entries).toHaveLength(recorded);
    expect(recorded).toBeGreaterThan(20);
    expect(document.log.entries[0].request.url).toBe(`${fake.baseUrl}/lists`);
    expect(text).not.toContain(KEY);
    fake.reset();
    const report = await replayHar(text, { seed: smallSeed() });
    expect(report.drifted).toBe(0);
    expect(report.matched).toBe(recorded);
  }, 60_000);

  it('records nothing when the target cannot be judged, and verify says why (exit 3)', async () => {
    const har = join(folder, 'down.har');
    const { code, stdout } = await verify(
      '--base-url',
      'http://127.0.0.1:9/marketing/v1',
      '--har',
      har,
    );
    expect(code).toBe(3);
    expect(stdout).toContain('cannot reach 127.0.0.1:9');
    expect(stdout).toContain(`Nothing recorded to ${har}`);
  });

  it('is refused with import (exit 2)', async () => {
    const cli = spawnCli([
      'import',
      '--base-url',
      fake.baseUrl,
      '--server-id',
      String(SERVER_ID),
      '--key',
      KEY,
      '--out',
      join(folder, 's.json'),
      '--har',
      join(folder, 'x.har'),
    ]);
    const { code, stderr } = await cli.exited;
    expect(code).toBe(2);
    expect(stderr).toContain('--har goes with verify, not import.');
  });
});
