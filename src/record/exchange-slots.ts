/**
 * How many exchanges a recorder forwards at once: each holds up to two bodies of 32 MiB (the
 * request's and the answer's), so their number bounds its memory. Past `size`, up to `waiting`
 * more wait their turn in arrival order, their bodies unread (a waiting request costs its socket);
 * past those, a request is refused at once.
 */
export class ExchangeSlots {
  private busy = 0;
  private readonly queue: Array<() => void> = [];

  constructor(
    readonly size: number,
    readonly waiting: number,
  ) {}

  /**
   * Resolves true when the caller's turn comes, or false when it has waited `maxWaitMs` (it then
   * leaves the queue and holds no turn); undefined, at once, when too many wait already.
   */
  take(maxWaitMs: number): Promise<boolean> | undefined {
    if (this.busy < this.size) {
      this.busy += 1;
      return Promise.resolve(true);
    }
    if (this.queue.length >= this.waiting) return undefined;
    return new Promise((resolve) => {
      const turn = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(turn), 1);
        resolve(false);
      }, maxWaitMs);
      this.queue.push(turn);
    });
  }

  /** Ends one turn: the slot goes to the first in the queue, if any. */
  release(): void {
    const next = this.queue.shift();
    if (next === undefined) this.busy -= 1;
    else next();
  }
}
