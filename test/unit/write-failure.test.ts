import { execFileSync } from 'node:child_process';
import {
  chownSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  temporaryFileOf,
  unwritableFileProblem,
  writeFailure,
  writeFileAtomically,
  writeReportFile,
} from '../../src/files.js';
import { createFakeMarketingServer } from '../../src/index.js';
import { smallSeed } from '../helpers/fake.js';

const failure = (code: string | undefined, message = `${code}: raw`) =>
  Object.assign(new Error(message), code === undefined ? {} : { code });

describe('writeFailure: why a state file could not be written, in words', () => {
  it.each([
    ['ENOENT', 'its folder does not exist'],
    ['ENOTDIR', 'a part of its path is not a folder'],
    ['EISDIR', 'it is a folder'],
    ['EACCES', 'no permission to write in its folder'],
    ['EPERM', 'no permission to write in its folder'],
    ['EROFS', 'its file system is read-only'],
    ['ENOSPC', 'the disk is full'],
    ['EDQUOT', 'the disk quota is used up'],
  ])('%s: %s', (code, words) => {
    expect(writeFailure(failure(code))).toBe(words);
  });

  it("any other error: Node's own message", () => {
    expect(writeFailure(failure('EIO', 'EIO: i/o error, write'))).toBe('EIO: i/o error, write');
    expect(writeFailure(failure(undefined, 'plain'))).toBe('plain');
  });
});

