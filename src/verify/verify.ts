import { randomBytes } from 'node:crypto';
import { AnswerTooLargeError } from '../answer-limit.js';
import { EXIT_COULD_NOT_RUN, EXIT_DRIFT, EXIT_PASS } from '../cli/exit-codes.js';
import { InvalidOptionError } from '../domain/errors.js';
import { shownText } from '../record/forward.js';
import { secretHider } from '../redaction/hide-secrets.js';
import { MIN_SECRET_LENGTH } from '../redaction/secret-forms.js';
import {
  type AnswerShown,
  type Check,
  type CheckTools,
  Mismatch,
  Skip,
  showAnswer,
} from './check-kit.js';
import { CHECKS } from './checks/index.js';
import {
  type Answer,
  type Call,
  describeCall,
  send,
  type Target,
  UnusableAnswerError,
} from './http-client.js';
import { listedFields } from './needs.js';
import { type CouldNotRun, preflight, transportProblem } from './preflight.js';

export type { CouldNotRun } from './preflight.js';

/** Options of {@link verifyService}. */
export interface VerifyOptions extends Target {
  /** Also run the checks that write (throwaway contact and fields); default false. */
  allowWrites?: boolean;
  /** Run only these check ids (see {@link verifyPlan}); default every check. */
  only?: readonly string[];
  /**
   * How many throwaway contacts `writes.contact-cap` may create looking for the account's contact
   * maximum (the API cannot delete them); default 0: that check is skipped, saying why.
   */
  maxNewContacts?: number;
}

/** One check's result: the requests, what the description requires, what came back. */
export interface CheckResult {
  id: string;
  /** The section of the service description. */
  section: string;
  requirement: string;
  requests: string[];
  /** `error`: no answer at all (the connection failed mid-run): could not run, not drift. */
  status: 'pass' | 'fail' | 'skipped' | 'error';
  /** What came back in a line, or why the check was skipped. */
  got: string;
  /** On a failure: what the description wants. */
  wanted?: string;
  /** On a failure: the answer that differs (status, Content-Type, the body cut short). */
  answer?: AnswerShown;
  /** Remarks that are not failures, e.g. fields the description does not list. */
  notes: string[];
  durationMs: number;
}

export interface VerifyReport {
  baseUrl: string;
  serverId: number;
  results: CheckResult[];
  passed: number;
  /** Checks whose answer differs from the description (drift). */
  failed: number;
  skipped: number;
  /** Checks that got no answer at all. */
  errors: number;
  /** What the run left on the account, exactly (contacts cannot be deleted through the API). */
  leftBehind: string[];
  /** Set when nothing could be judged (then `results` is empty). */
  couldNotRun?: CouldNotRun;
  /** 0 every check passed or skipped, 1 drift, 3 could not run (see src/cli/exit-codes.ts). */
  exitCode: number;
}

/**
 * Refuses a target verify and import cannot use: a base URL that is no http(s) URL or that holds
 * credentials (`user:key@`, also mis-typed `http:/user:key@`: URL parsers read it the same), a
 * missing server id or key. Messages name the option as `name` (the CLI's `--base-url`) and never
 * repeat a key: the text is shown as its origin only, with the key taken out.
 */
