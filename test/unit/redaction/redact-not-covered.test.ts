import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../src/redaction/redact.js';

// docs/security.md lists what redaction does not cover. Each listed form is kept as it came, so
// that the list says what is true: a test that fails here means the docs must change too.

const KEY = 'Secr3t-Key_0042';
const redactor = new Redactor({ revision: () => 0, secrets: () => [KEY] }, 1024);

describe('what redaction does not cover, as the docs list it', () => {
  it.each([
    ['the hex of its bytes', Buffer.from(KEY).toString('hex')],
    ['the hex of its bytes, upper case', Buffer.from(KEY).toString('hex').toUpperCase()],
    ['UTF-16 bytes as base64', Buffer.from(KEY, 'utf16le').toString('base64')],
  ])('%s is kept as it came', (_what, form) => {
    expect(redactor.body(`{"k":"${form}"}`)).toBe(`{"k":"${form}"}`);
  });

  it('while the key itself is redacted', () => {
    expect(redactor.body(`{"k":"${KEY}"}`)).toBe('{"k":"<redacted>"}');
  });
});
