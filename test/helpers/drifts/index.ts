import type { Drift } from '../drift-proxy.js';
import { ERROR_DRIFTS } from './errors.js';
import { READ_DRIFTS } from './reads.js';
import { WRITE_DRIFTS } from './writes.js';

export { HARMLESS } from './harmless.js';

/** Every drift the description defines, one requirement or more each, in JSON and XML. */
export const DRIFTS: readonly Drift[] = [...READ_DRIFTS, ...ERROR_DRIFTS, ...WRITE_DRIFTS];
