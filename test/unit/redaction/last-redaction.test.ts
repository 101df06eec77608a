import { describe, expect, it } from 'vitest';
import { LastRedaction } from '../../../src/redaction/last-redaction.js';

describe('LastRedaction', () => {
  const same = (one: string, other: string) => one === other;

  it('answers nothing before it is given an answer', () => {
    expect(new LastRedaction<string, string>(same).get('', Number.NaN)).toBeUndefined();
    expect(new LastRedaction<string, string>(same).get('', 0)).toBeUndefined();
  });

  it('answers an equal input under the same revision only', () => {
    const last = new LastRedaction<string, string>(same);
    expect(last.set('/lists?k=key', 3, '/lists?k=<redacted>')).toBe('/lists?k=<redacted>');
    expect(last.get(['/lists', 'k=key'].join('?'), 3)).toBe('/lists?k=<redacted>');
    expect(last.get('/lists?k=other', 3)).toBeUndefined();
    expect(last.get('/lists?k=key', 4)).toBeUndefined();
    last.set('/other', 4, '/other');
    expect(last.get('/lists?k=key', 3)).toBeUndefined();
    expect(last.get('/other', 4)).toBe('/other');
  });
});
