import { describe, expect, it, vi } from 'vitest';
import { LearnedSecrets, MAX_LEARNED_SECRETS } from '../../../src/record/learned-secrets.js';
import { Redactor } from '../../../src/redaction/redact.js';

// The keys a recorder learns from the traffic. A recording of many distinct keys (10,000 Bearer
// keys) took four times as long as one of one key, and each 2,000 requests longer than the last:
// every key was kept, and every new one made the redactor read them all again.

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const keyOf = (n: number) => `learned-key-${String(n).padStart(6, '0')}`;

describe('the secrets a recorder learns', () => {
  it('keeps the most recently seen ones up to its bound, and those given at the start always', () => {
    // The bound docs/fidelity.md states.
    expect(MAX_LEARNED_SECRETS).toBe(1000);
    const secrets = new LearnedSecrets(['verify-key-123'], 1000);
    for (let n = 0; n < 1500; n++) {
      secrets.learn(bearer(keyOf(n)));
      // The first key keeps being sent: it is never the least recently seen.
      secrets.learn(bearer(keyOf(0)));
    }
    const kept = new Set(secrets.secrets());
    expect(kept.size).toBe(1001);
    expect(kept.has('verify-key-123')).toBe(true);
    expect(kept.has(keyOf(0))).toBe(true);
    expect(kept.has(keyOf(1))).toBe(false);
    expect(kept.has(keyOf(1499))).toBe(true);
  });

  it('is read by the redactor a change at a time, never whole again, so each exchange costs the same', () => {
    const secrets = new LearnedSecrets([], 1000);
    const redactor = new Redactor(secrets, Number.MAX_SAFE_INTEGER);
    const wholeReads = vi.spyOn(secrets, 'secrets');
    for (let n = 0; n < 3000; n++) {
      secrets.learn(bearer(keyOf(n)));
      expect(redactor.body(`{"echo":"${keyOf(n)}"}`)).toBe('{"echo":"<redacted>"}');
    }
    expect(wholeReads.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('still redacts a forgotten key in the header that carries it, and learns it again there', () => {
    const secrets = new LearnedSecrets([], 2);
    const redactor = new Redactor(secrets, Number.MAX_SAFE_INTEGER);
    for (const n of [1, 2, 3]) secrets.learn(bearer(keyOf(n)));
    expect([...secrets.secrets()]).toEqual([keyOf(2), keyOf(3)]);
    // Authorization keeps its scheme alone, whatever the recorder knows.
    expect(redactor.requestHeaders(bearer(keyOf(1)))).toEqual({
      authorization: 'Bearer <redacted>',
    });
    secrets.learn(bearer(keyOf(1)));
    expect(redactor.body(`echo ${keyOf(1)}`)).toBe('echo <redacted>');
  });
});
