import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { SeedError } from './domain/errors.js';
import type { Seed } from './domain/seed-types.js';
import { JsonFileError, readJsonObjectFile } from './json-file.js';

/**
 * A file's text. Only a regular file is read: a device (`/dev/zero`), a FIFO or a socket given by
 * mistake may never end, and reading one would take all memory instead of an answer.
 */
export function readTextFile(file: string, maxBytes = Number.POSITIVE_INFINITY): string {
  const stats = statSync(file);
  if (!stats.isFile()) {
    throw new Error('it is not a regular file (a device, a FIFO, a socket or a folder)');
  }
  if (stats.size > maxBytes) {
    throw new Error(`it is ${stats.size} bytes, more than the ${maxBytes} it may be`);
  }
  return readFileSync(file, 'utf8');
}

/**
 * Reads a seed given as a file path (a seed, a state file); objects pass through. A file that does
 * not begin with `{` is refused from its first bytes; a long one is parsed as it is read, never
 * held whole (a state past 512 MiB, which no string holds, loads too): json-file.ts.
 */
export function loadSeed(seed: Seed | string): unknown {
  if (typeof seed !== 'string') return seed;
  try {
    return readJsonObjectFile(seed);
  } catch (error) {
    if (!(error instanceof JsonFileError)) throw error;
    throw new SeedError(
      '',
      error.kind === 'unreadable'
        ? `cannot read seed file ${seed}: ${error.message}`
        : error.kind === 'not-object'
          ? `seed file ${seed} is not a seed, which is a JSON object: ${error.message}`
          : error.kind === 'too-deep'
            ? `seed file ${seed} is not a seed, which nests 6 levels: ${error.message}`
            : `seed file ${seed} is not valid JSON: ${error.message}`,
    );
  }
}

/**
 * A temporary file older than this is stale even if a process with its pid is alive: that pid
 * was reused (a restarted container is pid 1 again). No save takes anywhere near this long.
 */
const STALE_AFTER_MS = 10 * 60 * 1000;

/**
 * The temporary file's name that saves of earlier versions used, known ahead (the pid shows in
 * `ps`): no save writes it now; a start removes one a killed save of this pid left.
 */
export function temporaryFileOf(file: string, pid = process.pid): string {
  return `${file}.${pid}.tmp`;
}

/**
 * A temporary file's name next to `file` that no one can guess ahead, `<file>.<pid>.<random>.tmp`:
 * in a shared folder, a neighbour could plant a link at a name known in advance (the pid shows
 * in `ps`) and have the file written through it. It is created exclusively all the same.
 */
export function unguessableTemporaryOf(file: string): string {
  return `${file}.${process.pid}.${randomBytes(8).toString('hex')}.tmp`;
}

/** The mode of a file that holds keys (a state file, an imported seed): its owner's alone. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Writes a temporary file next to `file`, under a name no one can guess
 * ({@link unguessableTemporaryOf}), with `mode` (default 0644; a file holding keys takes
 * {@link PRIVATE_FILE_MODE}), and renames it over `file`: a crash never leaves half a file, and
 * the file has its mode from its first byte. A neighbour in a shared folder can neither plant a
 * link nor a folder at the name to write through or to stop every save. A process killed mid-write
 * (kill -9) leaves its temporary file, which the next save, or the next start with this state
 * file, removes ({@link removeStaleTemporaries}).
 */
