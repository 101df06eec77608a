import { describe, expect, it } from 'vitest';
import { reportJunit, reportText } from '../../../src/verify/report.js';
import type { CheckResult, VerifyReport } from '../../../src/verify/verify.js';

const BASE = 'https://api.example.com/marketing/v1';

const passed: CheckResult = {
  id: 'lists.json',
  section: '2 List',
  requirement: 'GET /lists answers the lists',
  requests: ['GET /lists (Accept: application/json)'],
  status: 'pass',
  got: 'status 200, 2 lists',
  notes: ['an extra field "x"'],
  durationMs: 12,
};

const failedWithAnswer: CheckResult = {
  id: 'lists.xml',
  section: '2 List',
  requirement: 'GET /lists answers XML',
  requests: ['GET /lists (Accept: text/xml)', 'GET /lists/1 (Accept: text/xml)'],
  status: 'fail',
  got: 'a body "<x>"',
  wanted: 'status 200',
  answer: { status: 500, contentType: 'text/plain', body: 'oops & more' },
  notes: [],
  durationMs: 1234,
};

const failedEmptyBody: CheckResult = {
  id: 'content.json',
  section: '5 Content',
  requirement: 'GET /content answers JSON',
  requests: [],
  status: 'fail',
  got: 'status 204',
  wanted: 'status 200',
  answer: { status: 204, contentType: '(none)', body: '' },
  notes: [],
  durationMs: 0,
};

/** A failure with no wanted: an answer too large. */
const failedBare: CheckResult = {
  id: 'fields.json',
  section: '4 Fields',
  requirement: 'GET /customfields answers JSON',
  requests: [],
  status: 'fail',
  got: 'the answer is too large',
  notes: [],
  durationMs: 0,
};

const skipped: CheckResult = {
  id: 'content.xml',
  section: '5 Content',
  requirement: 'GET /content answers XML',
  requests: ['GET /content (Accept: application/json)'],
  status: 'skipped',
  got: 'the account has nothing to check',
  notes: [],
  durationMs: 5,
};

const errored: CheckResult = {
  id: 'format.accept',
  section: '1 Format',
  requirement: 'JSON or XML by Accept',
  requests: [],
  status: 'error',
  got: 'no answer: ECONNRESET',
  notes: [],
  durationMs: 7,
};

const everyKind: VerifyReport = {
  baseUrl: BASE,
  serverId: 1234,
  results: [passed, failedWithAnswer, failedEmptyBody, failedBare, skipped, errored],
  passed: 1,
  failed: 3,
  skipped: 1,
  errors: 1,
  leftBehind: ['the contact a@example.com', 'the custom field F'],
  exitCode: 1,
};

const allPassed: VerifyReport = {
  baseUrl: BASE,
  serverId: 7,
  results: [passed],
  passed: 1,
  failed: 0,
  skipped: 0,
  errors: 0,
  leftBehind: [],
  exitCode: 0,
};

const couldNotRun: VerifyReport = {
  baseUrl: BASE,
  serverId: 7,
  results: [],
  passed: 0,
  failed: 0,
  skipped: 0,
  errors: 0,
  leftBehind: [],
  couldNotRun: { problem: 'cannot reach "api": ECONNREFUSED', fix: 'check --base-url & port' },
  exitCode: 3,
};

