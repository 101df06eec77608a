import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactForms } from '../../src/redaction/secret-encodings.js';
import type { Compiled } from '../../src/redaction/secret-forms.js';
import { compileSecrets, SecretSet } from '../../src/redaction/secret-set.js';

// The redactor's secrets are kept up to date by what changed: a key that comes adds its forms, a
// key that goes takes them out. The set must then find exactly what a set compiled from scratch
// finds, and an update must cost in the keys that changed, not in all of them.

const redactBoth = (compiled: Compiled | undefined, value: string) =>
  compiled === undefined
    ? [value, value]
    : [redactForms(value, compiled.text, false), redactForms(value, compiled.wire, true)];

const key = fc.string({
  unit: fc.constantFrom('a', 'b', 'K', '1', '+', '/', '-', '_', '&', "'", ' '),
  minLength: 4,
  maxLength: 12,
});

describe('a SecretSet updated step by step', () => {
  it('redacts exactly as a set compiled from scratch from the same secrets', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uniqueArray(key, { maxLength: 60 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }),
        (steps, noise) => {
          const set = new SecretSet();
          for (const secrets of steps) {
            const incremental = set.update(secrets);
            const fresh = compileSecrets(secrets);
            expect(incremental === undefined).toBe(fresh === undefined);
            const value = [
              ...secrets.slice(0, 3),
              ...secrets.slice(0, 2).map((one) => Buffer.from(`1234:${one}`).toString('base64')),
              ...noise,
            ].join('|');
            expect(redactBoth(incremental, value)).toEqual(redactBoth(fresh, value));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('computes the forms of the keys that came only, whatever the number it holds', () => {
    const keys = Array.from(
      { length: 2000 },
      (_, index) => `tenant-key-${String(index).padStart(6, '0')}`,
    );
    const set = new SecretSet();
    set.update(keys);
    expect(set.computed).toBe(2000);
    const more = [...keys, 'tenant-key-new-one'];
    const compiled = set.update(more)!;
    expect(set.computed).toBe(2001);
    expect(redactForms('x tenant-key-new-one y', compiled.text, false)).toBe('x <redacted> y');
    // A key that goes computes nothing, and is no longer looked for.
    const after = set.update(keys.slice(1))!;
    expect(set.computed).toBe(2001);
    expect(redactForms('tenant-key-000000', after.text, false)).toBe('tenant-key-000000');
    expect(redactForms('tenant-key-000001', after.text, false)).toBe('<redacted>');
  });

  it('leaves secrets shorter than its minimum alone, and compiles nothing for none', () => {
    expect(new SecretSet().update(['short'])).toBeUndefined();
    expect(new SecretSet(1).update(['k'])).toBeDefined();
    const set = new SecretSet();
    set.update(['long-enough-key']);
    expect(set.update([])).toBeUndefined();
  });
});
