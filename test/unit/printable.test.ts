import { describe, expect, it } from 'vitest';
import { printable } from '../../src/printable.js';
import { reportJunit, reportText } from '../../src/verify/report.js';
import type { VerifyReport } from '../../src/verify/verify.js';

// What a service answers reaches a terminal through verify's and import's output: its control
// characters (ESC starts the sequences that move the cursor or hide what follows) never raw.

describe('printable', () => {
  it('shows control characters as escapes and keeps line breaks, tabs and the rest', () => {
    expect(printable('a\u001b[2Jb\u0007c\u009bd\u007fe')).toBe(
      'a\\u001b[2Jb\\u0007c\\u009bd\\u007fe',
    );
    expect(printable('line\nnext\ttab é ✓')).toBe('line\nnext\ttab é ✓');
  });

  // A bidi override makes a terminal show the text after it in another order ("gpj.exe" read as
  // "exe.jpg"), and invisible characters hide in names: each is shown as its escape.
  it('shows bidi controls and other format characters as escapes', () => {
    expect(printable('a\u202egpj.exe\u202cb')).toBe('a\\u202egpj.exe\\u202cb');
    for (const code of [0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x202a, 0x202b]) {
      expect(printable(`x${String.fromCharCode(code)}y`)).toBe(
        `x\\u${code.toString(16).padStart(4, '0')}y`,
      );
    }
    expect(printable('na\u200bme\ufeff\u2028\u00ad')).toBe('na\\u200bme\\ufeff\\u2028\\u00ad');
    expect(printable('tag\u{e0001}')).toBe('tag\\u{e0001}');
    expect(printable('Ünïcödé 日本 ✓ 👍')).toBe('Ünïcödé 日本 ✓ 👍');
  });

  it("keeps a service's escapes out of verify's text and JUnit reports", () => {
    const report = {
      baseUrl: 'https://api.example.com/marketing/v1',
      serverId: 12345,
      couldNotRun: undefined,
      results: [
        {
          id: 'lists.get',
          section: '3.1',
          status: 'fail',
          requirement: 'GET /lists answers 200',
          requests: ['GET /lists'],
          wanted: '200',
          got: 'status 500: \u001b]0;pwned\u0007\u001b[2J',
          notes: ['a note \u001b[31mred', 'a field \u202etxt.exe'],
          durationMs: 1,
        },
      ],
      passed: 0,
      failed: 1,
      skipped: 0,
      errors: 0,
      leftBehind: [],
    } as unknown as VerifyReport;
    for (const text of [reportText(report), reportJunit(report)]) {
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}]/u);
    }
    expect(reportText(report)).toContain('\\u001b]0;pwned\\u0007');
    expect(reportText(report)).toContain('a field \\u202etxt.exe');
  });
});
