import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../src/domain/errors.js';
import { Journal, type JournalEntry } from '../../../src/journal/journal.js';
import {
  BODY_BYTES_PER_STEP,
  type FilterBudget,
  MAX_FILTER_STEPS,
} from '../../../src/journal/journal-budgets.js';
import { type CompiledFilter, compileFilter } from '../../../src/journal/journal-filter.js';
import { WaitTimeoutError } from '../../../src/journal/wait-timeout-error.js';
import { call, useFake } from '../../helpers/fake.js';
import { addByEmailRecord } from '../../helpers/journal-record.js';

/**
 * The costly shapes: bodies of 2,000 small objects (just under the 64 KiB journal body limit), and
 * body filters of 120 object items. Work is counted as the values a filter reads from the bodies (a
 * proxy counts every property read), never timed.
 */
const ITEMS = 2000;
const bodyOf = (items = ITEMS) => ({
  emailAddress: 'x@example.com',
  customFields: Array.from({ length: items }, (_, i) => ({ Name: `F${i}`, Value: String(i % 10) })),
});
/** Items that match nothing: each is compared with every item of the body. */
const noMatchFilter = {
  customFields: Array.from({ length: 120 }, (_, i) => ({ name: `nomatch${i}` })),
};
/** Items that match the body's last ones: each is found only after nearly every item. */
const lateMatchFilter = {
  customFields: Array.from({ length: 120 }, (_, i) => ({ name: `F${ITEMS - 1 - i}` })),
};

/** A generous bound for one read or one new entry: the budget, and one body's worth past it. */
const BOUND = MAX_FILTER_STEPS + 4 * ITEMS;

/** Every value read from `value` (at any depth) counts one in `counter`. */
function counting<T>(value: T, counter: { reads: number }): T {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value as object, {
    get(target, name, receiver) {
      counter.reads += 1;
      return counting(Reflect.get(target, name, receiver), counter);
    },
  }) as T;
}

/**
 * A journal whose filters count the values they read and the entries they test; its clock stands
 * still (`clock.now` moves it).
 */
function countingJournal() {
  const counter = { reads: 0, tested: 0 };
  const compile = (filter: Parameters<typeof compileFilter>[0]): CompiledFilter => {
    const compiled = compileFilter(filter);
    const watched = (entry: JournalEntry): JournalEntry => {
      counter.tested += 1;
      return {
        ...entry,
        request: { ...entry.request, body: counting(entry.request.body, counter) },
      };
    };
    return {
      ...compiled,
      matches: (entry, budget?: FilterBudget) => compiled.matches(watched(entry), budget),
      differences: (entry, budget?: FilterBudget) => compiled.differences(watched(entry), budget),
    };
  };
  const clock = { now: 0 };
  return { journal: new Journal(1000, 64 * 1024, compile, () => clock.now), counter, clock };
}

const record = addByEmailRecord;

function filled(entries: number, body: unknown = bodyOf()) {
  const made = countingJournal();
  const bytes = Buffer.from(JSON.stringify(body));
  expect(bytes.length).toBeLessThan(64 * 1024);
  for (let i = 0; i < entries; i += 1) made.journal.record(record(), bytes);
  return made;
}

describe('one read with a body filter is bounded in all, not per entry', () => {
  for (const [name, filter] of [
    ['matching nothing', noMatchFilter],
    ['matching late items', lateMatchFilter],
  ] as const) {
    for (const entries of [150, 1000]) {
      it(`${entries} entries, a filter ${name}: refused with 400 after at most ${BOUND} values read`, () => {
        const { journal, counter } = filled(entries);
        let error: unknown;
        try {
          journal.entries({ body: filter });
        } catch (thrown) {
          error = thrown;
        }
        expect(error).toBeInstanceOf(InvalidOptionError);
        expect((error as InvalidOptionError).status).toBe(400);
        expect((error as Error).message).toContain(
          `needed more than ${MAX_FILTER_STEPS} steps in one read`,
        );
        expect(counter.reads).toBeGreaterThan(0);
        expect(counter.reads).toBeLessThanOrEqual(BOUND);
      });
    }
  }

  it('decoding bodies counts too: a cheap filter over many large bodies stops early', () => {
    const { journal, counter } = filled(1000);
    expect(() => journal.entries({ body: { emailAddress: 'nobody@example.com' } })).toThrow(
      InvalidOptionError,
    );
    const bytes = JSON.stringify(bodyOf()).length;
    expect(counter.tested).toBeLessThanOrEqual(
      Math.ceil((MAX_FILTER_STEPS * BODY_BYTES_PER_STEP) / bytes) + 1,
    );
  });

  it('a cut body costs what is kept of it, not its whole size', () => {
    const journal = new Journal(1000, 100);
    const huge = Buffer.from(JSON.stringify({ emailAddress: 'x'.repeat(1024 * 1024) }));
    for (let i = 0; i < 1000; i += 1) journal.record(record(), huge);
    // Charged by their whole 1 MiB, two entries would spend the budget; kept, they are 100 bytes.
    expect(journal.entries({ body: { emailAddress: 'x' } })).toEqual([]);
  });

  it('a read within the budget answers as before: every match, oldest first', () => {
    const { journal } = filled(5, bodyOf(20));
    const found = journal.entries({ body: { customFields: [{ name: 'F19' }] } });
    expect(found.map((entry) => entry.id)).toEqual([1, 2, 3, 4, 5]);
    expect(journal.entries({ body: { customFields: [{ name: 'F20' }] } })).toEqual([]);
  });

  it('a wait whose first scan spends the budget is refused at once', async () => {
    const { journal } = filled(150);
    await expect(journal.waitFor({ body: lateMatchFilter }, 60_000)).rejects.toThrow(
      InvalidOptionError,
    );
  });
});

