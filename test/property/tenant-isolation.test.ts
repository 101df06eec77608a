import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakeMarketingServer,
  type FakeMarketingServer,
  type Tenant,
} from '../../src/index.js';

// Random operations on a few tenants of one fake, run concurrently: each tenant must end exactly
// as a model of it alone says (its contacts, and the statuses its journal holds), whatever its
// neighbours did in between.

type Command =
  | { kind: 'add'; email: number }
  | { kind: 'cap'; max: number }
  | { kind: 'outage'; times: number }
  | { kind: 'reset' }
  | { kind: 'clearFaults' };

const COMMAND: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), email: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('cap' as const), max: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ kind: fc.constant('outage' as const), times: fc.integer({ min: 1, max: 2 }) }),
  fc.constant({ kind: 'reset' as const }),
  fc.constant({ kind: 'clearFaults' as const }),
);

interface Model {
  emails: string[];
  cap: number;
  outage: number[];
  statuses: number[];
}

const SEED_CAP = 10_000;
const seed = { maxContacts: SEED_CAP, lists: [{ id: 1, name: 'Newsletter' }] };

async function run(tenant: Tenant, commands: Command[], model: Model): Promise<void> {
  for (const command of commands) {
    switch (command.kind) {
      case 'add': {
        const email = `c${command.email}@example.com`;
        const response = await tenant.inject({
          method: 'PUT',
          url: '/lists/1/contacts',
          payload: { emailAddress: email },
        });
        let expected: number;
        if (model.outage.length > 0) {
          expected = 503;
          model.outage[0]! -= 1;
          if (model.outage[0] === 0) model.outage.shift();
        } else if (model.emails.includes(email)) {
          expected = 200;
        } else if (model.emails.length >= model.cap) {
          expected = 403;
        } else {
          expected = 200;
          model.emails.push(email);
        }
        expect(response.statusCode).toBe(expected);
        model.statuses.push(expected);
        break;
      }
      case 'cap':
        await tenant.setMaxContacts(command.max);
        model.cap = command.max;
        break;
      case 'outage':
        await tenant.maintenance({ times: command.times });
        model.outage.push(command.times);
        break;
      case 'reset':
        await tenant.reset();
        Object.assign(model, { emails: [], cap: SEED_CAP, outage: [], statuses: [] });
        break;
      case 'clearFaults':
        await tenant.faults.clear();
        model.outage = [];
        break;
    }
    // Another tenant's step may run here.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

let fake: FakeMarketingServer;
beforeAll(async () => {
  fake = await createFakeMarketingServer({ journalSize: 100_000 });
});
afterAll(() => fake?.close());

describe('tenants of one fake, driven concurrently', () => {
  it('each ends as its own model says: contacts and journal', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(COMMAND, { maxLength: 12 }), { minLength: 2, maxLength: 5 }),
        async (plans) => {
          const tenants = await Promise.all(plans.map(() => fake.tenant(seed)));
          try {
            const models: Model[] = plans.map(() => ({
              emails: [],
              cap: SEED_CAP,
              outage: [],
              statuses: [],
            }));
            await Promise.all(
              tenants.map((tenant, index) => run(tenant, plans[index]!, models[index]!)),
            );
            for (const [index, tenant] of tenants.entries()) {
              const model = models[index]!;
              const state = await tenant.exportState();
              expect(state.contacts?.map((contact) => contact.emailAddress).sort()).toEqual(
                [...model.emails].sort(),
              );
              expect(state.maxContacts).toBe(model.cap);
              const journal = await tenant.requests();
              expect(journal.map((entry) => entry.status)).toEqual(model.statuses);
              expect(journal.every((entry) => entry.serverId === tenant.serverId)).toBe(true);
              expect((await tenant.faults.list()).length).toBe(model.outage.length);
            }
          } finally {
            await Promise.all(tenants.map((tenant) => tenant.close()));
          }
          // Closed tenants leave nothing behind: no server, no rule.
          expect(fake.exportState().servers).toEqual([]);
          expect(fake.faults.list()).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });
});
