import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidOptionError } from '../../../src/domain/errors.js';
import { Journal, type JournalRecord } from '../../../src/journal/journal.js';
import {
  BODY_BYTES_PER_STEP,
  type FilterBudget,
  MAX_FILTER_STEPS,
} from '../../../src/journal/journal-budgets.js';
import type { CompiledFilter } from '../../../src/journal/journal-filter.js';
import { WaitTimeoutError } from '../../../src/journal/wait-timeout-error.js';
import { listsRecord } from '../../helpers/journal-record.js';

// How the journal spends the budget of
// a body filter, with scripted filters (the `compile` a Journal takes) whose cost and answer a
// test chooses, and which count how often they are asked.

const facts = (method = 'GET') => listsRecord({ method });

interface Script {
  /** Whether the filter reads the body (else the head decides alone). */
  readonly body: boolean;
  /** Steps each call to `matches` spends, in order (0 once the list is used up). */
  readonly costs?: readonly number[];
  /** The ids it matches, when its budget lasts. */
  readonly ids: readonly number[];
}

/**
 * A filter on `method: 'PUT'` (the head) whose `matches` spends what `costs` says, as a real one
 * does: it stops one step past its budget, and then does not match.
 */
function scripted({ body, costs = [], ids }: Script) {
  const calls: number[] = [];
  const heads: number[] = [];
  const filter: CompiledFilter = {
    matchesHead: (head) => {
      heads.push(head.id);
      return head.method === 'PUT';
    },
    needsEntry: body,
    matches: (entry, budget?: FilterBudget) => {
      const steps = budget ?? { steps: MAX_FILTER_STEPS };
      steps.steps -= Math.min(costs[calls.length] ?? 0, steps.steps + 1);
      calls.push(entry.id);
      return steps.steps >= 0 && ids.includes(entry.id);
    },
    differences: () => ['scripted'],
    headDifferences: () => [],
    describe: () => '{"scripted":true}',
  };
  return { filter, calls, heads };
}

/** A journal whose filters are the scripts given, one per compile, in order. */
function journalOf(...scripts: ReturnType<typeof scripted>[]) {
  const queue = [...scripts];
  return new Journal(10, 1024, () => queue.shift()!.filter);
}

describe('a filter that reads no body', () => {
  it('is decided on the head alone: no entry is tested, in a read, a wait or a new entry', async () => {
    const read = scripted({ body: false, ids: [] });
    const recorded = scripted({ body: false, ids: [] });
    const pending = scripted({ body: false, ids: [] });
    const journal = journalOf(read, recorded, pending);
    journal.record(facts('GET'));
    journal.record(facts('PUT'));
    expect(journal.entries({ method: 'PUT' }).map((entry) => entry.id)).toEqual([2]);
    await expect(journal.waitFor({ method: 'PUT' }, 1000)).resolves.toMatchObject({ id: 2 });
    journal.clear();
    const waiting = journal.waitFor({ method: 'PUT' }, 60_000);
    journal.record(facts('PUT'));
    await expect(waiting).resolves.toMatchObject({ id: 3 });
    expect([read.calls, recorded.calls, pending.calls]).toEqual([[], [], []]);
  });
});

