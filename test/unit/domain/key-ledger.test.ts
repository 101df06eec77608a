import { describe, expect, it } from 'vitest';
import { KeyLedger, RETIRED_KEYS } from '../../../src/domain/key-ledger.js';
import { Store } from '../../../src/domain/store.js';

// The keys the journal keeps out of what it records, and their changes in order: what the redactor
// reads so that it pays for the keys that came or went, never for all of them.

describe('the key ledger', () => {
  it('tells which keys came and went since a position', () => {
    const ledger = new KeyLedger();
    const start = ledger.position;
    ledger.hold('key-one-111');
    ledger.hold('key-two-222');
    expect(ledger.changesSince(start)).toEqual([
      { key: 'key-one-111', added: true },
      { key: 'key-two-222', added: true },
    ]);
    const middle = ledger.position;
    // Released, it stays as retired: nothing changes for the reader.
    ledger.release('key-one-111');
    expect(ledger.changesSince(middle)).toEqual([]);
    expect([...ledger.keys()].sort()).toEqual(['key-one-111', 'key-two-222']);
    expect(ledger.changesSince(ledger.position)).toEqual([]);
    expect(ledger.changesSince(ledger.position + 1)).toBeUndefined();
  });

  it(`keeps the last ${RETIRED_KEYS} retired keys, and says when the oldest goes`, () => {
    const ledger = new KeyLedger();
    for (let index = 0; index <= RETIRED_KEYS; index++) {
      ledger.hold(`retired-key-${index}`);
      ledger.release(`retired-key-${index}`);
    }
    const keys = [...ledger.keys()];
    expect(keys).toHaveLength(RETIRED_KEYS);
    expect(keys).not.toContain('retired-key-0');
    expect(keys).toContain(`retired-key-${RETIRED_KEYS}`);
    const before = ledger.position;
    ledger.hold('one-more-key');
    ledger.release('one-more-key');
    expect(ledger.changesSince(before)).toEqual([
      { key: 'one-more-key', added: true },
      { key: 'retired-key-1', added: false },
    ]);
  });

  it('counts a key two servers hold once, and keeps it while one still does', () => {
    const ledger = new KeyLedger();
    ledger.hold('shared-key-1');
    ledger.hold('shared-key-1');
    const position = ledger.position;
    ledger.release('shared-key-1');
    ledger.release('shared-key-1');
    expect(ledger.changesSince(position)).toEqual([]);
    expect([...ledger.keys()]).toEqual(['shared-key-1']);
  });

  it('tells a reader too far behind to read every key again', () => {
    const ledger = new KeyLedger();
    for (let index = 0; index < 10_000; index++) ledger.hold(`k-${index}-abcdef`);
    expect(ledger.changesSince(0)).toBeUndefined();
    expect(ledger.changesSince(ledger.position - 10)).toHaveLength(10);
  });
});

describe("the store's keys", () => {
  it('follow every way a key comes and goes', () => {
    const store = new Store({ defaultMaxContacts: 10, now: () => 0 });
    store.seed({ servers: [{ serverId: 1234, key: 'seeded-key-1234' }] });
    store.markBaseline();
    const tenant = store.addTenant({ key: 'tenant-key-5678' });
    const added = store.addServer({ key: 'added-key-9012' });
    const fresh = store.regenerateKey(1234);
    store.removeServer(tenant.serverId);
    store.reset();
    // Every key that was one is kept, retired or live; the regenerated one went with the reset.
    expect(new Set(store.keys())).toEqual(
      new Set(['seeded-key-1234', 'tenant-key-5678', 'added-key-9012', fresh]),
    );
    expect(added.serverId).toBeGreaterThan(0);
  });
});

describe('the redactor following the ledger', () => {
  it('reads every key once, then only the changes, and redacts the new key at once', async () => {
    const { Redactor } = await import('../../../src/redaction/redact.js');
    const ledger = new KeyLedger();
    for (let index = 0; index < 2000; index++) ledger.hold(`tenant-key-${index}-xyz`);
    let revision = 0;
    let wholeReads = 0;
    const redactor = new Redactor(
      {
        revision: () => revision,
        secrets: () => {
          wholeReads += 1;
          return ledger.keys();
        },
        keyChanges: (position) => ({
          position: ledger.position,
          changes: position === undefined ? undefined : ledger.changesSince(position),
        }),
      },
      1024,
    );
    expect(redactor.url('/x/tenant-key-7-xyz')).toBe('/x/<redacted>');
    expect(wholeReads).toBe(1);
    ledger.hold('brand-new-key-1');
    ledger.release('tenant-key-7-xyz');
    revision += 1;
    expect(redactor.url('/x/brand-new-key-1')).toBe('/x/<redacted>');
    // Retired, still redacted.
    expect(redactor.url('/y/tenant-key-7-xyz')).toBe('/y/<redacted>');
    expect(wholeReads).toBe(1);
  });
});
