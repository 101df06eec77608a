import { describe, expect, it } from 'vitest';
import { writeFailure } from '../../src/files.js';

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