describe('a body filter in a read', () => {
  it('is tested on each entry whose head matches, and keeps those it matches', () => {
    const read = scripted({ body: true, ids: [3] });
    const journal = journalOf(read);
    for (const method of ['PUT', 'GET', 'PUT']) journal.record(facts(method));
    expect(journal.entries({ body: {} }).map((entry) => entry.id)).toEqual([3]);
    expect(read.calls).toEqual([1, 3]);
  });

  it('reads the request body parsed, as the entry shows it', () => {
    const bodies: unknown[] = [];
    const { filter } = scripted({ body: true, ids: [] });
    const journal = new Journal(10, 1024, () => ({
      ...filter,
      matches: (entry) => bodies.push(entry.request.body) === 0,
    }));
    journal.record(facts('PUT'), Buffer.from('{"a":[1]}'));
    expect(journal.entries({ body: {} })).toEqual([]);
    expect(bodies).toEqual([{ a: [1] }]);
  });

  it('may spend the whole budget to the last step: still an answer, and the scan goes on', () => {
    const read = scripted({ body: true, costs: [MAX_FILTER_STEPS, 0], ids: [2] });
    const journal = journalOf(read);
    journal.record(facts('PUT'));
    journal.record(facts('PUT'));
    expect(journal.entries({ body: {} }).map((entry) => entry.id)).toEqual([2]);
    expect(read.calls).toEqual([1, 2]);
  });

  it('one step past the budget is refused with 400, saying how to narrow the read', () => {
    const read = scripted({ body: true, costs: [MAX_FILTER_STEPS + 1], ids: [1] });
    const journal = journalOf(read);
    journal.record(facts('PUT'));
    journal.record(facts('PUT'));
    const error = (() => {
      try {
        journal.entries({ body: {} });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toBe(
      `Bad filter: testing the body filter against the journal needed more than ${MAX_FILTER_STEPS} steps in one read (a step is a value compared, or ${BODY_BYTES_PER_STEP} bytes of request body decoded); narrow the read with sinceId, operation, path, method or status, or give fewer array items.`,
    );
    // The scan stopped at the first entry: the second was not even looked at.
    expect(read.calls).toEqual([1]);
    expect(read.heads).toEqual([1]);
  });

  it('decoding the request bodies spends the budget too', () => {
    const bytes = 400;
    const decode = bytes / BODY_BYTES_PER_STEP;
    const body = Buffer.from('x'.repeat(bytes));
    // The first test leaves exactly what decoding the second body costs: both are tested.
    const exact = scripted({ body: true, costs: [MAX_FILTER_STEPS - 2 * decode], ids: [2] });
    const one = journalOf(exact);
    one.record(facts('PUT'), body);
    one.record(facts('PUT'), body);
    expect(one.entries({ body: {} }).map((entry) => entry.id)).toEqual([2]);
    expect(exact.calls).toEqual([1, 2]);
    // One step less: decoding the second body spends the budget, which is refused untested.
    const over = scripted({ body: true, costs: [MAX_FILTER_STEPS - 2 * decode + 1], ids: [2] });
    const two = journalOf(over);
    two.record(facts('PUT'), body);
    two.record(facts('PUT'), body);
    expect(() => two.entries({ body: {} })).toThrow(InvalidOptionError);
    expect(over.calls).toEqual([1]);
  });
});

describe('a body filter in a wait', () => {
  it('that spends the whole budget on what is recorded still waits for a new entry', async () => {
    const wait = scripted({ body: true, costs: [MAX_FILTER_STEPS], ids: [2] });
    const journal = journalOf(wait);
    journal.record(facts('PUT'));
    const waiting = journal.waitFor({ body: {} }, 60_000);
    journal.record(facts('PUT'));
    await expect(waiting).resolves.toMatchObject({ id: 2 });
  });

  it('that spends more on what is recorded is refused at once', async () => {
    const wait = scripted({ body: true, costs: [MAX_FILTER_STEPS + 1], ids: [] });
    const journal = journalOf(wait);
    journal.record(facts('PUT'));
    await expect(journal.waitFor({ body: {} }, 60_000)).rejects.toBeInstanceOf(InvalidOptionError);
  });

  it('that times out with an empty journal says so', async () => {
    const wait = scripted({ body: true, ids: [] });
    const error = await journalOf(wait)
      .waitFor({ body: {} }, 1)
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as Error).message).toBe(
      'No request matching {"scripted":true} arrived within 1 ms. The journal is empty: the fake received no request under /marketing/.',
    );
  });
});

describe('a new entry shared by waits with body filters', () => {
  /** The wait's answer, or `cancelled` when it was still pending at cancelWaits. */
  const outcome = (wait: Promise<{ id: number }>) =>
    wait.then(
      (entry) => entry.id,
      () => 'cancelled',
    );

  it('gives each an equal share, then what the others left to those that spent theirs', async () => {
    const share = MAX_FILTER_STEPS / 4;
    // Spends its share and one step: finishes on what the others left (share - 1 - 10,000).
    const late = scripted({ body: true, costs: [MAX_FILTER_STEPS, 50_000], ids: [1] });
    // Spends 10,000 and does not match; ends with steps left: not asked again.
    const cheap = scripted({ body: true, costs: [10_000], ids: [] });
    // Matches at no cost.
    const free = scripted({ body: true, costs: [0], ids: [1] });
    // Spends exactly its share and does not match: not spent, so not asked again.
    const exact = scripted({ body: true, costs: [share], ids: [] });
    const journal = journalOf(late, cheap, free, exact);
    const waits = [late, cheap, free, exact].map(() =>
      outcome(journal.waitFor({ body: {} }, 60_000)),
    );
    journal.record(facts('PUT'));
    journal.cancelWaits();
    expect(await Promise.all(waits)).toEqual([1, 'cancelled', 1, 'cancelled']);
    expect([late.calls, cheap.calls, free.calls, exact.calls]).toEqual([[1, 1], [1], [1], [1]]);
  });

  it('does not count an entry a wait finished testing on its second try', async () => {
    const second = scripted({ body: true, costs: [MAX_FILTER_STEPS, 1000], ids: [] });
    const free = scripted({ body: true, costs: [0], ids: [] });
    const journal = journalOf(second, free);
    const timedOut = journal.waitFor({ body: {} }, 1).then(
      () => 'answered',
      (error: Error) => error.message,
    );
    const other = outcome(journal.waitFor({ body: {} }, 60_000));
    journal.record(facts('PUT'));
    const message = await timedOut;
    journal.cancelWaits();
    expect(await other).toBe('cancelled');
    expect(second.calls).toEqual([1, 1]);
    expect(message).toMatch(/^No request matching \{"scripted":true\} arrived within 1 ms\. /);
    expect(message).not.toContain('Not fully tested');
  });

  for (const entries of [5, 7]) {
    it(`names the entries a wait could not test (${entries} of them) when it times out`, async () => {
      // The first spends its share and one step; the second leaves exactly nothing for it.
      const spent = scripted({ body: true, costs: Array(entries).fill(MAX_FILTER_STEPS), ids: [] });
      const rest = scripted({ body: true, costs: Array(entries).fill(99_999), ids: [] });
      const journal = journalOf(spent, rest);
      const timedOut = journal.waitFor({ body: {} }, 1).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      const other = outcome(journal.waitFor({ body: {} }, 60_000));
      for (let i = 0; i < entries; i += 1) journal.record(facts('PUT'));
      const message = await timedOut;
      journal.cancelWaits();
      expect(await other).toBe('cancelled');
      const ids = entries > 5 ? '#1, #2, #3, #4, #5 and 2 more' : '#1, #2, #3, #4, #5';
      expect(message).toMatch(/^No request matching \{"scripted":true\} arrived within 1 ms\. /);
      expect(
        message.endsWith(
          `\nNot fully tested (the body filter spent its share of the ${MAX_FILTER_STEPS} steps each new entry may take across all pending waits): ${ids}.`,
        ),
      ).toBe(true);
      // Nothing was left for a second try.
      expect(spent.calls).toHaveLength(entries);
    });
  }
});

describe('the messages of waits timing out', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Its message's closest entries cost `spend` steps each; `body: false` judges heads only. */
  function explained(body: boolean, spend = 0) {
    const { filter } = scripted({ body, ids: [] });
    return {
      ...filter,
      headDifferences: () => ['head'],
      differences: (_entry: unknown, budget?: FilterBudget) => {
        if (budget) budget.steps -= spend;
        return ['head', 'body'];
      },
    } satisfies CompiledFilter;
  }

  const timeOut = async (journal: Journal, ms = 10) => {
    const message = journal.waitFor({}, ms).catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(ms);
    return message;
  };

  it('share one budget for a second by the journal own clock, then have a new one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    // The first message spends the budget to its last step (one head judged, the rest here).
    const filters = [
      explained(true, MAX_FILTER_STEPS - 1),
      explained(false),
      explained(false),
      explained(false),
    ];
    // The budget is given when the first message is written (at 10 ms); 999 ms later it is
    // still spent, 1000 ms later there is a new one.
    const journal = new Journal(10, 1024, () => filters.shift()!);
    journal.record(facts('GET'));
    const closest = 'Closest of the 1 recorded:\n  #1 GET /marketing/v1/lists -> 200';
    const notShown = `The closest recorded requests are not shown: the waits that timed out in the last second spent the ${MAX_FILTER_STEPS} steps their messages share; read the journal (GET /__admin/requests) to see what arrived.`;
    expect(await timeOut(journal)).toContain(`${closest}: head; body`);
    // Judging heads only, with nothing left: not shown either.
    expect(await timeOut(journal)).toBe(
      `No request matching {"scripted":true} arrived within 10 ms. ${notShown}`,
    );
    await vi.advanceTimersByTimeAsync(1008 - 20);
    expect(await timeOut(journal, 1)).toContain(notShown);
    expect(await timeOut(journal, 1)).toContain(`${closest}: head`);
  });
});

