import { describe, expect, it } from 'vitest';
import { AUTH_CHECKS, ERROR_CHECKS } from '../../../../src/verify/checks/errors.js';
import { CHECKS } from '../../../../src/verify/checks/index.js';

describe('the conformance suite', () => {
  it('starts with authentication and ends with the contact maximum', () => {
    expect(CHECKS[0]?.id).toBe(AUTH_CHECKS[0]?.id);
    expect(CHECKS.at(-1)?.id).toBe('writes.contact-cap');
  });

  it('holds every check once, ids unique', () => {
    const ids = CHECKS.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of ERROR_CHECKS) expect(ids).toContain(check.id);
  });
});
