import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FakeMarketingServer, FakeMarketingServerError } from '../../src/index.js';
import { useFake } from '../helpers/fake.js';

/**
 * The handle's methods take the same inputs as the control API and refuse them the same way:
 * with an error of the error table (a FakeMarketingServerError with its code and status), never
 * a TypeError or RangeError, and a refused call changes nothing.
 */
const fake = useFake({ perFile: true });

const ANY = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
  maxDepth: 3,
});
/** Values at the edges of every range, besides anything at all. */
const EDGES = fc.constantFrom(
  1e20,
  -1,
  0,
  0.5,
  2 ** 31,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '1234',
  '',
  null,
  undefined,
  [],
  {},
  { durationMs: 1e20 },
  { kind: 'unavailable', durationMs: 1e20 },
  { timeoutMs: -1 },
  { timeoutMs: 1e20 },
  { timeoutMs: Object.create(null) },
  { timeoutMs: 5n },
  { key: 'x'.repeat(201) },
  { servers: [{ serverId: 1234, key: 'other' }] },
);
const VALUE = fc.oneof(ANY, EDGES);

type Call = (target: FakeMarketingServer, a: unknown, b: unknown) => unknown;
const METHODS: Record<string, Call> = {
  seed: (target, a) => target.seed(a as never),
  addServer: (target, a) => target.addServer(a as never),
  setMaxContacts: (target, a, b) => target.setMaxContacts(a as never, b as never),
  setMaxContactsOf1234: (target, a) => target.setMaxContacts(1234, a as never),
  regenerateKey: (target, a) => target.regenerateKey(a as never),
  resetServer: (target, a) => target.resetServer(a as never),
  maintenance: (target, a) => target.maintenance(a as never),
  'faults.add': (target, a) => target.faults.add(a as never),
  'faults.remove': (target, a) => target.faults.remove(a as never),
  requests: (target, a) => target.requests(a as never),
  requestsHar: (target, a) => target.requestsHar(a as never),
  server: (target, a) => target.server(a as never),
};

describe('the handle refuses bad input with typed errors and changes nothing', () => {
  it.each(Object.entries(METHODS))('%s', (_name, method) => {
    fc.assert(
      fc.property(VALUE, VALUE, (a, b) => {
        const state = fake.exportState();
        const faults = fake.faults.list();
        try {
          method(fake, a, b);
        } catch (error) {
          expect(error).toBeInstanceOf(FakeMarketingServerError);
          expect((error as FakeMarketingServerError).status).toBeGreaterThanOrEqual(400);
          expect((error as FakeMarketingServerError).status).toBeLessThan(500);
          expect(fake.exportState()).toEqual(state);
          expect(fake.faults.list()).toEqual(faults);
        } finally {
          fake.faults.clear();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('waitForRequest refuses bad options and filters at once, with typed errors', () => {
    fc.assert(
      fc.property(VALUE, VALUE, (filter, options) => {
        try {
          // A valid wait waits: left running, it ends when the fake closes.
          fake.waitForRequest(filter as never, options as never).catch(() => undefined);
        } catch (error) {
          expect(error).toBeInstanceOf(FakeMarketingServerError);
        }
      }),
      { numRuns: 150 },
    );
  });
});
