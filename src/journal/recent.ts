import { flatText } from '../flat-text.js';

/**
 * The last few distinct values seen, to hand back an equal one kept already. What the journal
 * records repeats (an answer's header block, a body sent again): keeping the one held already,
 * instead of each exchange's new copy, leaves nothing young per entry, and young objects that
 * outlive a garbage collection are copied by it, old ones are not.
 */
export class Recent<T> {
  private readonly kept: T[] = [];
  private next = 0;

  /** `keepAs` turns a new value into the one kept (the same by default). */
  constructor(
    private readonly size: number,
    private readonly same: (kept: T, value: T) => boolean,
    private readonly keepAs: (value: T) => T = (value) => value,
  ) {}

  /** `value`, or an equal one kept lately; a new value is kept, as `keepAs` makes it. */
  intern(value: T): T {
    for (const kept of this.kept) if (this.same(kept, value)) return kept;
    this.kept[this.next] = this.keepAs(value);
    this.next = (this.next + 1) % this.size;
    return value;
  }
}

/**
 * Recent strings, each kept in one piece (flattened): which of two equal strings comes back
 * cannot be seen from JavaScript, only in the garbage collector's figures (bench/recording.mjs).
 */
export function recentTexts(size: number): Recent<string> {
  // Stryker disable next-line ArrowFunction,ConditionalExpression: equivalent for strings (see above): a string never found again is kept again, and which of two equal strings comes back cannot be seen; `Recent` itself is tested on objects (test/unit/journal/recent.test.ts)
  return new Recent<string>(size, (kept, text) => kept === text, flatText);
}