export function writeFileAtomically(
  file: string,
  text: string | Iterable<string>,
  mode = 0o644,
): void {
  removeStaleTemporaries(file);
  const temporary = unguessableTemporaryOf(file);
  try {
    // `wx`: should a file or a link be at the name all the same, it is refused, never written through.
    if (typeof text === 'string') {
      writeFileSync(temporary, text, { mode, flag: 'wx' });
    } else {
      // In pieces: a text past the longest string V8 holds (a very large state) is never one.
      const descriptor = openSync(temporary, 'wx', mode);
      try {
        for (const piece of text) writeSync(descriptor, piece);
      } finally {
        closeSync(descriptor);
      }
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes a report (`verify --out`, `replay --out`). A path that is a terminal or a pipe, or a
 * link under /dev or /proc to one (`/dev/stdout`, the `/dev/fd/63` of a shell's `>(...)`), is
 * written as it is; any other path as {@link writeFileAtomically} writes, so that a link or a file
 * a neighbour planted at the name in a shared folder is replaced, never written through.
 */
export function writeReportFile(file: string, text: string): void {
  if (isStream(file)) {
    writeFileSync(file, text);
    return;
  }
  writeFileAtomically(file, text);
}

function isStream(file: string): boolean {
  try {
    const own = lstatSync(file);
    if (own.isSymbolicLink() && !/^\/(dev|proc)\//.test(file)) return false;
    const target = own.isSymbolicLink() ? statSync(file) : own;
    if (target.isCharacterDevice()) return true;
    // A pipe or socket a neighbour made is theirs to read: only the user's own is written to.
    return (target.isFIFO() || target.isSocket()) && !ownedByAnother(target);
  } catch {
    return false;
  }
}

/**
 * Whether a file belongs to another user than the one this process runs as: in a shared folder,
 * a neighbour's (never so where there are no user ids, on Windows).
 */
export function ownedByAnother(stats: { readonly uid: number }): boolean {
  const uid = process.getuid?.();
  return uid !== undefined && stats.uid !== uid;
}

/** What a failed write's error code means for the person who chose the path. */
const WRITE_FAILURES: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'no permission to write in its folder',
  EPERM: 'no permission to write in its folder',
  EROFS: 'its file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/**
 * Why a write failed, in words ("the disk is full"); Node's own message for other errors. With
 * the `file` written, ENOENT in a folder that exists says that no file can be made there (a
 * file system such as /proc answers ENOENT too), not that the folder is missing.
 */
export function writeFailure(error: unknown, file?: string): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === 'ENOENT' && file !== undefined && isFolder(dirname(file))) {
    return 'no file can be created in its folder';
  }
  // In a sticky folder (/tmp) only its owner may replace a file or link: the folder is writable,
  // and the refusal is the neighbour's entry at the name.
  if ((code === 'EPERM' || code === 'EACCES') && file !== undefined) {
    const owner = otherOwnerOf(file);
    if (owner !== undefined) return `it belongs to another user (uid ${owner})`;
  }
  return (code === undefined ? undefined : WRITE_FAILURES[code]) ?? message;
}

/** The uid of the file or link at `path` when it is another user's, else undefined. */
function otherOwnerOf(path: string): number | undefined {
  try {
    const entry = lstatSync(path);
    return ownedByAnother(entry) ? entry.uid : undefined;
  } catch {
    return undefined;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why {@link writeFileAtomically} could never write `file`, or undefined when it can: the file
 * is a folder or another user's, or its temporary file cannot be made next to it (no folder, no permission, a
 * read-only or full disk). Checked by writing that temporary file and removing it, which is what a
 * save does first, so that a state file is refused at start rather than at the first save.
 */
export function unwritableFileProblem(file: string): string | undefined {
  const taken = takenNameProblem(file);
  if (taken !== undefined) return taken;
  // Made exclusively under a name no one planted a link at: the check never writes through one.
  const temporary = unguessableTemporaryOf(file);
  try {
    writeFileSync(temporary, '', { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (error) {
    return writeFailure(error, temporary);
  }
  rmSync(temporary, { force: true });
  return undefined;
}

/**
 * Why the name `file` is not this user's to write: a folder, another user's file, or another
 * user's link there. Writes nothing: a save checks it again before each write, since a
 * neighbour can put a file at the name after the start.
 */
export function takenNameProblem(file: string): string | undefined {
  try {
    // A link a neighbour put at the name would have the state read from a file of their choosing.
    const link = lstatSync(file);
    if (link.isSymbolicLink() && ownedByAnother(link)) {
      return `it is a link that belongs to another user (uid ${link.uid}), which is not followed; use a file of your own`;
    }
  } catch {
    // Not there yet: nothing of anyone's is at the name.
  }
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) return WRITE_FAILURES.EISDIR;
    // In a shared folder a neighbour can put a state of theirs at the name: it would be loaded,
    // keys and all, and no save could replace it (sticky folders keep a file its owner's).
    if (ownedByAnother(stats)) {
      return `it belongs to another user (uid ${stats.uid}), whose state is not loaded; use a file of your own`;
    }
  } catch {
    // Not there yet (the first save makes it), or not reachable: a write says which.
  }
  return undefined;
}

/**
 * Removes the temporary files that killed saves of `file` left: `<file>.<pid>.tmp`,
 * `<file>.<pid>.<random>.tmp` ({@link unguessableTemporaryOf}; the `<file>.<pid>.<time>.tmp` of
 * earlier versions too) whose process is gone, is this one (saves are
 * synchronous, so none of ours is being written), or that are older than any save takes. A save
 * in progress in another live process is left alone. Returns the names removed.
 */
export function removeStaleTemporaries(file: string): string[] {
  const directory = dirname(file);
  const prefix = `${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = /^(\d+)(?:\.[0-9a-f]+)?$/.exec(name.slice(prefix.length, -'.tmp'.length))?.[1];
    if (pid === undefined) continue;
    const path = join(directory, name);
    if (Number(pid) !== process.pid && isAlive(Number(pid)) && !isOld(path)) continue;
    try {
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Not ours to remove (permissions): the next save tries again.
    }
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isOld(path: string): boolean {
  try {
    return Date.now() - statSync(path).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false;
  }
}
