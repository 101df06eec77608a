import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaFileError, privateFolder, writeCaFile } from '../../../src/cli/ca-file.js';

// The CA file's default home is a folder of the temp folder that is this user's alone: another
// user of the machine must not be able to plant a link there (to have the sandbox overwrite a
// file of their choosing, or have clients trust their certificate).

let base: string;
const uid = process.getuid!();
const own = () => join(base, `fake-marketing-server-${uid}`);

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'ca-file-'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('the private folder of the CA file', () => {
  it('is made for this user alone (0700), and used again', () => {
    expect(privateFolder(base)).toBe(own());
    expect(statSync(own()).mode & 0o777).toBe(0o700);
    expect(privateFolder(base)).toBe(own());
  });

  it('is refused when it is a symbolic link, saying what to do', () => {
    const elsewhere = join(base, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, own());
    expect(() => privateFolder(base)).toThrow(CaFileError);
    expect(() => privateFolder(base)).toThrow(
      /is a symbolic link.*give --ca-out a path of your own/,
    );
  });

  it('is refused when others may write in it, or it is not a folder', () => {
    mkdirSync(own(), { mode: 0o700 });
    chmodSync(own(), 0o777);
    expect(() => privateFolder(base)).toThrow(/open to other users \(mode 777\)/);
    rmSync(own(), { recursive: true });
    writeFileSync(own(), '');
    expect(() => privateFolder(base)).toThrow(/is not a folder/);
  });

  it.skipIf(uid !== 0)('is refused when another user owns it (checked as root)', () => {
    mkdirSync(own(), { mode: 0o700 });
    // chown needs root: CI and these machines run as root.
    chownSync(own(), 4242, 4242);
    expect(() => privateFolder(base)).toThrow(/belongs to another user \(uid 4242\)/);
  });
});

describe('writeCaFile', () => {
  it('replaces a link planted at the file name instead of writing through it', () => {
    const target = join(base, 'victim.txt');
    writeFileSync(target, 'precious');
    const file = join(base, 'out', 'ca.pem');
    mkdirSync(join(base, 'out'));
    symlinkSync(target, file);
    expect(writeCaFile('PEM', file)).toBe(file);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(readFileSync(file, 'utf8')).toBe('PEM');
  });

  it('is a CaFileError, named so in a stack trace', () => {
    expect(String(new CaFileError('x'))).toBe('CaFileError: x');
  });

  it('names the file and the fix when it cannot be written', () => {
    const file = join(base, 'not-a-folder', 'ca.pem');
    writeFileSync(join(base, 'not-a-folder'), '');
    expect(() => writeCaFile('PEM', file)).toThrow(CaFileError);
    expect(() => writeCaFile('PEM', file)).toThrow(
      new RegExp(
        `^the CA file ${file} cannot be written: .*; give --ca-out \\(FMS_CA_OUT\\) a path you can write\\.$`,
      ),
    );
  });

  it('refused permission: names the folder and the user to make it writable by', () => {
    // As root, /sys still refuses a new file (EACCES).
    const file = '/sys/fake-marketing-server-ca.pem';
    let message = '';
    try {
      writeCaFile('PEM', file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(
      /^the CA file \/sys\/fake-marketing-server-ca\.pem cannot be written: /,
    );
    expect(message).toContain(
      `; make /sys writable by uid ${uid}, the user this runs as (for a mounted folder: \`chown ${uid}\` it on the host, or run the container with --user), or give --ca-out (FMS_CA_OUT) a path it can write.`,
    );
  });
});

describe('the CA file where it goes', () => {
  it('by default: ca.pem in the private folder of the temp folder', () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = base;
    try {
      expect(writeCaFile('PEM', undefined)).toBe(join(own(), 'ca.pem'));
      expect(readFileSync(join(own(), 'ca.pem'), 'utf8')).toBe('PEM');
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it('--ca-out: that path, made absolute, its folders made', () => {
    const file = join(base, 'a', 'b', 'ca.pem');
    expect(writeCaFile('PEM', file)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('PEM');
  });

  it('says why the private folder cannot be made', () => {
    const notAFolder = join(base, 'file');
    writeFileSync(notAFolder, '');
    expect(() => privateFolder(notAFolder)).toThrow(CaFileError);
    expect(() => privateFolder(notAFolder)).toThrow(
      new RegExp(
        `^${join(notAFolder, `fake-marketing-server-${uid}`)}, the private folder of the CA file, cannot be made: .*; give --ca-out a path you can write\\.$`,
      ),
    );
  });

  it('every refusal says what to do', () => {
    mkdirSync(own(), { mode: 0o700 });
    chmodSync(own(), 0o707);
    expect(() => privateFolder(base)).toThrow(
      `${own()} is open to other users (mode 707), where the CA file goes: remove it, or give --ca-out a path of your own.`,
    );
    chmodSync(own(), 0o720);
    expect(() => privateFolder(base)).toThrow('(mode 720)');
    chmodSync(own(), 0o701);
    expect(() => privateFolder(base)).toThrow('(mode 701)');
    chmodSync(own(), 0o750);
    expect(() => privateFolder(base)).toThrow('(mode 750)');
    rmSync(own(), { recursive: true });
    writeFileSync(own(), '');
    expect(() => privateFolder(base)).toThrow(
      `${own()} is not a folder, where the CA file goes: remove it, or give --ca-out a path of your own.`,
    );
  });
});

describe('on a system without user ids (Windows)', () => {
  const getuid = process.getuid;
  afterEach(() => {
    process.getuid = getuid;
    vi.restoreAllMocks();
  });

  it('the folder is named for the user, and neither its owner nor its mode is checked', () => {
    (process as { getuid?: unknown }).getuid = undefined;
    const folder = join(base, `fake-marketing-server-${userInfo().username}`);
    mkdirSync(folder, { mode: 0o700 });
    chmodSync(folder, 0o777);
    expect(privateFolder(base)).toBe(folder);
  });

  it('refused permission: the fix names no user', () => {
    (process as { getuid?: unknown }).getuid = undefined;
    expect(() => writeCaFile('PEM', '/sys/fake-marketing-server-ca.pem')).toThrow(
      /; give --ca-out \(FMS_CA_OUT\) a path you can write\.$/,
    );
  });

  it('with user ids, the folder is named for the id, not the user name', () => {
    vi.spyOn(process, 'getuid').mockReturnValue(4242);
    expect(() => privateFolder(base)).toThrow(
      `${join(base, 'fake-marketing-server-4242')} belongs to another user (uid ${uid}), not you (uid 4242)`,
    );
  });
});
