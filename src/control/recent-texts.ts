import { flatText } from '../flat-text.js';

/**
 * The last few distinct strings seen, to hand back an equal one kept already. An answer's header
 * block repeats (same type, length and second), and a journal that keeps the one held already,
 * instead of each answer's new copy, holds nothing young per entry: young objects that outlive a
 * garbage collection are copied by it, old ones are not.
 */
// Which of two equal strings is handed back cannot be seen from JavaScript (strings compare by
// value): the mutants disabled below each give back a string equal to the one given, as
// test/unit/recent-texts.test.ts checks; what RecentTexts saves shows in bench/recording.mjs.
export class RecentTexts {
  // Stryker disable next-line ArrayDeclaration: a string kept from the start is only ever handed back for an equal one
  private readonly kept: string[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  /** `text`, or an equal string seen last; `text` is remembered, in one piece, when new. */
  intern(text: string): string {
    // Stryker disable next-line ConditionalExpression: never returning early hands back `text` itself, equal to the one kept (returning `kept` always gives another text, which the tests see)
    for (const kept of this.kept) if (kept === text) return kept;
    this.kept[this.next] = flatText(text);
    // Stryker disable next-line ArithmeticOperator: another place to keep it changes only which strings are kept
    this.next = (this.next + 1) % this.size;
    return text;
  }
}
