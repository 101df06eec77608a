import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { SeedError } from './domain/errors.js';
import type { Seed } from './domain/seed-types.js';

/** Reads a seed given as a file path; objects pass through. */
export function loadSeed(seed: Seed | string): unknown {
  if (typeof seed !== 'string') return seed;
  let text: string;
  try {
    text = readFileSync(seed, 'utf8');
  } catch (error) {
    throw new SeedError('', `cannot read seed file ${seed}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeedError('', `seed file ${seed} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Writes a temporary file and renames it over `file`: a crash never leaves half a file. */
export function writeFileAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
