import { flatText } from '../flat-text.js';

/**
 * The last few distinct strings seen, to hand back an equal one kept already. An answer's header
 * block repeats (same type, length and second), and a journal that keeps the one held already,
 * instead of each answer's new copy, holds nothing young per entry: young objects that outlive a
 * garbage collection are copied by it, old ones are not.
 */
export class RecentTexts {
  private readonly kept: string[] = [];
  private next = 0;

  constructor(private readonly size: number) {}

  /** `text`, or an equal string seen last; `text` is remembered, in one piece, when new. */
  intern(text: string): string {
    for (const kept of this.kept) if (kept === text) return kept;
    this.kept[this.next] = flatText(text);
    this.next = (this.next + 1) % this.size;
    return text;
  }
}
