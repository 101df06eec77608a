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
    this.kept[this.next] = flat(text);
    this.next = (this.next + 1) % this.size;
    return text;
  }
}

/**
 * Where {@link flat} stores the character it reads: a write the engine must make, so that the
 * read, which is what flattens, is never optimised away.
 */
const sink = new Float64Array(1);

/**
 * The same text, flattened. Node builds its header block with `+`, which V8 keeps as a tree of the
 * pieces (a rope) until something reads it by index; writing it to the socket copies it without
 * flattening it. Held by the journal, every piece was an object the garbage collector copied while
 * the entry was young. Reading one character makes V8 flatten the text in place, into one string.
 */
function flat(text: string): string {
  sink[0] = text.charCodeAt(0);
  return text;
}
