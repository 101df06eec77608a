import { describe, expect, it } from 'vitest';
import { TooManyWaitsError } from '../../../src/domain/errors.js';
import { Journal, type JournalEntry, MAX_WAITS } from '../../../src/journal/journal.js';
import { type CompiledFilter, compileFilter } from '../../../src/journal/journal-filter.js';
import { call, useFake } from '../../helpers/fake.js';

const fake = useFake();

const admin = (path: string) => call(fake, 'GET', `/__admin${path}`, { auth: null });

/** Whether a promise has settled by the time the current tasks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('waits for a request', () => {
  it('are woken by a matching entry, not by others', async () => {
    const waiting = fake.waitForRequest({ path: '/content' }, { timeoutMs: 5000 });
    await call(fake, 'GET', 'lists');
    await call(fake, 'GET', 'customfields');
    expect(await settled(waiting)).toBe(false);
    await call(fake, 'GET', 'content');
    const entry = await waiting;
    expect(entry).toMatchObject({ path: '/marketing/v1/content', operation: 'getContent' });
    expect(entry.id).toBe(3);
  });

  it('with a body filter, are woken by a body that matches only', async () => {
    const waiting = fake.waitForRequest(
      { body: { emailAddress: 'dee@example.com' } },
      { timeoutMs: 5000 },
    );
    await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'eve@example.com' } });
    expect(await settled(waiting)).toBe(false);
    await call(fake, 'PUT', 'lists/1/contacts', { body: { emailAddress: 'dee@example.com' } });
    expect((await waiting).request.body).toEqual({ emailAddress: 'dee@example.com' });
  });

  it(`are capped at ${MAX_WAITS} pending: past it, 429 over HTTP and TooManyWaitsError`, async () => {
    await call(fake, 'GET', 'lists');
    const pending = Array.from({ length: MAX_WAITS }, () =>
      fake.waitForRequest({ path: '/content' }, { timeoutMs: 60_000 }),
    );
    const ended = Promise.allSettled(pending);
    const refused = fake.waitForRequest({ path: '/content' }, { timeoutMs: 60_000 });
    await expect(refused).rejects.toThrow(TooManyWaitsError);
    await expect(refused).rejects.toMatchObject({ code: 'TOO_MANY_WAITS', status: 429, max: 100 });
    const response = await admin('/requests/wait?path=/content&timeoutMs=60000');
    expect(response.status).toBe(429);
    expect(response.json()).toEqual({
      message:
        '100 waits for a request (GET /__admin/requests/wait, waitForRequest) are already pending, the most at once: let one end first, or use shorter timeouts.',
    });
    // A wait that an entry already answers does not wait, so the cap does not refuse it.
    expect((await admin('/requests/wait?path=/lists&timeoutMs=0')).status).toBe(200);
    // One matching request ends every pending wait; new ones are taken again.
    await call(fake, 'GET', 'content');
    expect((await ended).every((result) => result.status === 'fulfilled')).toBe(true);
    const again = fake.waitForRequest({ path: '/customfields' }, { timeoutMs: 5000 });
    await call(fake, 'GET', 'customfields');
    expect((await again).path).toBe('/marketing/v1/customfields');
  });
});

describe('ending a wait early', () => {
  it('an aborted signal ends the wait with its reason and frees its place under the cap', async () => {
    const controllers = Array.from({ length: MAX_WAITS }, () => new AbortController());
    const pending = controllers.map((controller) =>
      fake.waitForRequest({ path: '/content' }, { timeoutMs: 60_000, signal: controller.signal }),
    );
    await expect(fake.waitForRequest({ path: '/content' })).rejects.toThrow(TooManyWaitsError);
    const reason = new Error('no longer needed');
    controllers[0]?.abort(reason);
    await expect(pending[0]).rejects.toBe(reason);
    const taken = fake.waitForRequest({ path: '/content' }, { timeoutMs: 60_000 });
    await call(fake, 'GET', 'content');
    expect((await taken).operation).toBe('getContent');
    expect((await Promise.allSettled(pending.slice(1))).map((r) => r.status)).toEqual(
      Array(MAX_WAITS - 1).fill('fulfilled'),
    );
  });

  it('a signal aborted already rejects at once', async () => {
    const controller = new AbortController();
    controller.abort(new Error('before'));
    await expect(
      fake.waitForRequest({ path: '/content' }, { signal: controller.signal }),
    ).rejects.toThrow('before');
  });
});

describe('the work of waits', () => {
  /** A journal whose filters count what they are asked. */
  function countingJournal() {
    const counts = { heads: 0, entries: 0 };
    const compile = (filter: Parameters<typeof compileFilter>[0]): CompiledFilter => {
      const compiled = compileFilter(filter);
      return {
        ...compiled,
        matchesHead: (head) => {
          counts.heads += 1;
          return compiled.matchesHead(head);
        },
        matches: (entry: JournalEntry) => {
          counts.entries += 1;
          return compiled.matches(entry);
        },
      };
    };
    return { journal: new Journal(1000, 64 * 1024, compile), counts };
  }

  const record = (path: string) => ({
    arrived: 0,
    durationMs: 1,
    protocol: 'http',
    method: 'GET',
    url: `/marketing/v1${path}`,
    query: {},
    serverId: undefined,
    operation: undefined,
    format: 'json' as const,
    status: 200,
    fault: undefined,
    requestHeaders: {},
    responseHeaders: {},
  });
  const body = Buffer.from(JSON.stringify({ padding: 'x'.repeat(1000) }));

  it('scan the journal once when they start, then test each new entry once per wait', async () => {
    const { journal, counts } = countingJournal();
    for (let i = 0; i < 1000; i += 1) journal.record(record('/lists'), body, undefined);
    const waits = Array.from({ length: 50 }, () =>
      journal.waitFor({ path: '/content', body: { a: 1 } }, 60_000),
    );
    expect(counts).toEqual({ heads: 50 * 1000, entries: 0 });
    for (let i = 0; i < 10; i += 1) journal.record(record('/lists'), body, undefined);
    expect(counts).toEqual({ heads: 50 * 1000 + 50 * 10, entries: 0 });
    journal.record(record('/content'), body, undefined);
    expect(counts).toEqual({ heads: 50 * 1000 + 50 * 11, entries: 50 });
    journal.cancelWaits();
    const results = await Promise.allSettled(waits);
    expect(results.every((result) => result.status === 'rejected')).toBe(true);
  });
});
