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
          notes: ['a note \u001b[31mred'],
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
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    expect(reportText(report)).toContain('\\u001b]0;pwned\\u0007');
  });
});
