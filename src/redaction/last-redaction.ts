/**
 * What a redaction gave for the last input, and under which secrets (their revision, `at`): a
 * client sends the same credentials, headers and URL again and again, and an input equal to the
 * last one, under the same secrets, is answered again without a scan.
 */
export class LastRedaction<K, V> {
  private key: K | undefined;
  private value: V | undefined;
  // NaN equals no revision: nothing is a hit before the first `set`.
  private at = Number.NaN;

  constructor(private readonly same: (key: K, last: K) => boolean) {}

  /** What `set` was given for an input equal to `key` under the revision `at`, else undefined. */
  get(key: K, at: number): V | undefined {
    return at === this.at && this.same(key, this.key as K) ? this.value : undefined;
  }

  /** Remembers `value` for `key` under `at`, and gives it back. */
  set(key: K, at: number, value: V): V {
    this.key = key;
    this.value = value;
    this.at = at;
    return value;
  }
}
