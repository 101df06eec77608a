import { mkdtempSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCliPerTest, started } from '../helpers/cli.js';
import { basic } from '../helpers/fake.js';
import { send } from '../helpers/request.js';

/** Large enough that writing the state file takes a while (about 25 MB pretty-printed). */
const CONTACTS = 100_000;
/** Each attempt kills a save when its temporary file appears; the kill can land after the rename. */
const ATTEMPTS = 5;
const KEY = 'kill-test-key';

const run = spawnCliPerTest();

function bigSeed(file: string): void {
  const contacts = Array.from({ length: CONTACTS }, (_, index) => ({
    emailAddress: `contact-${index}@example.com`,
    customFields: { City: `City number ${index} `.repeat(4) },
    lists: [1],
  }));
  const seed = {
    servers: [
      {
        serverId: 1234,
        key: KEY,
        maxContacts: CONTACTS * 2,
        customFields: [{ name: 'City' }],
        lists: [{ id: 1, name: 'Everyone' }],
        contacts,
      },
    ],
  };
  writeFileSync(file, JSON.stringify(seed));
}

const temporaries = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.tmp'));

describe('kill -9 during POST /__admin/save', () => {
  it('leaves the old or the new whole state, and the restart removes the temporary file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-kill-save-'));
    const seedFile = join(folder, 'seed.json');
    const stateFile = join(folder, 'state.json');
    bigSeed(seedFile);
    const args = ['--port', '0', '--http', '--seed', seedFile, '--state-file', stateFile];

    let killedMidSave = false;
    for (let attempt = 0; attempt < ATTEMPTS && !killedMidSave; attempt++) {
      const cli = run(args);
      const { url, baseUrl } = await started(cli, 60_000);
      // The state on disk before the save that gets killed.
      expect((await send(`${url}/__admin/save`, { method: 'POST' })).status).toBe(200);
      const before = JSON.parse(readFileSync(stateFile, 'utf8')) as unknown;
      const added = await send(`${baseUrl}/lists/1/contacts`, {
        method: 'PUT',
        headers: { authorization: basic(1234, KEY), 'content-type': 'application/json' },
        body: JSON.stringify({ emailAddress: `new-${attempt}@example.com` }),
      });
      expect(added.status).toBe(200);
      const after = JSON.parse((await send(`${url}/__admin/state`)).body) as unknown;

      // The save's temporary file: `state.json.<pid>.<random>.tmp`, a name no one can guess.
      const ours = (name: string | null) =>
        /^state\.json\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name ?? '')?.[1] === String(cli.child.pid);
      const watcher = watch(folder, (_event, name) => {
        if (ours(name)) cli.child.kill('SIGKILL');
      });
      send(`${url}/__admin/save`, { method: 'POST' }).catch(() => undefined);
      const { signal } = await cli.exited;
      watcher.close();
      expect(signal).toBe('SIGKILL');
      killedMidSave = readdirSync(folder).some(ours);

      // Never torn: the file is one of the two whole states.
      const onDisk = JSON.parse(readFileSync(stateFile, 'utf8')) as unknown;
      expect([before, after]).toContainEqual(onDisk);
    }
    expect(killedMidSave, `no kill landed mid-save in ${ATTEMPTS} attempts`).toBe(true);
    expect(temporaries(folder)).not.toEqual([]);

    const restarted = run(args);
    await started(restarted, 60_000);
    expect(temporaries(folder)).toEqual([]);
    restarted.child.kill('SIGKILL');
    await restarted.exited;
  }, 180_000);
});
