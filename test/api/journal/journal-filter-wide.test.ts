import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../src/domain/errors.js';
import { Journal, type JournalEntry } from '../../../src/journal/journal.js';
import {
  BODY_BYTES_PER_STEP,
  type FilterBudget,
  filterBudget,
  MAX_FILTER_STEPS,
  PROPERTY_STEPS,
} from '../../../src/journal/journal-budgets.js';
import { type CompiledFilter, compileFilter } from '../../../src/journal/journal-filter.js';
import { WaitTimeoutError } from '../../../src/journal/wait-timeout-error.js';
import { addByEmailRecord } from '../../helpers/journal-record.js';

/**
 * The costly shapes: bodies that are objects of 6,000 properties (about 59 KB), and a body filter
 * of 900 property names that the bodies do not have. Work is counted (the properties a filter reads
 * of the bodies, the entries it tests), never timed.
 */
const PROPERTIES = 6000;
const wideBody = () => {
  const body: Record<string, unknown> = { emailAddress: 'x@example.com' };
  for (let i = 0; i < PROPERTIES; i += 1) body[`K${i}`] = 0;
  return body;
};
const nineHundredNames = Object.fromEntries(
  Array.from({ length: 900 }, (_, i) => [`z${i}`, 1]),
) as Record<string, unknown>;

/** `name` in its first `count` mixes of upper and lower case. */
function casings(name: string, count: number): string[] {
  return Array.from({ length: count }, (_, mask) =>
    [...name].map((char, i) => ((mask >> i) & 1 ? char.toUpperCase() : char)).join(''),
  );
}

const record = addByEmailRecord;

/**
 * A journal whose filters count the entries they test and the properties they read of each body
 * (every value read, and every own property looked at, as for-in does): one counting view per
 * body, so that what is shared between tests of one entry stays shared.
 */
function countingJournal() {
  const counter = { tested: 0, reads: 0 };
  const views = new WeakMap<object, object>();
  const view = (body: unknown): unknown => {
    if (typeof body !== 'object' || body === null) return body;
    const known = views.get(body);
    if (known !== undefined) return known;
    const made = new Proxy(body, {
      get(target, name, receiver) {
        counter.reads += 1;
        return view(Reflect.get(target, name, receiver));
      },
      getOwnPropertyDescriptor(target, name) {
        counter.reads += 1;
        return Reflect.getOwnPropertyDescriptor(target, name);
      },
    });
    views.set(body, made);
    return made;
  };
  const entries = new WeakMap<JournalEntry, JournalEntry>();
  const watched = (entry: JournalEntry): JournalEntry => {
    counter.tested += 1;
    const known = entries.get(entry);
    if (known !== undefined) return known;
    const made = { ...entry, request: { ...entry.request, body: view(entry.request.body) } };
    entries.set(entry, made);
    return made;
  };
  const compile = (filter: Parameters<typeof compileFilter>[0]): CompiledFilter => {
    const compiled = compileFilter(filter);
    return {
      ...compiled,
      matches: (entry, budget?: FilterBudget) => compiled.matches(watched(entry), budget),
      differences: (entry, budget?: FilterBudget) => compiled.differences(watched(entry), budget),
    };
  };
  return { journal: new Journal(1000, 64 * 1024, compile), counter };
}

