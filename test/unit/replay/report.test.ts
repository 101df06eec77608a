import { describe, expect, it } from 'vitest';
import type { ExchangeResult, ReplayReport } from '../../../src/replay/replay.js';
import { replayReportJunit, replayReportText } from '../../../src/replay/report.js';

// The report of a replay, as a person reads it (text) and as CI reads it (JUnit).

const results: ExchangeResult[] = [
  { index: 0, method: 'GET', path: '/marketing/v1/lists', outcome: 'match', differences: [] },
  {
    index: 2,
    method: 'PUT',
    path: '/marketing/v1/lists/1/contacts?a="b"&c',
    outcome: 'drift',
    differences: ['status: recorded 200, fake 400', 'body <a>: "x" & <y>'],
    notes: ['sent contact id 1900000000 for the recorded 7'],
  },
  {
    index: 3,
    method: 'GET',
    path: '/marketing/v1/content',
    outcome: 'not comparable',
    differences: [],
    reason: 'the recorded answer body is cut off',
  },
];
const report = (over: Partial<ReplayReport> = {}): ReplayReport => ({
  entries: 5,
  ignored: 2,
  startingState: 'inferred',
  results,
  matched: 1,
  drifted: 1,
  notComparable: 1,
  ...over,
});

describe('replayReportText', () => {
  it('drifts with their differences and notes, what could not be compared and why, the totals', () => {
    expect(replayReportText(report(), 'session.har')).toBe(
      [
        'replay of session.har: 3 API exchanges replayed against a fresh fake (starting state inferred from the recording)',
        '2 of 5 entries are outside the API and were ignored.',
        '',
        'DRIFT #2 PUT /marketing/v1/lists/1/contacts?a="b"&c',
        '        status: recorded 200, fake 400',
        '        body <a>: "x" & <y>',
        '        note: sent contact id 1900000000 for the recorded 7',
        'n/c   #3 GET /marketing/v1/content',
        '        not comparable: the recorded answer body is cut off',
        '1 match, 1 drift, 1 not comparable. The fake differs from the recording where marked DRIFT (#n: the HAR entry index).',
      ].join('\n'),
    );
  });

  it('with all, the matches too; a seed, no ignored entries, no drift', () => {
    const text = replayReportText(
      report({ startingState: 'seed', ignored: 0, drifted: 0, results: results.slice(0, 1) }),
      undefined,
      true,
    );
    expect(text).toBe(
      [
        'replay of the recording: 1 API exchanges replayed against a fresh fake (starting state from --seed)',
        '',
        'ok    #0 GET /marketing/v1/lists',
        '1 match, 0 drift, 1 not comparable.',
      ].join('\n'),
    );
  });
});

describe('replayReportJunit', () => {
  it('a test case per exchange: a drift fails, not comparable is skipped, escaped', () => {
    expect(replayReportJunit(report(), 'a&b.har')).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuite name="replay a&amp;b.har" tests="3" failures="1" errors="0" skipped="1">',
        '  <testcase classname="replay" name="#0 GET /marketing/v1/lists"></testcase>',
        '  <testcase classname="replay" name="#2 PUT /marketing/v1/lists/1/contacts?a=&quot;b&quot;&amp;c">',
        '    <failure message="status: recorded 200, fake 400">status: recorded 200, fake 400\nbody &lt;a&gt;: &quot;x&quot; &amp; &lt;y&gt;</failure>',
        '  </testcase>',
        '  <testcase classname="replay" name="#3 GET /marketing/v1/content">',
        '    <skipped message="the recorded answer body is cut off"/>',
        '  </testcase>',
        '</testsuite>',
        '',
      ].join('\n'),
    );
  });

  it('a drift without differences, not comparable without a reason, the default source', () => {
    const bare: ExchangeResult[] = [
      { index: 0, method: 'GET', path: '/p', outcome: 'drift', differences: [] },
      { index: 1, method: 'GET', path: '/p', outcome: 'not comparable', differences: [] },
    ];
    const junit = replayReportJunit(report({ results: bare }));
    expect(junit).toContain('<testsuite name="replay replay" tests="2"');
    expect(junit).toContain('<failure message="differs"></failure>');
    expect(junit).toContain('<skipped message=""/>');
  });
});

describe('what a HAR sends to the terminal or to CI', () => {
  // ESC starts screen-clearing and title-setting sequences, BEL ends one; U+202E reorders what
  // follows and U+200B hides inside a name: none may reach the reader raw.
  const hostile = 'evil\u001b[2J\u001b]0;pwned\u0007\u202etxt\u200b';
  const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u202e]/u;
  const evil: ExchangeResult[] = [
    {
      index: 0,
      method: `GET${hostile}`,
      path: `/marketing/v1/lists/${hostile}`,
      outcome: 'drift',
      differences: [`body[0].${hostile}: recorded 1, missing from the fake`],
      notes: [`note ${hostile}`],
    },
    {
      index: 1,
      method: 'GET',
      path: '/p',
      outcome: 'not comparable',
      differences: [],
      reason: `Content-Type: recorded application/json${hostile}`,
    },
  ];

  it('the text report shows control and format characters as escapes, never raw', () => {
    const text = replayReportText(report({ results: evil }), `s${hostile}.har`, true);
    expect(text).not.toMatch(unsafe);
    expect(text).toContain('evil\\u001b[2J\\u001b]0;pwned\\u0007\\u202etxt\\u200b');
    expect(text).toContain('not comparable: Content-Type: recorded application/jsonevil\\u001b');
  });

  it('the JUnit report holds no control or bidi character raw, in names, messages or text', () => {
    const junit = replayReportJunit(report({ results: evil }), `s${hostile}.har`);
    expect(junit).not.toMatch(unsafe);
    expect(junit).toContain('\\u202etxt\\u200b');
  });
});