describe('reportText', () => {
  it('shows each check with its requirement, requests, outcome, answer and notes, then the counts and what was left', () => {
    expect(reportText(everyKind).split('\n')).toEqual([
      `Conformance of ${BASE} (server 1234):`,
      '',
      'PASS  lists.json',
      '      requires: GET /lists answers the lists',
      '      section:  2 List',
      '      sent:     GET /lists (Accept: application/json)',
      '      got:      status 200, 2 lists',
      '      note:     an extra field "x"',
      'FAIL  lists.xml',
      '      requires: GET /lists answers XML',
      '      section:  2 List',
      '      sent:     GET /lists (Accept: text/xml)',
      '      sent:     GET /lists/1 (Accept: text/xml)',
      '      wanted:   status 200',
      '      got:      a body "<x>"',
      '      answer:   500, Content-Type text/plain',
      '      body:     oops & more',
      'FAIL  content.json',
      '      requires: GET /content answers JSON',
      '      section:  5 Content',
      '      wanted:   status 200',
      '      got:      status 204',
      '      answer:   204, Content-Type (none)',
      '      body:     (empty)',
      'FAIL  fields.json',
      '      requires: GET /customfields answers JSON',
      '      section:  4 Fields',
      '      wanted:   ',
      '      got:      the answer is too large',
      'SKIP  content.xml',
      '      requires: GET /content answers XML',
      '      section:  5 Content',
      '      sent:     GET /content (Accept: application/json)',
      '      why:      the account has nothing to check',
      'ERROR format.accept',
      '      requires: JSON or XML by Accept',
      '      section:  1 Format',
      '      got:      no answer: ECONNRESET',
      '',
      '1 passed, 3 failed, 1 skipped, 1 could not run',
      'Skipped checks prove nothing: see "why" above.',
      '',
      'Left on the account:',
      '  - the contact a@example.com',
      '  - the custom field F',
    ]);
  });

  it('says nothing about skips or errors when there were none, and that nothing was left', () => {
    expect(reportText(allPassed).split('\n').slice(-4)).toEqual([
      '',
      '1 passed, 0 failed, 0 skipped',
      '',
      'Left on the account: nothing.',
    ]);
  });

  it('says once that no check was made, with the problem and the fix', () => {
    expect(reportText(couldNotRun)).toBe(
      [
        `Conformance of ${BASE} (server 7):`,
        '',
        'COULD NOT RUN: no check was made.',
        '  problem: cannot reach "api": ECONNREFUSED',
        '  fix:     check --base-url & port',
      ].join('\n'),
    );
  });

  it('shows a control character of the service escaped, never raw', () => {
    const report = { ...allPassed, results: [{ ...passed, got: 'bell\u0007' }] };
    expect(reportText(report)).toContain('      got:      bell\\u0007\n');
  });
});

describe('reportJunit', () => {
  const CASE = '    <testcase classname="fake-marketing-server.verify"';

  it('writes a failure with the detail (a failure with no wanted by its got alone), a skip with its reason, an error, in seconds, and the counts', () => {
    expect(reportJunit(everyKind)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites tests="6" failures="3" errors="1" skipped="1">',
        '  <testsuite name="marketing-api conformance" tests="6" failures="3" errors="1" skipped="1">',
        `${CASE} name="lists.json" time="0.012"></testcase>`,
        `${CASE} name="lists.xml" time="1.234"><failure message="a body &quot;&lt;x&gt;&quot; (wanted status 200)">requires: GET /lists answers XML`,
        'section:  2 List',
        'sent:     GET /lists (Accept: text/xml)',
        'sent:     GET /lists/1 (Accept: text/xml)',
        'wanted:   status 200',
        'got:      a body "&lt;x&gt;"',
        'answer:   500, Content-Type text/plain',
        'body:     oops &amp; more</failure></testcase>',
        `${CASE} name="content.json" time="0.000"><failure message="status 204 (wanted status 200)">requires: GET /content answers JSON`,
        'section:  5 Content',
        'wanted:   status 200',
        'got:      status 204',
        'answer:   204, Content-Type (none)',
        'body:     (empty)</failure></testcase>',
        `${CASE} name="fields.json" time="0.000"><failure message="the answer is too large">requires: GET /customfields answers JSON`,
        'section:  4 Fields',
        'wanted:',
        'got:      the answer is too large</failure></testcase>',
        `${CASE} name="content.xml" time="0.005"><skipped message="the account has nothing to check"/></testcase>`,
        `${CASE} name="format.accept" time="0.007"><error message="no answer: ECONNRESET">requires: JSON or XML by Accept`,
        'section:  1 Format',
        'got:      no answer: ECONNRESET</error></testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('writes a run that could not be made as one error case, with the problem and the fix', () => {
    expect(reportJunit(couldNotRun)).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites tests="1" failures="0" errors="1" skipped="0">',
        '  <testsuite name="marketing-api conformance" tests="1" failures="0" errors="1" skipped="0">',
        `${CASE} name="could-not-run" time="0.000"><error message="cannot reach &quot;api&quot;: ECONNREFUSED">cannot reach "api": ECONNREFUSED`,
        'fix: check --base-url &amp; port</error></testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });
});
