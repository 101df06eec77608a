import { mediaType, type ParsedBody, parseBody, type XmlNode } from './body.js';
import type { IdKind, IdMaps } from './ids.js';

/** One side of a comparison: what came back. */
export interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string | undefined;
}

// Values compared by what they are, not what they hold (see docs, "what replay normalises"):
// ids the service assigns are paired by first appearance; timestamps and the temporary
// thumbnail URL differ on every call and are compared by format.
const ID_FIELDS: Readonly<Record<string, IdKind>> = {
  contactid: 'contact',
  customfieldnameid: 'field',
};
const TIMESTAMP_FIELDS = new Set(['created', 'updated', 'thumbnailexpiration']);
/** Timestamps a given seed fixes (content's): the thumbnail's expiry follows the clock. */
const SEEDED_DATES = new Set(['created', 'updated']);
const URL_FIELDS = new Set(['thumbnailurl']);
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?Z$/;
const ABSOLUTE_URL = /^https?:\/\/[^\s/]+\/\S*$/;
const MAX_DIFFERENCES = 6;
const SHOWN = 80;

/**
 * The differences between a recorded answer and the fake's, each one line a person reads at a
 * glance (`body[0].customFieldType: recorded "string", fake "String"`); none when they match.
 * Pairs ids of `ids` as it meets them. Each value shown goes through `hide` before it is cut, so
 * that a secret cut in two is still found.
 */
export function compareAnswers(
  recorded: Answer,
  fake: Answer,
  ids: IdMaps,
  hide: Hide = (text) => text,
  options: { exactDates?: boolean } = {},
): string[] {
  const differences: string[] = [];
  if (recorded.status !== fake.status) {
    differences.push(
      `status: recorded ${recorded.status}, fake ${fake.status}${brief(fake.body, hide)}`,
    );
    return differences;
  }
  const recordedBody = parseBody(recorded.contentType, recorded.body);
  const fakeBody = parseBody(fake.contentType, fake.body);
  if (recordedBody.kind !== 'empty' || fakeBody.kind !== 'empty') {
    const wanted = mediaType(recorded.contentType);
    const got = mediaType(fake.contentType);
    if (wanted !== got)
      differences.push(`Content-Type: recorded ${wanted || '(none)'}, fake ${got || '(none)'}`);
  }
  compareBodies(recordedBody, fakeBody, {
    ids,
    differences,
    hide,
    exactDates: options.exactDates === true,
  });
  if (differences.length > MAX_DIFFERENCES) {
    const more = differences.length - MAX_DIFFERENCES;
    differences.length = MAX_DIFFERENCES;
    differences.push(`... and ${more} more`);
  }
  return differences;
}

/** Takes secrets out of a text shown in a difference (the report's keys, see replay.ts). */
type Hide = (text: string) => string;

interface Context {
  readonly ids: IdMaps;
  readonly differences: string[];
  readonly hide: Hide;
  /**
   * True when a given seed fixes the state: content's `created` and `updated` come from it (the
   * API creates no content), so they are compared exactly, not by format.
   */
  readonly exactDates: boolean;
}

function compareBodies(recorded: ParsedBody, fake: ParsedBody, context: Context): void {
  if (recorded.kind === 'json' && fake.kind === 'json') {
    compareJson(recorded.value, fake.value, 'body', undefined, context);
  } else if (recorded.kind === 'xml' && fake.kind === 'xml') {
    compareXml(recorded.value, fake.value, 'body ', context);
  } else if (recorded.kind !== fake.kind) {
    context.differences.push(
      `body: recorded ${describe(recorded, context.hide)}, fake ${describe(fake, context.hide)}`,
    );
  } else if (recorded.kind === 'text' && fake.kind === 'text' && recorded.value !== fake.value) {
    context.differences.push(
      `body: recorded ${show(recorded.value, context.hide)}, fake ${show(fake.value, context.hide)}`,
    );
  }
}

function compareJson(
  recorded: unknown,
  fake: unknown,
  path: string,
  key: string | undefined,
  context: Context,
): void {
  if (Array.isArray(recorded) && Array.isArray(fake)) {
    if (recorded.length !== fake.length)
      context.differences.push(`${path}: recorded ${recorded.length} items, fake ${fake.length}`);
    const common = Math.min(recorded.length, fake.length);
    for (let i = 0; i < common; i++)
      compareJson(recorded[i], fake[i], `${path}[${i}]`, key, context);
    return;
  }
  if (isPlainObject(recorded) && isPlainObject(fake)) {
    for (const [name, value] of Object.entries(recorded)) {
      if (!Object.hasOwn(fake, name))
        context.differences.push(
          `${path}.${name}: recorded ${show(value, context.hide)}, missing from the fake`,
        );
      else compareJson(value, fake[name], `${path}.${name}`, name, context);
    }
    for (const [name, value] of Object.entries(fake)) {
      if (!Object.hasOwn(recorded, name))
        context.differences.push(
          `${path}.${name}: not recorded, the fake sends ${show(value, context.hide)}`,
        );
    }
    return;
  }
  compareValue(recorded, fake, path, key, context);
}

