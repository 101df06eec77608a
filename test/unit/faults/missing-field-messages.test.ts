import { describe, expect, it } from 'vitest';
import { parseFaultRule } from '../../../src/faults/fault-rule.js';
import { seedErrorOf, server } from '../../helpers/seed.js';

// A field left out is named as missing ("got nothing"), never as "got undefined undefined".

describe('a missing field', () => {
  it('in a fault rule: the refusal says nothing was given', () => {
    expect(() => parseFaultRule({})).toThrow(
      'kind must be one of unavailable, no-response, reset, delay, status, malformed; got nothing.',
    );
  });

  it('in a seed: the refusal says nothing was given', () => {
    const error = seedErrorOf({ servers: [{ key: 'k' }] });
    expect(error.message).toContain('got nothing');
    expect(error.message).not.toContain('undefined');
  });

  it('a value that is there is still described by its type', () => {
    expect(() => parseFaultRule({ kind: 7 })).toThrow('got number 7.');
    expect(seedErrorOf(server({ lists: 'x' })).message).toContain('got the string "x"');
  });
});
