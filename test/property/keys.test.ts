import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../src/index.js';
import { basic, call, useFake } from '../helpers/fake.js';

/**
 * The promise behind the key rule: a key the fake accepts is a key a client can use. Every key
 * addServer() (and so POST /__admin/servers and a seed, which share the check) accepts must open
 * the emulated API through Basic auth sent as UTF-8; every key it refuses changes nothing.
 */
const fake = useFake({ perFile: true });

/** Any UTF-16 code unit, lone surrogates included: what a JSON body or a JS string can hold. */
const CODE_UNIT = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Characters near the edges of the rule: controls, separators, surrogates, non-ASCII letters. */
const EDGE = fc.constantFrom(
  '\u0000',
  '\u001f',
  ' ',
  ':',
  '~',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\u00a0',
  '\u00e9',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
  '\ud83d\ude00',
  '\ufeff',
  '\ufffd',
  '\uffff',
  'ключ',
);
const KEY_TEXT = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  fc.string({ unit: CODE_UNIT, minLength: 1, maxLength: 40 }),
  fc.string({ unit: fc.oneof(EDGE, fc.constantFrom('a', 'Z', '9')), minLength: 1, maxLength: 12 }),
);

describe('server keys', () => {
  it('every accepted key authenticates through Basic auth; a refused one changes nothing', async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(KEY_TEXT, async (key) => {
        const before = fake.exportState();
        let serverId: number;
        try {
          ({ serverId } = fake.addServer({ key }));
        } catch (error) {
          expect(error).toBeInstanceOf(InvalidOptionError);
          expect(fake.exportState()).toEqual(before);
          refused += 1;
          return;
        }
        accepted += 1;
        try {
          const response = await call(fake, 'GET', 'lists', { auth: basic(serverId, key) });
          expect(response.status).toBe(200);
        } finally {
          fake.resetServer(serverId);
        }
      }),
      { numRuns: 300 },
    );
    // Both sides of the rule were exercised, or the property said nothing.
    expect(accepted).toBeGreaterThan(20);
    expect(refused).toBeGreaterThan(20);
  });
});
