import { join } from 'node:path';

/**
 * State files that could never be saved, each made from a fresh folder holding a file
 * `file.txt`, with the reason the refusal gives: shared by the library's and the CLI's tests.
 */
export const UNWRITABLE_STATE_FILES: [string, (folder: string) => string, string][] = [
  [
    'in a folder that does not exist',
    (folder) => join(folder, 'nope', 'state.json'),
    'its folder does not exist',
  ],
  ['that is a folder', (folder) => folder, 'it is a folder'],
  [
    'under a file',
    (folder) => join(folder, 'file.txt', 'state.json'),
    'a part of its path is not a folder',
  ],
];