describe('one new entry against every pending wait is bounded in all', () => {
  it(`25 waits with costly filters read at most ${BOUND} values of one new entry, and stay pending`, async () => {
    const { journal, counter } = countingJournal();
    const waits = Array.from({ length: 25 }, (_, i) =>
      journal.waitFor(
        { body: { customFields: [...lateMatchFilter.customFields, { name: `missing${i}` }] } },
        200,
      ),
    );
    const outcomes = Promise.allSettled(waits);
    counter.reads = 0;
    journal.record(record(), Buffer.from(JSON.stringify(bodyOf())));
    expect(counter.reads).toBeGreaterThan(0);
    expect(counter.reads).toBeLessThanOrEqual(BOUND);
    const settled = await outcomes;
    for (const outcome of settled) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(WaitTimeoutError);
      // The time-out says which new entry the filter could not finish testing.
      expect(reason.message).toContain('Not fully tested');
      expect(reason.message).toContain('#1');
    }
  });

  it('a timed-out wait names the first 5 entries it could not finish testing, and counts the rest', async () => {
    const journal = new Journal(1000, 64 * 1024);
    const waiting = journal.waitFor({ body: lateMatchFilter }, 100);
    const body = Buffer.from(JSON.stringify(bodyOf()));
    for (let i = 0; i < 7; i += 1) journal.record(record(), body);
    await expect(waiting).rejects.toThrow(
      `steps each new entry may take across all pending waits): #1, #2, #3, #4, #5 and 2 more.`,
    );
  });

  it('a cheap wait still gets a matching entry while costly ones are pending', async () => {
    const { journal } = countingJournal();
    const costly = Array.from({ length: 20 }, () =>
      journal.waitFor({ body: lateMatchFilter }, 60_000).catch(() => undefined),
    );
    const cheap = journal.waitFor({ body: { emailAddress: 'x@example.com' } }, 60_000);
    journal.record(record(), Buffer.from(JSON.stringify(bodyOf())));
    expect((await cheap).id).toBe(1);
    journal.cancelWaits();
    await Promise.all(costly);
  });
});

describe('over HTTP', () => {
  const fake = useFake();
  const payload = bodyOf();

  it('GET /requests and /requests.har answer 400 saying how to narrow a costly body filter; a narrow one still answers', async () => {
    for (let i = 0; i < 30; i += 1) {
      await call(fake, 'PUT', 'lists/1/contacts', { body: payload });
    }
    const filter = encodeURIComponent(JSON.stringify(lateMatchFilter));
    for (const path of ['/__admin/requests', '/__admin/requests.har']) {
      const refused = await fake.inject({ url: `${path}?body=${filter}` });
      expect(refused.statusCode).toBe(400);
      expect((refused.json() as { message: string }).message).toContain(
        'narrow the read with sinceId',
      );
    }
    const oneItem = encodeURIComponent(
      JSON.stringify({ customFields: [{ name: `F${ITEMS - 1}` }] }),
    );
    const narrow = await fake.inject({ url: `/__admin/requests?sinceId=29&body=${oneItem}` });
    expect(narrow.statusCode).toBe(200);
    expect((narrow.json() as JournalEntry[]).map((entry) => entry.id)).toEqual([30]);
  });
});

describe('the messages of waits timing out together share one budget', () => {
  /** The costly shape: sinceId past the journal, so every wait times out. */
  const pastTheJournal = (entries: number) => ({ sinceId: entries, body: noMatchFilter });
  const NOT_SHOWN = `The closest recorded requests are not shown: the waits that timed out in the last second spent the ${MAX_FILTER_STEPS} steps their messages share`;

  it(`100 waits timing out within a second read at most ${BOUND} values in all for their messages`, async () => {
    const { journal, counter } = filled(150);
    const waits = Array.from({ length: 100 }, () => journal.waitFor(pastTheJournal(150), 20));
    counter.reads = 0;
    const settled = await Promise.allSettled(waits);
    expect(counter.reads).toBeGreaterThan(0);
    expect(counter.reads).toBeLessThanOrEqual(BOUND);
    const messages = settled.map((outcome) => {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as Error;
      expect(reason).toBeInstanceOf(WaitTimeoutError);
      return reason.message;
    });
    // The first explains with the closest requests; once the budget is spent, the rest say why not.
    expect(messages[0]).toContain('Closest of the 150 recorded:\n  #150 PUT');
    expect(messages[0]).toContain('id 150 (wanted after 150)');
    expect(messages.at(-1)).toContain(NOT_SHOWN);
    expect(messages.at(-1)).not.toContain('Closest of the');
  });

  it('a wait timing out a second later has a budget of its own again', async () => {
    const { journal, clock } = filled(150);
    await Promise.allSettled(
      Array.from({ length: 10 }, () => journal.waitFor(pastTheJournal(150), 10)),
    );
    clock.now = 999;
    await expect(journal.waitFor(pastTheJournal(150), 10)).rejects.toThrow(NOT_SHOWN);
    clock.now = 1000;
    await expect(journal.waitFor(pastTheJournal(150), 10)).rejects.toThrow(
      'Closest of the 150 recorded:\n  #150 PUT',
    );
  });

  it('an empty journal still says so', async () => {
    const { journal } = countingJournal();
    await expect(journal.waitFor({ body: noMatchFilter }, 10)).rejects.toThrow(
      'The journal is empty',
    );
  });
});
