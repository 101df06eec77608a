/**
 * Every key the journal must keep out of what it records, and what changed, in order: the keys of
 * the servers held now, and the last {@link RETIRED_KEYS} that stopped being one (a server
 * removed, a key regenerated or reset away; a straggling client may still send them). The redactor
 * reads the changes since it last looked, so a fake with thousands of tenants pays for the keys
 * that came or went, never for all of them.
 */

/** Keys kept after they stopped being one: enough for a suite's stragglers, bounded. */
export const RETIRED_KEYS = 1000;
/** Changes kept for a reader that is behind; one further behind reads every key again. */
const KEPT_CHANGES = 4096;

/** A key that became one to redact, or stopped being one. */
export interface KeyChange {
  readonly key: string;
  readonly added: boolean;
}

export class KeyLedger {
  /** How many servers hold each key, plus one while it is retired. */
  private readonly counts = new Map<string, number>();
  private readonly retired = new Set<string>();
  private readonly changes: KeyChange[] = [];
  /** The number of the first change kept in {@link changes}. */
  private firstChange = 0;

  /** The number of the next change: a reader that has read up to here is up to date. */
  get position(): number {
    return this.firstChange + this.changes.length;
  }

  /** Every key to redact now. */
  keys(): IterableIterator<string> {
    return this.counts.keys();
  }

  /**
   * The changes since `position` (a value {@link position} had), in order; undefined when they are
   * no longer kept, and the reader must read {@link keys} whole.
   */
  changesSince(position: number): readonly KeyChange[] | undefined {
    if (position < this.firstChange || position > this.position) return undefined;
    return this.changes.slice(position - this.firstChange);
  }

  /** A server holds `key` now. */
  hold(key: string): void {
    this.count(key, 1);
  }

  /** A server no longer holds `key`: it is kept as retired. */
  release(key: string): void {
    this.retire(key);
    this.count(key, -1);
  }

  private retire(key: string): void {
    if (this.retired.delete(key)) this.count(key, -1);
    this.retired.add(key);
    this.count(key, 1);
    if (this.retired.size > RETIRED_KEYS) {
      const oldest = this.retired.values().next().value!;
      this.retired.delete(oldest);
      this.count(oldest, -1);
    }
  }

  private count(key: string, delta: number): void {
    const count = (this.counts.get(key) ?? 0) + delta;
    if (count === 0) {
      this.counts.delete(key);
      this.log({ key, added: false });
    } else {
      this.counts.set(key, count);
      if (count === delta) this.log({ key, added: true });
    }
  }

  private log(change: KeyChange): void {
    this.changes.push(change);
    if (this.changes.length > 2 * KEPT_CHANGES) {
      const dropped = this.changes.length - KEPT_CHANGES;
      this.changes.splice(0, dropped);
      this.firstChange += dropped;
    }
  }
}