export function checkTarget(options: Target, name = 'baseUrl'): void {
  const hide = keyHider(typeof options.key === 'string' ? options.key : '');
  const url = URL.canParse(options.baseUrl) ? new URL(options.baseUrl) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol)) {
    throw new InvalidOptionError(
      `${name} must be an http(s) URL such as https://host/marketing/v1, got '${hide(shownText(String(options.baseUrl)))}'`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidOptionError(
      `${name} must not hold credentials (user:key@): the key goes in --key or FMS_VERIFY_KEY (key from TypeScript), and is sent as Basic authentication. Give the address alone, e.g. '${url.origin}${hide(url.pathname)}'.`,
    );
  }
  // The API's paths are added after the base: one holding a query or fragment would put them in it.
  if (/[?#]/.test(options.baseUrl)) {
    throw new InvalidOptionError(
      `${name} must be the API's base alone, without a query or fragment (the API's paths are added after it): give '${url.origin}${hide(url.pathname)}'.`,
    );
  }
  if (!Number.isInteger(options.serverId) || options.serverId < 1) {
    throw new InvalidOptionError('serverId must be the server id (the Basic username)');
  }
  if (typeof options.key !== 'string' || options.key === '') {
    throw new InvalidOptionError('key must be the server key (or FMS_VERIFY_KEY for the CLI)');
  }
}

/** The checks a run makes, in order; refuses unknown ids and writing ids without allowWrites. */
function selected(allowWrites: boolean, only: readonly string[] | undefined): readonly Check[] {
  if (!only) return CHECKS.filter((check) => allowWrites || !check.writes);
  const unknown = only.filter((id) => !CHECKS.some((check) => check.id === id));
  if (unknown.length > 0) {
    throw new InvalidOptionError(
      `unknown check id(s): ${unknown.join(', ')} (verify --list shows them)`,
    );
  }
  const writing = CHECKS.filter((check) => only.includes(check.id) && check.writes);
  if (writing.length > 0 && !allowWrites) {
    throw new InvalidOptionError(
      `${writing.map((check) => check.id).join(', ')} write(s) to the account: add --allow-writes`,
    );
  }
  return CHECKS.filter((check) => only.includes(check.id));
}

/** The checks a run would make, with their requests, and nothing sent: `--dry-run`, `--list`. */
export function verifyPlan(allowWrites = false, only?: readonly string[]) {
  return selected(allowWrites, only).map(({ id, section, requirement, writes, requests }) => ({
    id,
    section,
    requirement,
    writes,
    requests: [...requests],
  }));
}

/**
 * The custom fields on the account before a writing run: none of them is ever deleted, whatever
 * id a create answers or a list shows. Undefined when they cannot be read (no field is deleted).
 */
async function fieldsOnTheAccount(target: Target): Promise<CheckTools['fieldsBefore']> {
  try {
    return listedFields(
      await send(target, { method: 'GET', path: '/customfields', accept: 'application/json' }),
    );
  } catch {
    return undefined;
  }
}

/** Fresh names for one run: nothing the account could already hold. */
function throwawayNames() {
  const tag = randomBytes(6).toString('hex');
  return {
    tag,
    address: `fms-verify-${tag}@example.com`,
    second: `fms-verify-${tag}-2@example.com`,
    fieldName: `FmsVerify${tag}`,
  };
}

/**
 * The key taken out of a text of the report, in every form the journal takes a key out of what
 * it records (as is, URL-, JSON- or XML-escaped, inside base64 as `id:key`, `key:id` or alone,
 * behind escapes): the same mechanism (redaction/redact.ts), with this key as its one secret, of
 * any length.
 */
export function keyHider(key: string): (text: string) => string {
  return secretHider([key], 1);
}

/**
 * The most notes one check reports, and the longest note: notes quote the service (field names),
 * and a report must stay readable whatever it answers.
 */
const MAX_NOTES = 20;
const MAX_NOTE_LENGTH = 300;

const cutNote = (text: string) =>
  text.length > MAX_NOTE_LENGTH
    ? `${text.slice(0, MAX_NOTE_LENGTH)}... (${text.length} characters)`
    : text;

async function runCheck(
  check: Check,
  options: VerifyOptions,
  run: CheckTools['run'],
  account: Pick<CheckTools, 'fieldsBefore' | 'fieldNamesAsked' | 'fieldNamesDeleted'>,
  leftBehind: string[],
  hide: (text: string) => string,
) {
  const requests: string[] = [];
  const notes: string[] = [];
  let unshownNotes = 0;
  const undo: { what: string; undo?: () => Promise<boolean> }[] = [];
  const tools: CheckTools = {
    call: async (request: Call): Promise<Answer> => {
      requests.push(hide(describeCall(request)));
      const answer = await send(options, request);
      // The key out of the answer before a check quotes it: checks cut what they quote, and a key
      // cut in two (or one longer than the cut) would no longer be found in the report. A key
      // shorter than the journal's minimum is left to the report's own hiding: taken out of every
      // answer, a few common characters would change what the checks judge.
      return options.key.length >= MIN_SECRET_LENGTH
        ? { ...answer, body: hide(answer.body), contentType: hide(answer.contentType) }
        : answer;
    },
    serverId: options.serverId,
    key: options.key,
    run,
    ...account,
    maxNewContacts: options.maxNewContacts ?? 0,
    note: (text) => {
      if (notes.length >= MAX_NOTES) {
        unshownNotes += 1;
        return;
      }
      // Hidden whole, then cut: a key cut in two would no longer be found.
      const shown = cutNote(hide(text));
      if (!notes.includes(shown)) notes.push(shown);
    },
    made: (what, undoIt) => undo.push({ what, ...(undoIt ? { undo: undoIt } : {}) }),
  };
  const started = performance.now();
  const result: CheckResult = {
    id: check.id,
    section: check.section,
    requirement: check.requirement,
    requests,
    status: 'pass',
    got: '',
    notes,
    durationMs: 0,
  };
  try {
    result.got = await check.expect(tools);
  } catch (error) {
    if (error instanceof Mismatch) {
      result.status = 'fail';
      result.got = error.got;
      result.wanted = error.wanted;
      // Whole, before it is cut: a base64 run cut in two would no longer be found.
      if (error.answer)
        result.answer = showAnswer({ ...error.answer, body: hide(error.answer.body) });
    } else if (error instanceof Skip) {
      result.status = 'skipped';
      result.got = error.message;
    } else if (error instanceof AnswerTooLargeError) {
      // An answer, and not one the description allows: a failed check, not an outage.
      result.status = 'fail';
      result.got = error.message;
    } else if (error instanceof UnusableAnswerError) {
      // Not an HTTP answer to judge (a protocol switch): the check could not run.
      result.status = 'error';
      result.got = error.message;
    } else {
      result.status = 'error';
      // No answer at all (a socket error or the time-out) is an outage; anything else is a bug.
      const { code, message } = error as { code?: unknown; message?: string };
      if (typeof code === 'string' || /^no (whole )?answer within/.test(message ?? '')) {
        const problem = transportProblem(options, error);
        result.got = `${problem.problem}; ${problem.fix}`;
      } else {
        result.got = `the check itself failed: ${message ?? String(error)} (a bug of verify, please report it)`;
      }
    }
  } finally {
    for (const { what, undo: undoIt } of undo.reverse()) {
      let undone = false;
      try {
        undone = undoIt ? await undoIt() : false;
      } catch {
        undone = false;
      }
      if (!undone && !leftBehind.includes(what)) leftBehind.push(hide(what));
    }
  }
  if (result.answer) {
    const { body, contentType } = result.answer;
    result.answer = { ...result.answer, body: hide(body), contentType: hide(contentType) };
  }
  if (unshownNotes > 0) notes.push(`${unshownNotes} more note(s), not shown`);
  result.got = hide(result.got);
  if (result.wanted !== undefined) result.wanted = hide(result.wanted);
  result.durationMs = Math.round(performance.now() - started);
  return result;
}

/**
 * Runs the conformance suite, written from the service description, against any implementation:
 * the real service, this fake, or another. Without `allowWrites` it sends only requests the
 * description says change nothing. The key is never part of the report.
 */
export async function verifyService(options: VerifyOptions): Promise<VerifyReport> {
  checkTarget(options);
  const { maxNewContacts } = options;
  if (maxNewContacts !== undefined && !(Number.isInteger(maxNewContacts) && maxNewContacts >= 0))
    throw new InvalidOptionError('maxNewContacts must be a whole number, 0 or more');
  const checks = selected(options.allowWrites === true, options.only);
  const leftBehind: string[] = [];
  const results: CheckResult[] = [];
  const hide = keyHider(options.key);
  // A key anywhere in the base URL (query, fragment, path) or in what preflight quotes is hidden.
  const problem = await preflight(options);
  const couldNotRun = problem && { problem: hide(problem.problem), fix: hide(problem.fix) };
  if (!couldNotRun) {
    const run = throwawayNames();
    const fieldsBefore = checks.some((check) => check.writes)
      ? await fieldsOnTheAccount(options)
      : [];
    const account = {
      fieldsBefore,
      fieldNamesAsked: new Set<string>(),
      fieldNamesDeleted: new Set<string>(),
    };
    for (const check of checks) {
      results.push(await runCheck(check, options, run, account, leftBehind, hide));
    }
  }
  const count = (status: CheckResult['status']) =>
    results.filter((result) => result.status === status).length;
  const failed = count('fail');
  const errors = count('error');
  return {
    baseUrl: hide(options.baseUrl),
    serverId: options.serverId,
    results,
    passed: count('pass'),
    failed,
    skipped: count('skipped'),
    errors,
    leftBehind,
    ...(couldNotRun ? { couldNotRun } : {}),
    exitCode: couldNotRun
      ? EXIT_COULD_NOT_RUN
      : failed > 0
        ? EXIT_DRIFT
        : errors > 0
          ? EXIT_COULD_NOT_RUN
          : EXIT_PASS,
  };
}
