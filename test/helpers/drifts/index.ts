import type { Drift } from '../drift-proxy.js';
import { ERROR_FORMAT_DRIFTS } from './error-formats.js';
import { ERROR_DRIFTS } from './errors.js';
import { LIMIT_DRIFTS } from './limits.js';
import { READ_DRIFTS } from './reads.js';
import { STABILITY_DRIFTS } from './stability.js';
import { WRITE_DRIFTS } from './writes.js';

export { HARMLESS } from './harmless.js';

/** Every drift the description defines, one requirement or more each, in JSON and XML. */
export const DRIFTS: readonly Drift[] = [
  ...READ_DRIFTS,
  ...ERROR_DRIFTS,
  ...WRITE_DRIFTS,
  ...ERROR_FORMAT_DRIFTS,
  ...LIMIT_DRIFTS,
  ...STABILITY_DRIFTS,
];
