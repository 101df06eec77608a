import { escapeXml } from '../http/xml.js';
import { printable } from '../printable.js';
import type { ExchangeResult, ReplayReport } from './replay.js';

const MARK: Record<ExchangeResult['outcome'], string> = {
  match: 'ok   ',
  drift: 'DRIFT',
  'not comparable': 'n/c  ',
};

/**
 * The report a person reads: every drift with its differences, every exchange that could not be
 * compared with the reason, and the totals; matches are counted, listed only with `all`. Paths,
 * bodies, header values and messages come from a HAR someone else may have written: their control
 * and format characters are shown as escapes, never sent to the terminal.
 */
export function replayReportText(
  report: ReplayReport,
  source = 'the recording',
  all = false,
): string {
  const lines = [
    `replay of ${source}: ${report.results.length} API exchanges replayed against a fresh fake` +
      ` (starting state ${report.startingState === 'seed' ? 'from --seed' : 'inferred from the recording'})`,
  ];
  if (report.ignored > 0)
    lines.push(
      `${report.ignored} of ${report.entries} entries are outside the API and were ignored.`,
    );
  lines.push('');
  for (const result of report.results) {
    if (result.outcome === 'match' && !all) continue;
    lines.push(`${MARK[result.outcome]} #${result.index} ${result.method} ${result.path}`);
    for (const difference of result.differences) lines.push(`        ${difference}`);
    if (result.reason) lines.push(`        not comparable: ${result.reason}`);
    for (const note of result.notes ?? []) lines.push(`        note: ${note}`);
  }
  lines.push(
    `${report.matched} match, ${report.drifted} drift, ${report.notComparable} not comparable.` +
      (report.drifted > 0
        ? ' The fake differs from the recording where marked DRIFT (#n: the HAR entry index).'
        : ''),
  );
  return printable(lines.join('\n'));
}

/** JUnit XML: one test case per exchange; a drift is a `<failure>`, "not comparable" `<skipped>`. */
export function replayReportJunit(report: ReplayReport, source = 'replay'): string {
  const cases = report.results.map((result) => {
    const name = escapeAttribute(`#${result.index} ${result.method} ${result.path}`);
    const open = `  <testcase classname="replay" name="${name}">`;
    if (result.outcome === 'drift') {
      const first = escapeAttribute(result.differences[0] ?? 'differs');
      return `${open}\n    <failure message="${first}">${escapeAttribute(result.differences.join('\n'))}</failure>\n  </testcase>`;
    }
    if (result.outcome === 'not comparable')
      return `${open}\n    <skipped message="${escapeAttribute(result.reason ?? '')}"/>\n  </testcase>`;
    return `${open}</testcase>`;
  });
  // XML 1.0 holds no control character but line breaks and tabs, and a bidi control in a test's
  // name would reorder what CI shows: the HAR's are shown escaped.
  return printable(
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuite name="${escapeAttribute(`replay ${source}`)}" tests="${report.results.length}" failures="${report.drifted}" errors="0" skipped="${report.notComparable}">`,
      ...cases,
      '</testsuite>',
      '',
    ].join('\n'),
  );
}

/** Element text or an attribute value: the fake's own XML escaping, and quotes. */
function escapeAttribute(text: string): string {
  return escapeXml(text).replace(/"/g, '&quot;');
}
