import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  InvalidOptionError,
  SeedError,
  StateError,
  StateSaveError,
} from '../../src/index.js';
import { call, smallSeed } from '../helpers/fake.js';
import { UNWRITABLE_STATE_FILES } from '../helpers/unwritable-state-files.js';

const dir = () => mkdtempSync(join(tmpdir(), 'fms-state-'));

describe('the stateFile option', () => {
  it('starts from the seed when the file does not exist, and saveState() writes it', async () => {
    const file = join(dir(), 'state.json');
    await using fake = await createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
    expect(existsSync(file)).toBe(false);
    await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'kept@example.com' } });
    expect(fake.saveState()).toBe(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(fake.exportState());
    expect(readdirSync(join(file, '..'))).toEqual(['state.json']);
  });

  it('loads the file instead of the seed when it exists: the sandbox keeps its state', async () => {
    const file = join(dir(), 'state.json');
    {
      await using first = await createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
      await call(first, 'POST', 'customfields/Kept');
      first.saveState();
    }
    await using second = await createFakeMarketingServer({
      seed: { servers: [] },
      stateFile: file,
    });
    expect(
      second
        .server(1234)
        .customFields()
        .map((field) => field.name),
    ).toContain('Kept');
  });

  it('a bad file is a SeedError naming the file, and the file is left as it was', async () => {
    const file = join(dir(), 'state.json');
    writeFileSync(file, '{"servers": [{"serverId": 1}]}');
    await expect(createFakeMarketingServer({ stateFile: file })).rejects.toThrow(SeedError);
    await expect(createFakeMarketingServer({ stateFile: file })).rejects.toThrow(
      'servers[0].serverId',
    );
    expect(readFileSync(file, 'utf8')).toBe('{"servers": [{"serverId": 1}]}');
  });

  it('POST /__admin/save writes the file; without a state file it is a 409', async () => {
    const file = join(dir(), 'state.json');
    await using fake = await createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
    const saved = await fake.inject({ method: 'POST', url: '/__admin/save' });
    expect(saved.statusCode).toBe(200);
    expect(JSON.parse(saved.body)).toEqual({ stateFile: file });
    expect(existsSync(file)).toBe(true);

    await using plain = await createFakeMarketingServer({ seed: smallSeed() });
    expect(() => plain.saveState()).toThrow(StateError);
    const refused = await plain.inject({ method: 'POST', url: '/__admin/save' });
    expect(refused.statusCode).toBe(409);
    expect(JSON.parse(refused.body).message).toContain('No state file');
  });

  it('a write that fails leaves the previous file whole and no temporary file behind', async () => {
    const folder = dir();
    const file = join(folder, 'state.json');
    await using fake = await createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
    fake.saveState();
    const before = readFileSync(file, 'utf8');
    await call(fake, 'POST', 'customfields/Unsaved');
    mkdirSync(join(folder, 'removed-later'));
    const lost = join(folder, 'removed-later', 'x.json');
    await using broken = await createFakeMarketingServer({ seed: smallSeed(), stateFile: lost });
    rmSync(join(folder, 'removed-later'), { recursive: true });
    expect(() => broken.saveState()).toThrow(StateSaveError);
    expect(() => broken.saveState()).toThrow(
      `Could not write the state file ${lost}: its folder does not exist. The state is still in memory: fix that and save again.`,
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(folder)).toEqual(['state.json']);
  });

  it('POST /__admin/save that cannot write answers 507 saying why, and the state is kept', async () => {
    const folder = join(dir(), 'removed-later');
    mkdirSync(folder);
    const file = join(folder, 'state.json');
    await using fake = await createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
    await call(fake, 'POST', 'customfields/Kept');
    const state = fake.exportState();
    rmSync(folder, { recursive: true });
    const refused = await fake.inject({ method: 'POST', url: '/__admin/save' });
    expect(refused.statusCode).toBe(507);
    expect(JSON.parse(refused.body)).toEqual({
      message: `Could not write the state file ${file}: its folder does not exist. The state is still in memory: fix that and save again.`,
    });
    expect(fake.exportState()).toEqual(state);
    mkdirSync(folder);
    expect((await fake.inject({ method: 'POST', url: '/__admin/save' })).statusCode).toBe(200);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(state);
  });

  it.each(UNWRITABLE_STATE_FILES)(
    'a state file %s is refused at creation, saying why',
    async (_, path, why) => {
      const folder = dir();
      writeFileSync(join(folder, 'file.txt'), 'x');
      const file = path(folder);
      const created = createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
      await expect(created).rejects.toThrow(InvalidOptionError);
      await expect(
        createFakeMarketingServer({ seed: smallSeed(), stateFile: file }),
      ).rejects.toThrow(`stateFile ${file} cannot be written: ${why}.`);
      expect(readdirSync(folder).sort()).toEqual(['file.txt']);
    },
  );

  it('temporary files of killed saves are removed at start and by the next save; live ones kept', async () => {
    const folder = dir();
    const file = join(folder, 'state.json');
    const dead = await deadPid();
    const live = process.ppid;
    const stale = [
      `state.json.${dead}.tmp`,
      `state.json.${dead}.1763900000000.tmp`, // the name earlier versions used
      `state.json.${process.pid}.tmp`, // this process writes synchronously: none is in flight
      `state.json.${live}.tmp`, // made old below
    ];
    const kept = [
      `state.json.${live}.1.tmp`, // another live process writing right now
      'state.json.tmp',
      'state.json.abc.tmp',
      'other.json.12345.tmp',
      `state.json.${dead}.tmp.bak`,
    ];
    for (const name of [...stale, ...kept]) writeFileSync(join(folder, name), '{"torn":');
    // Older than any save takes: its pid was reused by a live process.
    const old = new Date(Date.now() - 60 * 60 * 1000);
    utimesSync(join(folder, stale[3]!), old, old);

    await using fake = await createFakeMarketingServer({ seed: smallSeed(), stateFile: file });
    expect(readdirSync(folder).sort()).toEqual([...kept].sort());

    writeFileSync(join(folder, `state.json.${dead}.tmp`), '{"torn":');
    fake.saveState();
    expect(readdirSync(folder).sort()).toEqual([...kept, 'state.json'].sort());
  });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}
