import { jsonDepthExceeds } from '../json-depth.js';
import type { Answer, Call } from './http-client.js';
import { readXml, type XmlElement } from './xml-read.js';

/** How much of an answer body a report shows. */
export const BODY_SHOWN = 300;

/** What came back, as a report shows it. */
export interface AnswerShown {
  readonly status: number;
  readonly contentType: string;
  /** The body, cut to {@link BODY_SHOWN} characters. */
  readonly body: string;
}

/** Cuts an answer for the report. */
export function showAnswer(answer: Answer): AnswerShown {
  const body =
    answer.body.length > BODY_SHOWN
      ? `${answer.body.slice(0, BODY_SHOWN)}... (${answer.body.length} characters)`
      : answer.body;
  return { status: answer.status, contentType: answer.contentType || '(none)', body };
}

/** The answer differs from the description: the check fails with what was wanted. */
export class Mismatch extends Error {
  override name = 'Mismatch';
  constructor(
    readonly wanted: string,
    readonly got: string,
    readonly answer?: Answer,
  ) {
    super(`${got} (wanted ${wanted})`);
  }
}

/** The check cannot judge this account; the reason is exact and is reported. */
export class Skip extends Error {
  override name = 'Skip';
}

/** Everything a check can use. One per check run: nothing is shared between checks. */
export interface CheckTools {
  /** Sends a request; it is recorded for the report (never with the key). */
  call(call: Call): Promise<Answer>;
  readonly serverId: number;
  readonly key: string;
  /**
   * Names no account holds, fresh for each run: `fms-verify-<hex>@example.com`, a second address
   * `fms-verify-<hex>-2@example.com`, `FmsVerify<hex>`.
   */
  readonly run: {
    readonly address: string;
    readonly second: string;
    readonly fieldName: string;
    readonly tag: string;
  };
  /**
   * The custom fields the account held before the run wrote anything (GET /customfields, read once
   * before the first writing check), by name and id: none of them is verify's to delete. Undefined
   * when that list could not be read: then no field can be confirmed verify's.
   */
  readonly fieldsBefore: readonly ListedField[] | undefined;
  /**
   * Every custom field name the run has asked to create (POST), whatever the answer; shared by all
   * its checks. A field listed later that is in neither this nor `fieldsBefore` shows that
   * `fieldsBefore` did not hold the whole account (or that someone else is writing to it): then
   * no field can be confirmed verify's, and none is deleted.
   */
  readonly fieldNamesAsked: Set<string>;
  /**
   * The fields the run's checks deleted themselves (a 2xx to DELETE by the id the list confirmed),
   * by name: a field no later list shows is gone only if it is here. Else the service said it
   * made the field and then does not list it, and it is reported as left.
   */
  readonly fieldNamesDeleted: Set<string>;
  /** How many new contacts `writes.contact-cap` may make looking for the maximum (0: it skips). */
  readonly maxNewContacts: number;
  /** A remark that is not a failure: an additive difference, for instance. */
  note(text: string): void;
  /**
   * Records something the check made. `undo` runs in the run's `finally`, whatever happened;
   * without it, or when it returns false or throws, the thing is reported as left on the account.
   */
  made(what: string, undo?: () => Promise<boolean>): void;
}

/** A custom field as GET /customfields lists it: its name, and its id when it is a usable one. */
export interface ListedField {
  readonly name: unknown;
  readonly id: number | undefined;
}

/** One check: a declarative entry in one of the files of src/verify/checks/. */
export interface Check {
  /** Stable id, e.g. `lists.xml`: JUnit test names and `--only` use it. */
  readonly id: string;
  /** The section of the service description it follows, e.g. `2 List`. */
  readonly section: string;
  /** What the description requires, in its words where it has them. */
  readonly requirement: string;
  /** Changes the account (runs only with --allow-writes). */
  readonly writes: boolean;
  /** The requests it sends, for --dry-run and --list. */
  readonly requests: readonly string[];
  /** Sends the requests and throws {@link Mismatch} or {@link Skip}; returns what passed. */
  readonly expect: (tools: CheckTools) => Promise<string>;
}

/** An id no account holds: far above anything a server assigns. */
export const UNKNOWN_ID = 999_999_999;

/** The media type of an answer, lower case, without parameters. */
export const mediaType = (answer: Answer) =>
  (answer.contentType.split(';')[0] ?? '').trim().toLowerCase();

/** Throws unless the status is one of `wanted` (a number, a list, or `2xx`). */
export function expectStatus(
  answer: Answer,
  wanted: number | readonly number[] | '2xx',
  what = '',
) {
  const ok =
    wanted === '2xx'
      ? answer.status >= 200 && answer.status < 300
      : typeof wanted === 'number'
        ? answer.status === wanted
        : wanted.includes(answer.status);
  if (!ok) {
    const label = wanted === '2xx' ? 'a 2xx success' : [wanted].flat().join(' or ');
    throw new Mismatch(`${what}status ${label}`, `${what}status ${answer.status}`, answer);
  }
}

/** Throws unless the answer is a refusal (4xx): for errors whose status is not given. */
export function expectRefused(answer: Answer, what = '') {
  if (answer.status < 400 || answer.status >= 500) {
    throw new Mismatch(`${what}a refusal (4xx)`, `${what}status ${answer.status}`, answer);
  }
}

/**
 * The service's answers nest a few levels: one nested deeper is read as not JSON, since walking
 * it (comparing, showing) would overflow the stack.
 */
const MAX_ANSWER_DEPTH = 100;

/** The JSON of an answer, or undefined when the body is not JSON (for finding, not judging). */
export function tryJson(answer: Answer): unknown {
  if (jsonDepthExceeds(answer.body, MAX_ANSWER_DEPTH)) return undefined;
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

/** The JSON of an answer; throws a mismatch when the body is not JSON. */
export function jsonOf(answer: Answer, what = ''): unknown {
  if (jsonDepthExceeds(answer.body, MAX_ANSWER_DEPTH)) {
    throw new Mismatch(
      `${what}a JSON body`,
      `${what}JSON nested deeper than ${MAX_ANSWER_DEPTH} levels`,
      answer,
    );
  }
  try {
    return JSON.parse(answer.body);
  } catch {
    throw new Mismatch(`${what}a JSON body`, `${what}a body that is not JSON`, answer);
  }
}

/** The root element of an XML answer; throws a mismatch when it is not well-formed XML. */
export function xmlOf(answer: Answer, what = ''): XmlElement {
  const root = readXml(answer.body);
  if (!root)
    throw new Mismatch(`${what}a well-formed XML body`, `${what}a body that is not XML`, answer);
  return root;
}
