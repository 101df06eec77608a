import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../../src/domain/errors.js';
import { Journal } from '../../../src/journal/journal.js';
import { compileFilter } from '../../../src/journal/journal-filter.js';
import { addByEmailRecord } from '../../helpers/journal-record.js';

// A wait first looks through what is recorded. Waits asked together share one read's budget for
// that first look (per second): 500 waits with body filters that never match, over a journal of
// large bodies, cost one read's work in all, not 500 (they held the event loop for seconds, and a
// PUT waited behind them). Counted, not timed.

function journalOfLargeBodies(clock: () => number) {
  let tested = 0;
  const compile = (filter: Parameters<typeof compileFilter>[0]) => {
    const compiled = compileFilter(filter);
    return {
      ...compiled,
      matches: (...args: Parameters<typeof compiled.matches>) => {
        tested += 1;
        return compiled.matches(...args);
      },
    };
  };
  const journal = new Journal(300, 64 * 1024, compile, clock);
  const body = Buffer.from(
    JSON.stringify({ emailAddress: 'ann@example.com', pad: 'x'.repeat(60_000) }),
  );
  for (let index = 0; index < 300; index++) journal.record(addByEmailRecord(), body);
  return { journal, tested: () => tested };
}

describe('the first scans of waits asked together', () => {
  it('share one read of budget per second: the rest are refused at once, without scanning', async () => {
    let now = 0;
    const { journal, tested } = journalOfLargeBodies(() => now);
    const never = { body: { emailAddress: 'nobody@example.com' } };
    const first = await journal.waitFor(never, 10).catch((error: Error) => error);
    expect(first).toBeInstanceOf(InvalidOptionError);
    const afterFirst = tested();
    expect(afterFirst).toBeGreaterThan(0);
    const rest = await Promise.all(
      Array.from({ length: 499 }, () => journal.waitFor(never, 10).catch((error: Error) => error)),
    );
    for (const error of rest) {
      expect(error).toBeInstanceOf(InvalidOptionError);
      expect((error as Error).message).toContain('ask again in a second');
    }
    expect(tested()).toBe(afterFirst);
    // A second later, a wait gets a read's budget again.
    now += 1000;
    await expect(journal.waitFor(never, 10)).rejects.toThrow('needed more than');
    expect(tested()).toBeGreaterThan(afterFirst);
  });

  it('leave waits without a body filter alone, budget or not', async () => {
    const { journal } = journalOfLargeBodies(() => 0);
    await journal
      .waitFor({ body: { emailAddress: 'nobody@example.com' } }, 10)
      .catch(() => undefined);
    await expect(journal.waitFor({ method: 'PUT' }, 10)).resolves.toMatchObject({ method: 'PUT' });
  });
});

describe("a tenant's first scans", () => {
  it("spend its own budget: another tenant's costly waits never refuse its wait", async () => {
    const { journal } = journalOfLargeBodies(() => 0);
    const never = { body: { emailAddress: 'nobody@example.com' } };
    // Tenant 1234 (the server of the recorded entries) spends its budget, and is refused.
    const costly = { serverId: 1234, sinceId: 0 };
    for (let index = 0; index < 3; index++) {
      await journal
        .waitFor({ ...never, serverId: 1234 }, 10, undefined, costly)
        .catch(() => undefined);
    }
    await expect(
      journal.waitFor({ ...never, serverId: 1234 }, 10, undefined, costly),
    ).rejects.toThrow('ask again in a second');
    // Another tenant's wait, in the same second, still looks through the journal.
    const other = { serverId: 5678, sinceId: 0 };
    await expect(
      journal.waitFor({ ...never, serverId: 5678 }, 10, undefined, other),
    ).rejects.toThrow(/No request matching/);
  });
});
