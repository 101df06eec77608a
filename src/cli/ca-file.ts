import { lstatSync, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { writeFailure, writeFileAtomically } from '../files.js';

/** A CA file that could not be written where it was to go: the message says why and what to do. */
export class CaFileError extends Error {
  override name = 'CaFileError';
}

/**
 * Writes the certificate the sandbox (or the recorder) made, for clients to trust, and returns
 * its path: `--ca-out`'s, or `ca.pem` in a folder of the temp folder that is this user's alone,
 * `fake-marketing-server-<uid>`: made 0700 when missing, and refused when it is a symbolic link,
 * another user's, or open to others (another user of the machine could plant a link there, to have
 * the sandbox overwrite a file of theirs choosing, or their certificate trusted). The file is
 * written to a temporary name and renamed over `ca.pem`, so a link planted at that name is
 * replaced, never followed.
 */
export function writeCaFile(pem: string, caOut: string | undefined): string {
  const file = caOut === undefined ? join(privateFolder(), 'ca.pem') : resolve(caOut);
  try {
    if (caOut !== undefined) mkdirSync(dirname(file), { recursive: true });
    writeFileAtomically(file, pem);
  } catch (error) {
    throw new CaFileError(
      `the CA file ${file} cannot be written: ${writeFailure(error, file)}; ${caFileFix(error, file)}`,
    );
  }
  return file;
}

/**
 * What to do about a CA file that cannot be written. Refused permission names the folder and this
 * process's user: in a container that is uid 1000, and the folder is usually a mount of the host's
 * that uid cannot write.
 */
function caFileFix(error: unknown, file: string): string {
  const { code } = error as NodeJS.ErrnoException;
  const uid = currentUid();
  if ((code === 'EACCES' || code === 'EPERM') && uid !== undefined) {
    return `make ${dirname(file)} writable by uid ${uid}, the user this runs as (for a mounted folder: \`chown ${uid}\` it on the host, or run the container with --user), or give --ca-out (FMS_CA_OUT) a path it can write.`;
  }
  return 'give --ca-out (FMS_CA_OUT) a path you can write.';
}

/** This user's folder in the temp folder, checked to be theirs alone. */
export function privateFolder(base = tmpdir()): string {
  const uid = currentUid();
  const folder = join(base, `fake-marketing-server-${uid ?? userInfo().username}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new CaFileError(
        `${folder}, the private folder of the CA file, cannot be made: ${writeFailure(error)}; give --ca-out a path you can write.`,
      );
    }
  }
  const stats = lstatSync(folder);
  const fix = `remove it, or give --ca-out a path of your own.`;
  if (stats.isSymbolicLink())
    throw new CaFileError(
      `${folder} is a symbolic link, not the private folder of the CA file: ${fix}`,
    );
  if (!stats.isDirectory())
    throw new CaFileError(`${folder} is not a folder, where the CA file goes: ${fix}`);
  if (uid !== undefined && stats.uid !== uid)
    throw new CaFileError(
      `${folder} belongs to another user (uid ${stats.uid}), not you (uid ${uid}): ${fix}`,
    );
  if (uid !== undefined && (stats.mode & 0o077) !== 0)
    throw new CaFileError(
      `${folder} is open to other users (mode ${(stats.mode & 0o777).toString(8)}), where the CA file goes: ${fix}`,
    );
  return folder;
}

/** The user's id, where the system has one (not on Windows). */
function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}
