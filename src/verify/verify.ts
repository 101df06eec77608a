import { InvalidOptionError } from '../domain/errors.js';
import { escapeXml } from '../http/xml.js';
import { CHECKS, type CheckContext, throwawayNames } from './checks.js';
import { type Answer, type Call, describeCall, send, type Target } from './http-client.js';

/** Options of {@link verifyService}. */
export interface VerifyOptions extends Target {
  /** Also run the checks that write (throwaway contact and field); default false. */
  allowWrites?: boolean;
}

/** One check's result: the requests, what the description requires, what came back. */
export interface CheckResult {
  id: string;
  requirement: string;
  requests: string[];
  status: 'pass' | 'fail' | 'skipped' | 'error';
  got: string;
  durationMs: number;
}

export interface VerifyReport {
  baseUrl: string;
  serverId: number;
  results: CheckResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** What the run left on the account (contacts cannot be deleted through the API). */
  leftBehind: string[];
}

function checkTarget(options: VerifyOptions): void {
  let url: URL | undefined;
  try {
    url = new URL(options.baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw new InvalidOptionError(
      `baseUrl must be an http(s) URL such as https://host/marketing/v1, got ${JSON.stringify(options.baseUrl)}`,
    );
  }
  if (!Number.isInteger(options.serverId) || options.serverId < 1) {
    throw new InvalidOptionError('serverId must be the server id (the Basic username)');
  }
  if (typeof options.key !== 'string' || options.key === '') {
    throw new InvalidOptionError('key must be the server key (or FMS_VERIFY_KEY for the CLI)');
  }
}

/** The checks a run would make, with their requests, and nothing sent: `--dry-run`. */
export function verifyPlan(allowWrites = false) {
  return CHECKS.filter((check) => allowWrites || !check.writes).map(
    ({ id, requirement, writes, plan }) => ({
      id,
      requirement,
      writes,
      requests: plan,
    }),
  );
}

/**
 * Runs the conformance suite, written from the service description, against any implementation:
 * the real service, this fake, or another. Without `allowWrites` it sends only requests the
 * description says change nothing. The key is never part of the report.
 */
export async function verifyService(options: VerifyOptions): Promise<VerifyReport> {
  checkTarget(options);
  const leftBehind: string[] = [];
  const found: CheckContext['found'] = {};
  const run = throwawayNames();
  const results: CheckResult[] = [];
  for (const check of CHECKS) {
    if (check.writes && !options.allowWrites) continue;
    const requests: string[] = [];
    const call = (request: Call): Promise<Answer> => {
      requests.push(describeCall(request).replace(options.key, '<key>'));
      return send(options, request);
    };
    const started = performance.now();
    let status: CheckResult['status'];
    let got: string;
    try {
      const outcome = await check.check({
        call,
        serverId: options.serverId,
        key: options.key,
        found,
        run,
        leaveBehind: (what) => leftBehind.push(what),
      });
      status = outcome.pass === 'skipped' ? 'skipped' : outcome.pass ? 'pass' : 'fail';
      got = outcome.got;
    } catch (error) {
      status = 'error';
      got = (error as Error).message;
    }
    results.push({
      id: check.id,
      requirement: check.requirement,
      requests,
      status,
      got: got.split(options.key).join('<key>'),
      durationMs: Math.round(performance.now() - started),
    });
  }
  const count = (status: CheckResult['status']) =>
    results.filter((result) => result.status === status).length;
  return {
    baseUrl: options.baseUrl,
    serverId: options.serverId,
    results,
    passed: count('pass'),
    failed: count('fail') + count('error'),
    skipped: count('skipped'),
    leftBehind,
  };
}

/** The report as text for a terminal. */
export function reportText(report: VerifyReport): string {
  const lines = [`Conformance of ${report.baseUrl} (server ${report.serverId}):`, ''];
  for (const result of report.results) {
    const mark = { pass: 'PASS', fail: 'FAIL', skipped: 'SKIP', error: 'ERROR' }[result.status];
    lines.push(`${mark.padEnd(5)} ${result.id}`);
    lines.push(`      requires: ${result.requirement}`);
    for (const request of result.requests) lines.push(`      sent:     ${request}`);
    lines.push(`      got:      ${result.got}`);
  }
  lines.push('', `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`);
  if (report.leftBehind.length > 0) {
    lines.push('', 'Left on the account:', ...report.leftBehind.map((what) => `  - ${what}`));
  }
  return lines.join('\n');
}

/** The report as JUnit XML, for CI. */
export function reportJunit(report: VerifyReport): string {
  const cases = report.results.map((result) => {
    const name = escapeXml(result.id);
    const time = (result.durationMs / 1000).toFixed(3);
    const detail = escapeXml(
      `requires: ${result.requirement}\nsent: ${result.requests.join('\n')}\ngot: ${result.got}`,
    );
    const body =
      result.status === 'pass'
        ? ''
        : result.status === 'skipped'
          ? `<skipped message="${escapeXml(result.got).replace(/"/g, '&quot;')}"/>`
          : `<failure message="${escapeXml(result.got).replace(/"/g, '&quot;')}">${detail}</failure>`;
    return `    <testcase classname="fake-marketing-server.verify" name="${name}" time="${time}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}">`,
    `  <testsuite name="marketing-api conformance" tests="${report.results.length}" failures="${report.failed}" skipped="${report.skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
