import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { temporaryFileOf } from '../../../src/files.js';
import type { HarEntry } from '../../../src/journal/har.js';
import { HarFile, MAX_UNWRITTEN_BYTES } from '../../../src/record/har-file.js';
import { readPrevious } from '../../../src/record/previous-har.js';

// The HAR a recording writes: whole at every moment, appended to by copying the file on disk, so
// that a long recording holds only the entries not yet written.

let folder: string;
let out: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'har-file-'));
  out = join(folder, 'traffic.har');
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const entry = (id: number, text = `body ${id}`) => ({ _id: id, text }) as unknown as HarEntry;
const read = () => JSON.parse(readFileSync(out, 'utf8')) as { log: { entries: unknown[] } };
const lines = () => readFileSync(out, 'utf8').split('\n');
/** A recording of `count` entries by the recorder, written. */
async function recorded(count: number) {
  const file = new HarFile(out);
  for (let id = 1; id <= count; id++) file.append(entry(id));
  await file.write();
}

describe('a HAR being recorded', () => {
  it('is a whole, empty HAR from the first write: the head on its line, the tail after it', async () => {
    await new HarFile(out).write();
    expect(read().log).toMatchObject({
      version: '1.2',
      creator: { name: 'fake-marketing-server record' },
      entries: [],
    });
    expect(lines().slice(1)).toEqual([']}}', '']);
  });

  it('writes one entry a line, each but the last followed by a comma', async () => {
    const file = new HarFile(out);
    for (const id of [1, 2, 3]) file.append(entry(id));
    expect(file.entries).toBe(3);
    await file.write();
    expect(lines().slice(1)).toEqual([
      `${JSON.stringify(entry(1))},`,
      `${JSON.stringify(entry(2))},`,
      JSON.stringify(entry(3)),
      ']}}',
      '',
    ]);
  });

  it('appends a batch to the file on disk: entries written before are read from there, not kept', async () => {
    const file = new HarFile(out);
    file.append(entry(1, 'first'));
    await file.write();
    // Changed on disk, same length: a writer that kept its entries would write them back.
    writeFileSync(out, readFileSync(out, 'utf8').replace('"first"', '"FIRST"'));
    file.append(entry(2));
    await file.write();
    expect(read().log.entries).toEqual([entry(1, 'FIRST'), entry(2)]);
  });

  it('writes 25 ms after an exchange at the soonest, not at once, while the batch is small', async () => {
    const file = new HarFile(out);
    await file.write();
    file.append(entry(1));
    await file.room();
    expect(read().log.entries).toEqual([]);
    // Written without another call: the timer alone writes it (slow on a loaded machine).
    await vi.waitFor(() => expect(read().log.entries).toEqual([entry(1)]), { timeout: 10_000 });
  });

  it('writes a batch at once when it reaches its bound; a full batch waits for the write under way', async () => {
    const file = new HarFile(out);
    await file.write();
    const large = 'x'.repeat(MAX_UNWRITTEN_BYTES);
    file.append(entry(1, large));
    // Taken by a write at once: the next batch has room.
    let roomy = false;
    await file.room().then(() => {
      roomy = true;
    });
    expect(roomy).toBe(true);
    file.append(entry(2, large));
    roomy = false;
    const room = file.room().then(() => {
      roomy = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(roomy).toBe(false);
    await room;
    expect(read().log.entries.length).toBeGreaterThanOrEqual(1);
    await file.write();
    expect(read().log.entries).toEqual([entry(1, large), entry(2, large)]);
  });

  it('keeps a batch it could not write for the next write, and lets the exchanges waiting go on', async () => {
    const errors: Error[] = [];
    const file = new HarFile(out, undefined, (error) => errors.push(error));
    await file.write();
    // The HAR moved away: no write can copy it.
    renameSync(out, `${out}.away`);
    file.append(entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES)));
    await file.room();
    await expect(file.write()).rejects.toThrow();
    expect(errors.length).toBeGreaterThan(0);
    renameSync(`${out}.away`, out);
    expect(read().log.entries).toEqual([]);
    file.append(entry(2));
    await file.write();
    expect(read().log.entries).toEqual([entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES)), entry(2)]);
  });
});

