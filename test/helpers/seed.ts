import { expect } from 'vitest';
import { Store } from '../../src/domain/store.js';
import { SeedError } from '../../src/index.js';
import { thrownBy } from './thrown.js';

/** The clock of the seed tests: dates in seeds are checked against it. */
export const NOW = Date.parse('2026-11-22T12:00:00Z');

/** An empty store on the test clock. */
export function store(maxContacts = 10_000): Store {
  return new Store({ defaultMaxContacts: maxContacts, now: () => NOW });
}

/** A seed of server 1234 (key `k`) with the given parts. */
export function server(extra: Record<string, unknown>) {
  return { servers: [{ serverId: 1234, key: 'k', ...extra }] };
}

/** The SeedError a seed raises, checking that it changed nothing in the store. */
export function seedErrorOf(seed: unknown, into = store()): SeedError {
  const before = into.exportState();
  const caught = thrownBy(() => into.seed(seed), SeedError);
  expect(into.exportState()).toEqual(before);
  return caught;
}