describe('recording', () => {
  /** `facts()` whose every property read is counted in `reads`. */
  function watched(method: string, reads: string[]): JournalRecord {
    return new Proxy(facts(method), {
      get(target, name, receiver) {
        reads.push(String(name));
        return Reflect.get(target, name, receiver);
      },
    });
  }

  it('reads each fact of a record once, as it records it, and answers a wait from its own copy', async () => {
    const journal = new Journal(10, 1024);
    const reads: string[] = [];
    journal.record(watched('GET', reads));
    const once = [...reads];
    expect(once).toContain('method');
    expect(new Set(once).size).toBe(once.length);
    reads.length = 0;
    const waiting = journal.waitFor({ method: 'PUT' }, 60_000);
    journal.record(watched('PUT', reads));
    await expect(waiting).resolves.toMatchObject({ id: 2, method: 'PUT' });
    expect(reads.sort()).toEqual([...once].sort());
  });

  it('holds no record it was given: changing its facts afterwards changes no entry', () => {
    const journal = new Journal(10, 1024);
    const given = facts('GET') as { -readonly [K in keyof JournalRecord]: JournalRecord[K] };
    journal.record(given);
    const before = journal.entries();
    given.method = 'DELETE';
    given.url = '/marketing/v1/changed';
    given.status = 599;
    given.durationMs = 99;
    expect(journal.entries()).toEqual(before);
  });
});
