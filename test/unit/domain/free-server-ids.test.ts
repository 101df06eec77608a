import { describe, expect, it } from 'vitest';
import { StateError } from '../../../src/domain/errors.js';
import { Store } from '../../../src/domain/store.js';

// Generated server ids (addServer, tenant without a serverId) are the free 5-digit ones, however
// few are left; when none is, the store says so instead of looking for ever.

describe('a generated server id', () => {
  it('is found while only one is free, and refused with what to do when none is', () => {
    const store = new Store({ defaultMaxContacts: 10, now: () => 0 });
    for (let serverId = 10000; serverId <= 99999; serverId++) {
      if (serverId !== 54321) store.addServer({ serverId, key: 'k' });
    }
    expect(store.addTenant().serverId).toBe(54321);
    expect(() => store.addServer()).toThrow(StateError);
    expect(() => store.addTenant()).toThrow(/Every 5-digit server id \(10000 to 99999\) is taken/);
    // A 4-digit id can still be given.
    expect(store.addServer({ serverId: 1000 }).serverId).toBe(1000);
  });
});