function compareXml(recorded: XmlNode, fake: XmlNode, path: string, context: Context): void {
  const here = `${path}<${recorded.name}>`;
  if (recorded.name !== fake.name) {
    context.differences.push(`${path}: recorded element <${recorded.name}>, fake <${fake.name}>`);
    return;
  }
  if (recorded.children.length === 0 && fake.children.length === 0) {
    compareValue(recorded.text, fake.text, here, recorded.name, context);
    return;
  }
  const names = (node: XmlNode) => node.children.map((child) => child.name).join(', ');
  if (recorded.children.length !== fake.children.length) {
    context.differences.push(
      `${here}: recorded ${recorded.children.length} child elements (${cut(names(recorded), context.hide)}), fake ${fake.children.length} (${cut(names(fake), context.hide)})`,
    );
  }
  const common = Math.min(recorded.children.length, fake.children.length);
  for (let i = 0; i < common; i++) {
    compareXml(
      recorded.children[i] as XmlNode,
      fake.children[i] as XmlNode,
      `${here}[${i}]`,
      context,
    );
  }
}

function compareValue(
  recorded: unknown,
  fake: unknown,
  path: string,
  key: string | undefined,
  context: Context,
): void {
  const name = key?.toLowerCase() ?? '';
  const idKind = ID_FIELDS[name];
  if (idKind !== undefined && isWholeNumber(recorded) && isWholeNumber(fake)) {
    if (!context.ids.agree(idKind, Number(recorded), Number(fake)))
      context.differences.push(
        `${path}: recorded ${show(recorded, context.hide)}, fake ${show(fake, context.hide)} (ids are paired by first appearance; this one was paired otherwise)`,
      );
    return;
  }
  // Both dates in the description's format: under a given seed, the same instant too. (A date in
  // another format is reported as such, below.)
  if (
    context.exactDates &&
    SEEDED_DATES.has(name) &&
    typeof recorded === 'string' &&
    typeof fake === 'string' &&
    ISO_UTC.test(recorded) &&
    ISO_UTC.test(fake)
  ) {
    if (Date.parse(recorded) !== Date.parse(fake)) {
      context.differences.push(
        `${path}: recorded ${show(recorded, context.hide)}, fake ${show(fake, context.hide)} (compared exactly: the given seed fixes content dates)`,
      );
    }
    return;
  }
  if (TIMESTAMP_FIELDS.has(name) && typeof recorded === 'string' && typeof fake === 'string') {
    const recordedIso = ISO_UTC.test(recorded);
    if (recordedIso === ISO_UTC.test(fake) && (recordedIso || recorded === fake)) return;
    context.differences.push(
      `${path}: recorded ${show(recorded, context.hide)}${recordedIso ? '' : ' (not ISO 8601 UTC)'}, fake ${show(fake, context.hide)}${ISO_UTC.test(fake) ? '' : ' (not ISO 8601 UTC)'}`,
    );
    return;
  }
  if (URL_FIELDS.has(name) && typeof recorded === 'string' && typeof fake === 'string') {
    if (
      ABSOLUTE_URL.test(recorded) === ABSOLUTE_URL.test(fake) &&
      (ABSOLUTE_URL.test(recorded) || recorded === fake)
    )
      return;
    context.differences.push(
      `${path}: recorded ${show(recorded, context.hide)}, fake ${show(fake, context.hide)} (compared as absolute http(s) URLs)`,
    );
    return;
  }
  if (!Object.is(recorded, fake))
    context.differences.push(
      `${path}: recorded ${show(recorded, context.hide)}, fake ${show(fake, context.hide)}`,
    );
}

function isWholeNumber(value: unknown): boolean {
  return (
    (typeof value === 'number' && Number.isSafeInteger(value)) ||
    (typeof value === 'string' && /^\d{1,15}$/.test(value))
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(body: ParsedBody, hide: Hide): string {
  if (body.kind === 'empty') return 'no body';
  if (body.kind === 'json') return `JSON ${show(body.value, hide)}`;
  if (body.kind === 'xml') return `XML <${body.value.name}>`;
  return `text ${show(body.value, hide)}`;
}

function show(value: unknown, hide: Hide): string {
  return cut(value === undefined ? 'undefined' : JSON.stringify(value), hide);
}

function cut(text: string, hide: Hide): string {
  const shown = hide(text);
  return shown.length > SHOWN ? `${shown.slice(0, SHOWN)}…` : shown;
}

function brief(body: string | undefined, hide: Hide): string {
  return body === undefined || body === '' ? '' : ` (fake's body: ${cut(body, hide)})`;
}
