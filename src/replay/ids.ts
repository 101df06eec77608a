/** The ids the service assigns, which a replay maps by first appearance. */
export type IdKind = 'contact' | 'field';

// Far above any id a replayed session makes, and still a positive integer the routes accept.
const ABSENT_BASE = 1_900_000_000;

/**
 * For one server: which id the fake gave to the entity the recording called by another id.
 * Seeded entities keep their ids; an id first seen in an answer is paired with the fake's; an id
 * the replay never paired is sent as one the fake has never given.
 */
export class IdMaps {
  private readonly toFakeIds = {
    contact: new Map<number, number>(),
    field: new Map<number, number>(),
  };
  private readonly taken = { contact: new Set<number>(), field: new Set<number>() };
  private readonly absent = new Map<string, number>();
  /** The stand-ins sent since {@link takeSubstitutions} was last asked, said in words. */
  private substitutions: string[] = [];

  /** Entities that exist under the same id in the recording and the fake (the seed). */
  keep(kind: IdKind, ids: Iterable<number>): void {
    for (const id of ids) this.pair(kind, id, id);
  }

  /**
   * Whether the recorded id and the fake's id name the same entity: the first time either is
   * seen, they are paired; afterwards both must keep to that pairing.
   */
  agree(kind: IdKind, recorded: number, fake: number): boolean {
    const known = this.toFakeIds[kind].get(recorded);
    if (known !== undefined) return known === fake;
    if (this.taken[kind].has(fake)) return false;
    this.pair(kind, recorded, fake);
    return true;
  }

  /** The id to send for a recorded id (in a path). */
  toFake(kind: IdKind, recorded: number): number {
    const known = this.toFakeIds[kind].get(recorded);
    if (known !== undefined) return known;
    const key = `${kind}:${recorded}`;
    let stand = this.absent.get(key);
    if (stand === undefined) {
      stand = ABSENT_BASE + this.absent.size;
      this.absent.set(key, stand);
    }
    this.substitutions.push(
      `sent ${kind} id ${stand} for the recorded ${recorded}, which no answer of the recording paired with one of the fake's (an id the fake never gave)`,
    );
    return stand;
  }

  /** What {@link toFake} substituted since the last call, for the report. */
  takeSubstitutions(): string[] {
    const taken = this.substitutions;
    this.substitutions = [];
    return taken;
  }

  private pair(kind: IdKind, recorded: number, fake: number): void {
    this.toFakeIds[kind].set(recorded, fake);
    this.taken[kind].add(fake);
  }
}