describe('objects of many properties cost what they are: a step per property looked through', () => {
  const bytes = Buffer.from(JSON.stringify(wideBody()));

  it('one test of a 900-name filter against a 6,000-property body spends a step per name read and PROPERTY_STEPS per property', () => {
    const filter = compileFilter({ body: nineHundredNames });
    const journal = new Journal(10, 64 * 1024);
    journal.record(record(), bytes);
    // Each read builds the entry anew, and so its body's names.
    const entry = () => journal.entries()[0] as JournalEntry;
    const budget = filterBudget();
    expect(filter.matches(entry(), budget)).toBe(false);
    expect(MAX_FILTER_STEPS - budget.steps).toBeGreaterThanOrEqual(
      (PROPERTIES + 1) * PROPERTY_STEPS,
    );
    // Explained, each of the 900 names missing is a step too.
    const explained = filterBudget();
    expect(filter.differences(entry(), explained)).toHaveLength(900);
    expect(MAX_FILTER_STEPS - explained.steps).toBeGreaterThanOrEqual(
      (PROPERTIES + 1) * PROPERTY_STEPS + 900,
    );
  });

  it('PROPERTY_STEPS is what docs/journal.md says', () => {
    expect(PROPERTY_STEPS).toBe(4);
  });

  it('a read of 1000 such bodies tests no more entries than their decoding and properties pay for', () => {
    const { journal, counter } = countingJournal();
    for (let i = 0; i < 1000; i += 1) journal.record(record(), bytes);
    expect(() => journal.entries({ body: nineHundredNames })).toThrow(InvalidOptionError);
    const perEntry =
      Math.ceil(bytes.length / BODY_BYTES_PER_STEP) + (PROPERTIES + 1) * PROPERTY_STEPS;
    expect(counter.tested).toBeGreaterThan(0);
    expect(counter.tested).toBeLessThanOrEqual(Math.ceil(MAX_FILTER_STEPS / perEntry) + 1);
  });

  it('100 waits with that filter look through a new entry of 6,000 properties once, not 100 times', async () => {
    const { journal, counter } = countingJournal();
    const waits = Array.from({ length: 100 }, () =>
      journal.waitFor({ body: nineHundredNames }, 60_000).catch((error: Error) => error),
    );
    journal.record(record(), bytes);
    // The first wait spends its share building the names, and is tested again with what the
    // others left.
    expect(counter.tested).toBe(101);
    // Building the names of the 6,001 properties reads each about twice; the 99 other waits read
    // a name or two each. Without sharing: 100 builds, about 1.2 million reads.
    expect(counter.reads).toBeGreaterThan(PROPERTIES);
    expect(counter.reads).toBeLessThanOrEqual(3 * (PROPERTIES + 1) + 100 * 10);
    journal.cancelWaits();
    for (const outcome of await Promise.all(waits)) expect(outcome).toBeInstanceOf(Error);
  });

  for (const first of [true, false]) {
    it(`the waits still answer: one whose filter the wide body matches gets it (${first ? 'first' : 'last'} of 100 waits)`, async () => {
      const journal = new Journal(1000, 64 * 1024);
      const costly = () =>
        Array.from({ length: 99 }, () =>
          journal.waitFor({ body: nineHundredNames }, 60_000).catch(() => undefined),
        );
      const before = first ? [] : costly();
      const matching = journal.waitFor(
        { body: { k5999: 0, EMAILADDRESS: 'x@example.com' } },
        60_000,
      );
      const after = first ? costly() : [];
      journal.record(record(), bytes);
      expect((await matching).id).toBe(1);
      journal.cancelWaits();
      await Promise.all([...before, ...after]);
    });
  }

  it('a message writes a large value out once, however many filter names fold to it', async () => {
    const { journal, counter } = countingJournal();
    const items = Array.from({ length: 2000 }, (_, i) => ({ Name: `F${i}`, Value: `${i % 10}` }));
    journal.record(record(), Buffer.from(JSON.stringify({ customFields: items })));
    const names = casings('customfields', 1000);
    const filter = Object.fromEntries(names.map((name) => [name, 1]));
    counter.reads = 0;
    const timedOut = await journal.waitFor({ body: filter }, 10).then(
      () => new Error('no time-out'),
      (error: Error) => error,
    );
    expect(timedOut).toBeInstanceOf(WaitTimeoutError);
    expect(timedOut.message).toContain('body.CustomFields is [{"Name":"F0","Value":"0"},');
    expect(timedOut.message).toContain('(wanted 1)');
    // One writing out reads about 5 values per item; 1,000 of them would read 10 million.
    expect(counter.reads).toBeLessThanOrEqual(8 * 2000 + 4 * names.length);
  });
});
