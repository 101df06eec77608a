import { type CheckTools, expectStatus, jsonOf, Mismatch, xmlOf } from './check-kit.js';
import type { Answer } from './http-client.js';
import { nothingToCheck } from './needs.js';
import type { XmlElement } from './xml-read.js';

/** What one field's value must be. */
export type Rule = 'integer' | 'string' | 'url' | 'iso-utc' | { readonly equals: unknown };

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,7})?(Z|\+00:00)$/;

/** True when `text` is an ISO 8601 timestamp in UTC (`Z` or `+00:00`), and a real instant. */
export function isIsoUtc(text: unknown): boolean {
  return typeof text === 'string' && ISO_UTC.test(text) && !Number.isNaN(Date.parse(text));
}

function isUrl(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Whether `value` follows `rule`, and the rule in words for the report. */
export function follows(value: unknown, rule: Rule): [boolean, string] {
  if (typeof rule === 'object') return [value === rule.equals, JSON.stringify(rule.equals)];
  switch (rule) {
    case 'integer':
      // Every integer rule is an id, sent back in paths: past 2^53 - 1 a JSON number reads as
      // another one (123456789012345678901234567890 becomes 1.2345678901234568e+29).
      return Number.isInteger(value) && !Number.isSafeInteger(value)
        ? [
            false,
            `an integer id of at most ${Number.MAX_SAFE_INTEGER}, which a client reads exactly`,
          ]
        : [Number.isInteger(value), 'an integer'];
    case 'string':
      return [typeof value === 'string', 'a string'];
    case 'url':
      return [isUrl(value), 'an absolute http(s) URL'];
    case 'iso-utc':
      return [isIsoUtc(value), 'an ISO 8601 UTC timestamp'];
  }
}

/** At most this many names the description does not list are noted, one note each. */
export const MAX_NOTED_ADDITIONS = 10;

/**
 * Fields or elements the description does not list, counted by name over a whole answer and
 * noted once per name: a note per item made the report as long as the answer (64k items, 64k
 * notes), and each note was compared with every earlier one.
 */
class Additions {
  private readonly counts = new Map<string, number>();

  add(name: string): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  /** One note per name, the first {@link MAX_NOTED_ADDITIONS}, then how many more there were. */
  note(tools: CheckTools, label: string, what: 'field' | 'element', items?: number): void {
    let noted = 0;
    for (const [name, count] of this.counts) {
      if (noted === MAX_NOTED_ADDITIONS) break;
      const where = items === undefined ? '' : `, in ${count} of ${items} item(s)`;
      tools.note(
        `${label}: the ${what} ${name}, which the description does not list${where} (accepted)`,
      );
      noted += 1;
    }
    const more = this.counts.size - noted;
    if (more > 0)
      tools.note(`${label}: ${more} more ${what} name(s) the description does not list (accepted)`);
  }
}

/** Throws unless `value` is an object following `rules`; counts the fields it has besides. */
function checkObject(
  answer: Answer,
  value: unknown,
  rules: Readonly<Record<string, Rule>>,
  label: string,
  additions: Additions,
): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Mismatch(
      `${label} as an object`,
      `${label} as ${JSON.stringify(value)?.slice(0, 60)}`,
      answer,
    );
  }
  const record = value as Record<string, unknown>;
  for (const [name, rule] of Object.entries(rules)) {
    const [ok, wanted] = follows(record[name], rule);
    if (!(name in record))
      throw new Mismatch(`${label}.${name}: ${wanted}`, `${label} has no ${name}`, answer);
    if (!ok) {
      throw new Mismatch(
        `${label}.${name}: ${wanted}`,
        `${label}.${name} is ${JSON.stringify(record[name])}`,
        answer,
      );
    }
  }
  for (const name of Object.keys(record)) if (!Object.hasOwn(rules, name)) additions.add(name);
}

/**
 * Throws unless `value` (from `answer`) is an object with every field of `rules`, each following
 * its rule. Fields the description does not list are additions, noted and accepted.
 */
