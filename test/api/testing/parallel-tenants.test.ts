import { afterAll, expect as fileExpect, vi } from 'vitest';
import { createTenantTest } from '../../../src/testing/vitest.js';

// One file, one fake, a hundred concurrent tests: each owns a tenant (the vitest fixture) and
// interleaves outages, fault rules, a contact cap, resets and journal assertions with the others.
// No test sees another's data, faults or journal.

const TESTS = 100;
vi.setConfig({ maxConcurrency: TESTS });

const test = createTenantTest({
  seed: () => ({
    customFields: [{ name: 'City' }],
    lists: [{ id: 1, name: 'Newsletter' }],
    contacts: [{ emailAddress: 'seed@example.com', lists: [1] }],
  }),
  fake: { listen: false, journalSize: 10_000 },
});

let running = 0;
let mostAtOnce = 0;
const serverIds = new Set<number>();

/** Lets the other tests run between two steps, so that their steps interleave. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

afterAll(() => {
  // Every test was in flight at once, and each had a server of its own.
  fileExpect(mostAtOnce).toBe(TESTS);
  fileExpect(serverIds.size).toBe(TESTS);
});

for (let index = 0; index < TESTS; index++) {
  test.concurrent(`tenant ${index} sees only itself`, async ({ tenant, fake, expect }) => {
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    serverIds.add(tenant.serverId);
    // Hold until every test has its tenant: the steps below then interleave across all of them.
    while (serverIds.size < TESTS) await yieldTurn();
    const email = `t${index}@example.com`;
    const add = (address: string) =>
      tenant.inject({
        method: 'PUT',
        url: '/lists/1/contacts',
        payload: { emailAddress: address, customFields: [{ name: 'City', value: `c${index}` }] },
      });

    // An outage of its own, of 1 to 3 requests: its client sees exactly those 503s.
    const outage = 1 + (index % 3);
    await tenant.maintenance({ times: outage });
    await yieldTurn();
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= outage; attempt++) {
      statuses.push((await add(email)).statusCode);
      await yieldTurn();
    }
    expect(statuses).toEqual([...Array(outage).fill(503), 200]);

    // A cap on every third tenant: it refuses the next contact there, nowhere else.
    if (index % 3 === 0) await tenant.setMaxContacts(2);
    await yieldTurn();
    expect((await add(`more${index}@example.com`)).statusCode).toBe(index % 3 === 0 ? 403 : 200);

    // A fault rule of its own on a path others use.
    if (index % 2 === 0)
      await tenant.faults.add({
        kind: 'status',
        status: 500,
        match: { path: '/customfields' },
        times: 1,
      });
    await yieldTurn();
    expect((await tenant.inject('/customfields')).statusCode).toBe(index % 2 === 0 ? 500 : 200);

    // Its journal holds its own exchanges, in order, and nothing of the other 99.
    const journal = await tenant.requests();
    expect(journal.every((entry) => entry.serverId === tenant.serverId)).toBe(true);
    expect(journal.map((entry) => entry.status)).toEqual([
      ...statuses,
      index % 3 === 0 ? 403 : 200,
      index % 2 === 0 ? 500 : 200,
    ]);
    await expect(tenant).toHaveReceivedRequestTimes({ status: 503 }, outage);
    await expect(tenant).toHaveReceivedRequest({ body: { emailAddress: email } });

    // Its data: the seed's contact and its own, never a neighbour's.
    const emails = (await tenant.exportState()).contacts?.map((contact) => contact.emailAddress);
    expect(emails).toEqual([
      'seed@example.com',
      email,
      ...(index % 3 === 0 ? [] : [`more${index}@example.com`]),
    ]);
    expect(fake.server(tenant.serverId).contact(email)?.customFields).toEqual({
      City: `c${index}`,
    });

    // Half reset mid-way, while the others still work: back to the seed, journal restarted.
    if (index % 2 === 1) {
      await tenant.reset();
      await yieldTurn();
      expect((await tenant.exportState()).contacts).toHaveLength(1);
      expect(await tenant.requests()).toEqual([]);
      expect(await tenant.faults.list()).toEqual([]);
      expect((await add(email)).statusCode).toBe(200);
    }
    running -= 1;
  });
}