describe('a HAR that cannot be written for a while', () => {
  /** Moves the HAR's folder away (a write cannot make its temporary file) until `back()`. */
  const away = () => {
    renameSync(folder, `${folder}.away`);
    return () => renameSync(`${folder}.away`, folder);
  };
  const until = async (done: () => boolean) => {
    for (let tries = 0; tries < 300 && !done(); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('tries again by itself and writes every waiting entry once the HAR can be written', async () => {
    const errors: Error[] = [];
    const file = new HarFile(out, undefined, (error) => errors.push(error));
    await file.write();
    const back = away();
    file.append(entry(1));
    await until(() => errors.length > 0);
    expect(errors[0]?.message).toBe(`cannot write ${out}: its folder does not exist`);
    back();
    // No exchange comes after the disk is back: the recorder's own retry writes the entry.
    await until(() => read().log.entries.length === 1);
    expect(read().log.entries).toEqual([entry(1)]);
    file.append(entry(2));
    await file.close();
    expect(read().log.entries).toEqual([entry(1), entry(2)]);
  });

  it('never leaves an exchange waiting for room after a failed write of a full batch', async () => {
    const file = new HarFile(out, undefined, () => undefined);
    await file.write();
    const back = away();
    file.append(entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES)));
    await until(() => file.refusal !== undefined);
    // The batch is kept, full, and no write is under way: room() starts one rather than wait.
    await file.room();
    back();
    await file.close();
    expect(read().log.entries).toEqual([entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES))]);
  });

  it('refuses more exchanges only while writes fail and the entries waiting reach the bound', async () => {
    const file = new HarFile(out, undefined, () => undefined);
    await file.write();
    const back = away();
    file.append(entry(1));
    await expect(file.write()).rejects.toThrow('its folder does not exist');
    expect(file.refusal).toBeUndefined();
    file.append(entry(2, 'x'.repeat(MAX_UNWRITTEN_BYTES)));
    await until(() => file.refusal !== undefined);
    expect(file.refusal?.message).toBe(`cannot write ${out}: its folder does not exist`);
    back();
    await until(() => file.refusal === undefined);
    expect(file.refusal).toBeUndefined();
    await file.close();
    expect(read().log.entries).toHaveLength(2);
  });

  it('still refuses while a failing write is tried again: the entries it took count too', async () => {
    const file = new HarFile(out, undefined, () => undefined);
    await file.write();
    const back = away();
    file.append(entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES)));
    await until(() => file.refusal !== undefined);
    // A try takes the batch to write it: memory still holds it, so nothing more is let in.
    const retry = file.write();
    expect(file.refusal?.message).toBe(`cannot write ${out}: its folder does not exist`);
    let roomy = false;
    void file.room().then(() => {
      roomy = true;
    });
    await expect(retry).rejects.toThrow('its folder does not exist');
    expect(file.unwritten).toBe(1);
    expect(file.refusal).toBeDefined();
    back();
    await until(() => roomy);
    await file.close();
    expect(read().log.entries).toHaveLength(1);
  });

  it('rejects the last write, naming the file and why, when the HAR cannot be written then', async () => {
    const file = new HarFile(out, undefined, () => undefined);
    await file.write();
    const back = away();
    file.append(entry(1));
    await expect(file.close()).rejects.toThrow(`cannot write ${out}: its folder does not exist`);
    back();
  });
});

describe('a HAR written in a shared folder', () => {
  // A neighbour plants a link at the temporary file's name (`<out>.<pid>.tmp` was known ahead:
  // the pid shows in `ps`); the write must go neither through it nor rename it over the HAR.
  const planted = () => {
    const victim = join(folder, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, temporaryFileOf(out));
    return victim;
  };

  it('never writes through a link planted at the temporary name, first write or append', async () => {
    const file = new HarFile(out);
    // After the start, which removes what a killed recording of this pid left: while it runs.
    const victim = planted();
    await file.write();
    file.append(entry(1));
    await file.write();
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(out).isSymbolicLink()).toBe(false);
    expect(read().log.entries).toEqual([entry(1)]);
    // Only the HAR, the victim and the planted link: no temporary file left behind.
    expect(readdirSync(folder).sort()).toEqual(
      ['traffic.har', `traffic.har.${process.pid}.tmp`, 'victim.txt'].sort(),
    );
  });

  it("is its owner's alone (0600), also when it continues a file of another mode", async () => {
    const first = new HarFile(out);
    first.append(entry(1));
    await first.write();
    expect(statSync(out).mode & 0o777).toBe(0o600);
    chmodSync(out, 0o644);
    const next = new HarFile(out, await readPrevious(out));
    next.append(entry(2));
    await next.write();
    expect(statSync(out).mode & 0o777).toBe(0o600);
  });
});