export function expectObject(
  tools: CheckTools,
  answer: Answer,
  value: unknown,
  rules: Readonly<Record<string, Rule>>,
  label: string,
): void {
  const additions = new Additions();
  checkObject(answer, value, rules, label, additions);
  additions.note(tools, label, 'field');
}

/** Throws unless the JSON answer is an array of objects following `rules`; returns the items. */
export function expectArrayOf(
  tools: CheckTools,
  answer: Answer,
  value: unknown,
  rules: Readonly<Record<string, Rule>>,
  label: string,
): Record<string, unknown>[] {
  if (!Array.isArray(value))
    throw new Mismatch('a JSON array', `${JSON.stringify(value)?.slice(0, 60)}`, answer);
  const additions = new Additions();
  for (const [index, item] of value.entries()) {
    checkObject(answer, item, rules, `${label}[${index}]`, additions);
  }
  additions.note(tools, label, 'field', value.length);
  return value as Record<string, unknown>[];
}

/**
 * Throws unless `root` is named `rootName` and each child is an `itemName` whose described
 * children come in `order`, each following its rule. Other elements are noted and accepted.
 */
export function expectXmlItems(
  tools: CheckTools,
  answer: Answer,
  root: XmlElement,
  rootName: string,
  itemName: string,
  order: readonly (readonly [string, Rule])[],
): XmlElement[] {
  if (root.name !== rootName)
    throw new Mismatch(`root element ${rootName}`, `root element ${root.name}`, answer);
  const described = order.map(([name]) => name);
  const additions = new Additions();
  root.children.forEach((item, index) => {
    const label = `${itemName} ${index + 1}`;
    if (item.name !== itemName)
      throw new Mismatch(`items named ${itemName}`, `an item named ${item.name}`, answer);
    const names = item.children
      .map((child) => child.name)
      .filter((name) => described.includes(name));
    if (names.join() !== described.join()) {
      throw new Mismatch(
        `${label} with ${described.join(', ')} in that order`,
        `${label} with ${names.join(', ') || 'none of them'}`,
        answer,
      );
    }
    for (const [name, rule] of order) {
      const text = item.children.find((child) => child.name === name)?.text.trim() ?? '';
      const value = rule === 'integer' ? (/^-?\d+$/.test(text) ? Number(text) : text) : text;
      const wantedValue = typeof rule === 'object' ? { equals: String(rule.equals) } : rule;
      const [ok, wanted] = follows(value, wantedValue);
      if (!ok)
        throw new Mismatch(
          `${label} ${name}: ${wanted}`,
          `${label} ${name} is ${JSON.stringify(text)}`,
          answer,
        );
    }
    // Counted once per item: an item may repeat an element.
    const extra = new Set(item.children.map((child) => child.name));
    for (const name of extra) if (!described.includes(name)) additions.add(name);
  });
  additions.note(tools, itemName, 'element', root.children.length);
  return root.children;
}

/**
 * GET `path` as JSON: a 200 whose body is an array of items that each follow `rules`, and at
 * least one (an empty account proves nothing). The items.
 */
export async function readJsonItems(
  tools: CheckTools,
  path: string,
  rules: Readonly<Record<string, Rule>>,
  label: string,
): Promise<Record<string, unknown>[]> {
  const answer = await tools.call({ method: 'GET', path, accept: 'application/json' });
  expectStatus(answer, 200);
  const items = expectArrayOf(tools, answer, jsonOf(answer), rules, label);
  if (items.length === 0) throw nothingToCheck(path);
  return items;
}

/**
 * GET `path` as XML: a 200 whose root `rootName` holds `itemName` elements with the children of
 * `order`, in that order, and at least one. The items.
 */
export async function readXmlItems(
  tools: CheckTools,
  path: string,
  rootName: string,
  itemName: string,
  order: readonly (readonly [string, Rule])[],
): Promise<XmlElement[]> {
  const answer = await tools.call({ method: 'GET', path, accept: 'text/xml' });
  expectStatus(answer, 200);
  const items = expectXmlItems(tools, answer, xmlOf(answer), rootName, itemName, order);
  if (items.length === 0) throw nothingToCheck(path);
  return items;
}
