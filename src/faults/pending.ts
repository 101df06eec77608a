/**
 * The requests a fault keeps waiting: those a `no-response` rule holds (until the rule ends or the
 * fake closes) and those a `delay` rule delays (until their timer fires). One registry, so that
 * removing a rule releases its held requests and `close()` drains everything in one call.
 */
export class PendingRequests {
  /** Release functions of held requests, by the id of the rule that holds them. */
  private readonly held = new Map<string, Set<() => void>>();
  /** Resume functions of delayed requests, by their timer. */
  private readonly delayed = new Map<NodeJS.Timeout, () => void>();

  /** Holds a request for a rule; the returned function forgets it (the client gave up). */
  hold(ruleId: string, release: () => void): () => void {
    const held = this.held.get(ruleId) ?? new Set();
    held.add(release);
    this.held.set(ruleId, held);
    return () => held.delete(release);
  }

  /** Resumes a request after `delayMs`, or at once when the fake drains. */
  delay(delayMs: number, resume: () => void): void {
    const timer = setTimeout(() => {
      this.delayed.delete(timer);
      resume();
    }, delayMs);
    this.delayed.set(timer, resume);
  }

  /** Releases what one rule holds; false when it holds nothing. */
  release(ruleId: string): boolean {
    const held = this.held.get(ruleId);
    if (!held) return false;
    this.held.delete(ruleId);
    for (const release of held) release();
    return true;
  }

  /** Releases every held request; delayed ones keep their timers. */
  releaseAll(): void {
    for (const ruleId of [...this.held.keys()]) this.release(ruleId);
  }

  /** Releases every held request and resumes every delayed one now: nothing is left waiting. */
  drain(): void {
    this.releaseAll();
    for (const [timer, resume] of this.delayed) {
      clearTimeout(timer);
      resume();
    }
    this.delayed.clear();
  }
}