describe('a recording being continued', () => {
  it('is counted an entry at a time and kept as it is when the recorder wrote it', async () => {
    const first = new HarFile(out);
    first.append(entry(1));
    first.append(entry(2));
    await first.write();
    const written = readFileSync(out);
    const previous = await readPrevious(out);
    expect(previous).toEqual({ count: 2, length: written.length });
    const next = new HarFile(out, previous);
    expect(next.entries).toBe(2);
    next.append(entry(3));
    await next.write();
    expect(read().log.entries).toEqual([entry(1), entry(2), entry(3)]);
    expect(readFileSync(out).subarray(0, written.length - 5)).toEqual(written.subarray(0, -5));
  });

  it('counts an empty recording as none', async () => {
    await new HarFile(out).write();
    expect(await readPrevious(out)).toEqual({ count: 0, length: readFileSync(out).length });
  });

  it('is nothing when there is no file', async () => {
    expect(await readPrevious(out)).toEqual({ entries: [] });
  });

  it("rewrites a HAR the recorder wrote, reformatted, in the recorder's form, its entries first", async () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'fake-marketing-server record', version: '1' },
        pages: [],
        entries: [entry(1), entry(2)],
      },
    };
    writeFileSync(out, JSON.stringify(har, null, 2));
    const previous = await readPrevious(out);
    expect(previous).toEqual({ entries: har.log.entries });
    const file = new HarFile(out, previous);
    expect(file.entries).toBe(2);
    file.append(entry(3));
    await file.write();
    expect(read().log.entries).toEqual([entry(1), entry(2), entry(3)]);
    expect(lines()).toHaveLength(1 + 3 + 2);
    expect(await readPrevious(out)).toEqual({ count: 3, length: readFileSync(out).length });
  });

  it.each([
    ['an entry that is no JSON', (text: string) => text.replace('{"_id":2', '{"_id":2,')],
    ['a last entry followed by a comma', (text: string) => text.replace(/\n\]\}\}\n$/, ',\n]}}\n')],
    ['no tail', (text: string) => text.replace(/\n\]\}\}\n$/, '\n]}')],
  ])('refuses a file in its form with %s, never overwriting it', async (_, spoil) => {
    const file = new HarFile(out);
    file.append(entry(1));
    file.append(entry(2));
    await file.write();
    const text = spoil(readFileSync(out, 'utf8'));
    writeFileSync(out, text);
    await expect(readPrevious(out)).rejects.toThrow(`${out} exists and is not a HAR file`);
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('reads a file in its form with an entry that is not an object whole', async () => {
    const file = new HarFile(out);
    file.append(entry(1));
    file.append(entry(2));
    await file.write();
    writeFileSync(out, readFileSync(out, 'utf8').replace(/\{"_id":2[^\n]*/, '[2]'));
    expect(await readPrevious(out)).toEqual({ entries: [entry(1), [2]] });
  });

  it("reads a head in another order than the recorder's whole", async () => {
    await recorded(1);
    const text = readFileSync(out, 'utf8')
      .replace('{"log":{"version":"1.2",', '{"log":{')
      .replace('"entries":[', '"version":"1.2","entries":[');
    writeFileSync(out, text);
    expect(await readPrevious(out)).toEqual({ entries: [entry(1)] });
  });

  it('counts a recording of one entry as its own', async () => {
    await recorded(1);
    expect(await readPrevious(out)).toEqual({ count: 1, length: readFileSync(out).length });
  });

  it.each([
    ['a number', '7', 7],
    ['null', 'null', null],
    ['a string', '"text"', 'text'],
  ])('reads a file in its form with an entry that is %s whole', async (_, line, value) => {
    await recorded(2);
    writeFileSync(out, readFileSync(out, 'utf8').replace(/\{"_id":2[^\n]*/, line));
    expect(await readPrevious(out)).toEqual({ entries: [entry(1), value] });
  });

  it.each([
    ['its first entry no JSON', 3, (text: string) => text.replace('{"_id":1', '{"_id":1,')],
    ['its only entry no JSON', 1, (text: string) => text.replace('{"_id":1', '{"_id":1,')],
    [
      'a space for a comma after an entry',
      2,
      (text: string) => text.replace(/(\{"_id":1[^\n]*),\n/, '$1 \n'),
    ],
  ])('refuses a file in its form with %s', async (_, entries, spoil) => {
    await recorded(entries);
    writeFileSync(out, spoil(readFileSync(out, 'utf8')));
    await expect(readPrevious(out)).rejects.toThrow('is not a HAR file');
  });

  it('refuses a FIFO at --out at once, never waiting for a writer', async () => {
    execFileSync('mkfifo', [out]);
    await expect(readPrevious(out)).rejects.toThrow('is not a HAR file');
  });

  it.each([
    ['words', 'my notes'],
    ['JSON without entries', '{"log":{}}'],
  ])('refuses a file that is not a HAR (%s)', async (_, text) => {
    writeFileSync(out, text);
    await expect(readPrevious(out)).rejects.toThrow('is not a HAR file');
  });

  it("refuses a HAR of the recorder's shape from another creator, leaving it as it is", async () => {
    const file = new HarFile(out);
    file.append(entry(1));
    await file.write();
    const text = readFileSync(out, 'utf8').replace('fake-marketing-server record', 'other');
    writeFileSync(out, text);
    await expect(readPrevious(out)).rejects.toThrow(
      `${out} is a HAR that fake-marketing-server record did not write (its creator is "other")`,
    );
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('refuses its own HAR once an entry with a credential in clear was put in it, in its layout or reformatted', async () => {
    const file = new HarFile(out);
    file.append(entry(1));
    await file.write();
    const clear = {
      ...entry(2),
      request: {
        method: 'GET',
        url: 'https://api.example.com/marketing/v1/lists',
        headers: [{ name: 'Authorization', value: 'Basic MTIzNDU6Y2xlYXIta2V5' }],
      },
    };
    const own = readFileSync(out, 'utf8').replace('\n]}}\n', `,\n${JSON.stringify(clear)}\n]}}\n`);
    writeFileSync(out, own);
    const refusal = `${out} holds a authorization header in clear in entry 2: the recorder writes none`;
    await expect(readPrevious(out)).rejects.toThrow(refusal);
    const reformatted = JSON.stringify(JSON.parse(own), null, 2);
    writeFileSync(out, reformatted);
    await expect(readPrevious(out)).rejects.toThrow(refusal);
    expect(readFileSync(out, 'utf8')).toBe(reformatted);
    // Redacted as the recorder writes them, the same headers are continued.
    const redacted = own.replace('Basic MTIzNDU6Y2xlYXIta2V5', 'Basic <redacted>');
    writeFileSync(out, redacted);
    await expect(readPrevious(out)).resolves.toMatchObject({ count: 2 });
  });

  it("refuses a browser's HAR, its keys and cookies in clear, rather than keep them under the recorder's name", async () => {
    const har = {
      log: {
        version: '1.2',
        creator: { name: 'WebInspector', version: '537.36' },
        entries: [
          {
            request: {
              method: 'GET',
              url: 'https://api.example.com/marketing/v1/lists?key=browser-clear-key',
              headers: [
                { name: 'Authorization', value: 'Basic MTIzNDU6YnJvd3Nlci1jbGVhci1rZXk=' },
                { name: 'Cookie', value: 'session=clear-cookie' },
              ],
            },
          },
        ],
      },
    };
    const text = JSON.stringify(har);
    writeFileSync(out, text);
    await expect(readPrevious(out)).rejects.toThrow(
      `${out} is a HAR that fake-marketing-server record did not write (its creator is "WebInspector"): its entries may hold keys, Authorization headers and cookies in clear, so it is not continued. Give another --out, or move the file away.`,
    );
    expect(readFileSync(out, 'utf8')).toBe(text);
  });

  it('refuses a folder at --out', async () => {
    mkdirSync(out);
    await expect(readPrevious(out)).rejects.toThrow('is not a HAR file');
  });
});

describe('when a HAR being recorded is written', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** A file written once, its write timed as taking `lastWriteMs`, with the timers faked after. */
  async function writtenOnce(lastWriteMs: number): Promise<HarFile> {
    let calls = 0;
    vi.spyOn(performance, 'now').mockImplementation(() =>
      calls++ === 0 ? 5000 : 5000 + lastWriteMs,
    );
    const file = new HarFile(out);
    await file.write();
    vi.restoreAllMocks();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    return file;
  }

  it.each([
    [0, 25],
    [1, 25],
    [10, 200],
    [49.5, 990],
    [100, 1000],
  ])(
    'after a write that took %d ms, waits %d ms before the next batch',
    async (lastWriteMs, delay) => {
      const file = await writtenOnce(lastWriteMs);
      file.append(entry(1));
      expect(file.unwritten).toBe(1);
      vi.advanceTimersByTime(delay - 1);
      expect(file.unwritten).toBe(1);
      // Taken by a write as soon as its time comes.
      vi.advanceTimersByTime(1);
      expect(file.unwritten).toBe(0);
      vi.useRealTimers();
      await file.close();
      expect(read().log.entries).toEqual([entry(1)]);
    },
  );

  it('writes a batch of the bound exactly at once, without waiting', async () => {
    const file = await writtenOnce(0);
    // 20 bytes of the entry's JSON and its separator besides the text.
    const exact = entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES - 20));
    expect(Buffer.byteLength(`\n${JSON.stringify(exact)}`)).toBe(MAX_UNWRITTEN_BYTES);
    file.append(exact);
    expect(file.unwritten).toBe(0);
    vi.useRealTimers();
    await file.close();
    expect(read().log.entries).toEqual([exact]);
  });

  it('writes, before it resolves, an entry added while a write was under way', async () => {
    const file = new HarFile(out);
    file.append(entry(1));
    const first = file.write();
    file.append(entry(2));
    await file.write();
    expect(read().log.entries).toEqual([entry(1), entry(2)]);
    await first;
  });

  it('leaves the file as it is when nothing new came, and leaves no file open', async () => {
    // Linux lists a process's open files; elsewhere the count is not checked.
    const openFiles = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
    const file = new HarFile(out);
    file.append(entry(1));
    await file.write();
    const before = openFiles();
    const inode = statSync(out).ino;
    await file.write();
    expect(statSync(out).ino).toBe(inode);
    file.append(entry(2));
    await file.write();
    expect(openFiles()).toBe(before);
  });

  it('says the HAR is no longer there when it was removed from its folder', async () => {
    const file = new HarFile(out);
    await file.write();
    rmSync(out);
    file.append(entry(1));
    await expect(file.write()).rejects.toMatchObject({
      name: 'HarWriteError',
      message: `cannot write ${out}: it is no longer there (moved or removed)`,
    });
    // No temporary file is left behind by the failed write.
    expect(readdirSync(folder)).toEqual([]);
  });

  it('has room at once while a full batch is being written, and refuses once one of the bound exactly failed', async () => {
    const file = new HarFile(out);
    await file.write();
    const exact = entry(1, 'x'.repeat(MAX_UNWRITTEN_BYTES - 21));
    expect(Buffer.byteLength(`,\n${JSON.stringify(exact)}`)).toBe(MAX_UNWRITTEN_BYTES);
    file.append(entry(0));
    await file.write();
    file.append(exact);
    let roomy = false;
    void file.room().then(() => {
      roomy = true;
    });
    // Only promise callbacks have run: the write under way is not done, yet there is room.
    for (let turn = 0; turn < 3; turn++) await Promise.resolve();
    expect(roomy).toBe(true);
    await file.write();
    rmSync(out);
    file.append(exact);
    await expect(file.write()).rejects.toThrow();
    expect(file.refusal?.message).toBe(
      `cannot write ${out}: it is no longer there (moved or removed)`,
    );
    await expect(file.close()).rejects.toThrow();
  });
});
