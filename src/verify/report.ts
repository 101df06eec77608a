import { escapeXml } from '../http/xml.js';
import { printable } from '../printable.js';
import type { CheckResult, VerifyReport } from './verify.js';

const MARK = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP', error: 'ERROR' } as const;

function detail(result: CheckResult): string[] {
  const lines = [`      requires: ${result.requirement}`, `      section:  ${result.section}`];
  for (const request of result.requests) lines.push(`      sent:     ${request}`);
  if (result.status === 'fail') {
    lines.push(`      wanted:   ${result.wanted ?? ''}`, `      got:      ${result.got}`);
    if (result.answer) {
      lines.push(
        `      answer:   ${result.answer.status}, Content-Type ${result.answer.contentType}`,
        `      body:     ${result.answer.body || '(empty)'}`,
      );
    }
  } else {
    lines.push(`      ${result.status === 'skipped' ? 'why:' : 'got:'}      ${result.got}`);
  }
  for (const note of result.notes) lines.push(`      note:     ${note}`);
  return lines;
}

/** The report as text for a terminal. */
export function reportText(report: VerifyReport): string {
  return printable(textOf(report));
}

function textOf(report: VerifyReport): string {
  const lines = [`Conformance of ${report.baseUrl} (server ${report.serverId}):`, ''];
  if (report.couldNotRun) {
    lines.push(
      'COULD NOT RUN: no check was made.',
      `  problem: ${report.couldNotRun.problem}`,
      `  fix:     ${report.couldNotRun.fix}`,
    );
    return lines.join('\n');
  }
  for (const result of report.results) {
    lines.push(`${MARK[result.status].padEnd(5)} ${result.id}`, ...detail(result));
  }
  lines.push(
    '',
    `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped${report.errors ? `, ${report.errors} could not run` : ''}`,
  );
  if (report.skipped > 0) lines.push(`Skipped checks prove nothing: see "why" above.`);
  lines.push(
    '',
    report.leftBehind.length > 0 ? 'Left on the account:' : 'Left on the account: nothing.',
    ...report.leftBehind.map((what) => `  - ${what}`),
  );
  return lines.join('\n');
}

const attribute = (text: string) => escapeXml(text).replace(/"/g, '&quot;');

/** The report as JUnit XML: drift is a `<failure>`, "could not run" an `<error>`. */
export function reportJunit(report: VerifyReport): string {
  const cases = report.results.map((result) => {
    const name = escapeXml(result.id);
    const time = (result.durationMs / 1000).toFixed(3);
    const text = escapeXml(
      detail(result)
        .map((line) => line.trim())
        .join('\n'),
    );
    // A failure without a wanted (an answer too large) is said by its got alone.
    const message = attribute(
      result.wanted === undefined ? result.got : `${result.got} (wanted ${result.wanted})`,
    );
    const body = {
      pass: '',
      skipped: `<skipped message="${message}"/>`,
      fail: `<failure message="${message}">${text}</failure>`,
      error: `<error message="${message}">${text}</error>`,
    }[result.status];
    return `    <testcase classname="fake-marketing-server.verify" name="${name}" time="${time}">${body}</testcase>`;
  });
  if (report.couldNotRun) {
    const { problem, fix } = report.couldNotRun;
    cases.push(
      `    <testcase classname="fake-marketing-server.verify" name="could-not-run" time="0.000"><error message="${attribute(problem)}">${escapeXml(`${problem}\nfix: ${fix}`)}</error></testcase>`,
    );
  }
  const errors = report.errors + (report.couldNotRun ? 1 : 0);
  const counts = `tests="${cases.length}" failures="${report.failed}" errors="${errors}" skipped="${report.skipped}"`;
  // XML 1.0 holds no control character but line breaks and tabs: a service's are shown escaped.
  return printable(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites ${counts}>`,
      `  <testsuite name="marketing-api conformance" ${counts}>`,
      ...cases,
      '  </testsuite>',
      '</testsuites>',
      '',
    ].join('\n'),
  );
}