describe("writeFailure: a permission refused at another user's file", () => {
  it('names the owner instead of the folder, and only for permission errors', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-neighbour-'));
    try {
      // Root can give a file away; anyone else finds root's files on the machine.
      let theirs = '/etc/hostname';
      let uid = 0;
      if (process.getuid?.() === 0) {
        theirs = join(folder, 'report.txt');
        writeFileSync(theirs, "a neighbour's");
        uid = 12_345;
        chownSync(theirs, uid, uid);
      }
      for (const code of ['EPERM', 'EACCES'])
        expect(writeFailure(failure(code), theirs)).toBe(`it belongs to another user (uid ${uid})`);
      expect(writeFailure(failure('ENOSPC'), theirs)).toBe('the disk is full');
      const mine = join(folder, 'mine.txt');
      writeFileSync(mine, 'mine');
      expect(writeFailure(failure('EPERM'), mine)).toBe('no permission to write in its folder');
      expect(writeFailure(failure('EPERM'), join(folder, 'absent.txt'))).toBe(
        'no permission to write in its folder',
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('unwritableFileProblem: ENOENT names the folder only when it is missing', () => {
  it('a missing folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-write-'));
    try {
      expect(unwritableFileProblem(join(folder, 'nope', 'state.json'))).toBe(
        'its folder does not exist',
      );
      expect(unwritableFileProblem(join(folder, 'state.json'))).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform === 'linux')(
    'a folder that exists but takes no new file (/proc): says so',
    () => {
      expect(unwritableFileProblem('/proc/version')).toBe('no file can be created in its folder');
    },
  );
});

describe('writeFileAtomically in a shared folder', () => {
  it('saves past a folder or a link a neighbour planted at the name a save could be guessed to use', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-write-'));
    try {
      const state = join(folder, 'state.json');
      const victim = join(folder, 'victim.txt');
      writeFileSync(victim, 'precious');
      // A folder cannot be removed as a file: a save that wrote `<file>.<pid>.tmp` failed on each try.
      mkdirSync(temporaryFileOf(state));
      writeFileAtomically(state, '{"a":1}\n', 0o600);
      expect(readFileSync(state, 'utf8')).toBe('{"a":1}\n');
      rmSync(temporaryFileOf(state), { recursive: true });
      symlinkSync(victim, temporaryFileOf(state));
      writeFileAtomically(state, ['{"a":', '2}\n'], 0o600);
      expect(readFileSync(state, 'utf8')).toBe('{"a":2}\n');
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(lstatSync(state).isSymbolicLink()).toBe(false);
      expect(statSync(state).mode & 0o777).toBe(0o600);
      // Nothing of the saves is left beside the file.
      expect(readdirSync(folder).sort()).toEqual(['state.json', 'victim.txt']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('a report written with --out (writeReportFile)', () => {
  it('replaces a link a neighbour planted at the name, never writing through it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-write-'));
    try {
      const report = join(folder, 'report.xml');
      const victim = join(folder, 'victim.txt');
      writeFileSync(victim, 'precious');
      symlinkSync(victim, report);
      writeReportFile(report, '<testsuites/>\n');
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(lstatSync(report).isSymbolicLink()).toBe(false);
      expect(readFileSync(report, 'utf8')).toBe('<testsuites/>\n');
      writeReportFile(report, 'again\n');
      expect(readFileSync(report, 'utf8')).toBe('again\n');
      expect(readdirSync(folder).sort()).toEqual(['report.xml', 'victim.txt']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('writes a device as it is, never a file beside it', () => {
    writeReportFile('/dev/null', 'nothing\n');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter((name) => name.startsWith('null.'))).toEqual([]);
  });
});

describe('unwritableFileProblem in a shared folder', () => {
  // Giving a file to another user takes root, as CI runs; elsewhere this test says so and skips.
  const root = process.getuid?.() === 0;
  if (!root) console.warn('write-failure.test.ts: a file of another user needs root: skipped');
  it.skipIf(!root)(
    'refuses a state file another user put at the name, naming the owner',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'fms-write-'));
      try {
        const state = join(folder, 'state.json');
        writeFileSync(state, JSON.stringify(smallSeed()));
        chownSync(state, 2002, 2002);
        expect(unwritableFileProblem(state)).toBe(
          'it belongs to another user (uid 2002), whose state is not loaded; use a file of your own',
        );
        await expect(createFakeMarketingServer({ stateFile: state })).rejects.toThrow(
          `stateFile ${state} cannot be written: it belongs to another user (uid 2002)`,
        );
        chownSync(state, 0, 0);
        expect(unwritableFileProblem(state)).toBeUndefined();
        // A link of theirs to a file of the user's own: the state would be read from their choice.
        const link = join(folder, 'linked.json');
        symlinkSync(state, link);
        lchownSync(link, 2002, 2002);
        expect(unwritableFileProblem(link)).toBe(
          'it is a link that belongs to another user (uid 2002), which is not followed; use a file of your own',
        );
        // A pipe of theirs at a report's name is replaced, never written to (nor waited on).
        const report = join(folder, 'report.txt');
        execFileSync('mkfifo', [report]);
        chownSync(report, 2002, 2002);
        writeReportFile(report, 'the report\n');
        expect(lstatSync(report).isFIFO()).toBe(false);
        expect(readFileSync(report, 'utf8')).toBe('the report\n');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!root)(
    'refuses to save over a state file another user put at the name after the start, naming the owner',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'fms-write-'));
      const state = join(folder, 'state.json');
      const fake = await createFakeMarketingServer({ stateFile: state });
      try {
        writeFileSync(state, 'theirs');
        chownSync(state, 2002, 2002);
        expect(() => fake.saveState()).toThrow(
          `Could not write the state file ${state}: it belongs to another user (uid 2002)`,
        );
        expect(readFileSync(state, 'utf8')).toBe('theirs');
      } finally {
        await fake.close();
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  it('never writes through a link a neighbour planted at the temporary name, nor removes it', () => {
    const folder = mkdtempSync(join(tmpdir(), 'fms-write-'));
    try {
      const state = join(folder, 'state.json');
      const victim = join(folder, 'victim.txt');
      writeFileSync(victim, 'precious');
      symlinkSync(victim, temporaryFileOf(state));
      expect(unwritableFileProblem(state)).toBeUndefined();
      expect(readFileSync(victim, 'utf8')).toBe('precious');
      expect(readdirSync(folder).sort()).toEqual(
        [`state.json.${process.pid}.tmp`, 'victim.txt'].sort(),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
