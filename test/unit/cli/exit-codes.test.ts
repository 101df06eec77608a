import { describe, expect, it } from 'vitest';
import {
  EXIT_COULD_NOT_RUN,
  EXIT_DRIFT,
  EXIT_PASS,
  EXIT_USAGE,
} from '../../../src/cli/exit-codes.js';

describe('exit codes of verify and replay (a contract: CI reads them)', () => {
  it('0 pass, 1 drift, 2 usage, 3 could not run', () => {
    expect([EXIT_PASS, EXIT_DRIFT, EXIT_USAGE, EXIT_COULD_NOT_RUN]).toEqual([0, 1, 2, 3]);
  });
});
