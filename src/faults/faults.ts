// Faults: rules as data (fault-rule.ts) that answer matching requests before routing, with a
// status, a maintenance outage, a delay, a dropped connection or no answer at all; the requests
// they hold or delay (pending.ts) and their seeded randomness (random.ts). This file keeps the
// rules of one fake and picks the one that answers a request.
import { isoTime } from '../domain/rules.js';
import { compileMatch, type Matcher, type RequestFacts } from '../match/request-match.js';
import { type FaultRule, parseFaultRule } from './fault-rule.js';
import type { PendingRequests } from './pending.js';
import { seededRandom } from './random.js';

/** What `faults.add()` returns. */
export interface FaultHandle {
  readonly id: string;
  /** Ends the rule and releases the requests it holds. */
  remove(): void;
}

/** A rule as `faults.list()` shows it. */
export interface FaultView extends FaultRule {
  id: string;
  /** Requests it has answered so far. */
  hits: number;
  /** ISO time at which `durationMs` ends it. */
  expiresAt?: string;
}

/** The rule that answers a request. */
export interface Decision {
  readonly id: string;
  readonly rule: FaultRule;
  /** Seconds until a `durationMs` rule ends, for Retry-After. */
  readonly retryAfterSeconds: number | undefined;
}

interface ActiveRule {
  readonly id: string;
  readonly rule: FaultRule;
  readonly matches: Matcher;
  readonly expiresAt: number | undefined;
  readonly draw: (() => number) | undefined;
  hits: number;
}

/** The fault rules of a fake, as its handle and the control API offer them. */
export interface Faults {
  /** Adds a rule; it answers matching requests until removed, out of `times`, or past `durationMs`. */
  add(rule: FaultRule): FaultHandle;
  list(): FaultView[];
  /** Ends one rule by id; false when there is none. */
  remove(id: string): boolean;
  /** Ends every rule and releases held requests. */
  clear(): void;
}

/** Options of `maintenance()`: an outage of the whole public API. */
export interface MaintenanceOptions {
  /** How the outage looks to clients; default `unavailable` (503). */
  mode?: 'unavailable' | 'no-response' | 'reset';
  durationMs?: number;
  times?: number;
}

/**
 * The fault rules of one fake, in the order they were added: the first that matches answers.
 * Requests a rule holds live in {@link PendingRequests}: they are released when their rule is
 * removed, cleared, or the fake closes (a rule that runs out of `times` or `durationMs` leaves its
 * held requests to the client's own timeout, as a real outage would).
 */
export class FaultSet {
  private readonly rules: ActiveRule[] = [];
  private readonly now: () => number;
  private readonly pending: PendingRequests;
  private nextId = 1;

  constructor(now: () => number, pending: PendingRequests) {
    this.now = now;
    this.pending = pending;
  }

  /** True when no rule is active: the request path skips fault matching entirely. */
  get empty(): boolean {
    return this.rules.length === 0;
  }

  add(input: FaultRule | unknown): FaultHandle {
    const rule = parseFaultRule(input);
    const id = `fault-${this.nextId++}`;
    this.rules.push({
      id,
      rule,
      matches: compileMatch(rule.match),
      expiresAt: rule.durationMs === undefined ? undefined : this.now() + rule.durationMs,
      draw: rule.probability === undefined ? undefined : seededRandom(rule.seed ?? 0),
      hits: 0,
    });
    return { id, remove: () => this.remove(id) };
  }

  list(): FaultView[] {
    this.prune();
    return this.rules.map(({ id, rule, hits, expiresAt }) => ({
      id,
      ...rule,
      hits,
      ...(expiresAt === undefined ? {} : { expiresAt: isoTime(expiresAt) }),
    }));
  }

  /** Ends one rule and releases what it holds; false when no rule has that id. */
  remove(id: string): boolean {
    const index = this.rules.findIndex((rule) => rule.id === id);
    if (index !== -1) this.rules.splice(index, 1);
    const held = this.pending.release(id);
    return index !== -1 || held;
  }

  /** Ends every rule and releases every held request. */
  clear(): void {
    this.rules.length = 0;
    this.pending.releaseAll();
  }

  /** The rules of one server: those whose match names that server id (a tenant's rules). */
  listFor(serverId: number): FaultView[] {
    return this.list().filter((view) => view.match?.serverId === serverId);
  }

  /** Ends one server's rules (see {@link listFor}) and releases what they hold. */
  clearFor(serverId: number): void {
    for (const { id } of this.listFor(serverId)) this.remove(id);
  }

  /** The rule that answers this request, if any; counts the hit against `times`. */
  decide(request: RequestFacts): Decision | undefined {
    this.prune();
    for (const active of this.rules) {
      if (!active.matches(request)) continue;
      if (active.draw && active.draw() >= active.rule.probability!) continue;
      active.hits += 1;
      if (active.rule.times !== undefined && active.hits >= active.rule.times) {
        this.rules.splice(this.rules.indexOf(active), 1);
      }
      const { expiresAt } = active;
      const retryAfterSeconds =
        expiresAt === undefined
          ? undefined
          : Math.max(1, Math.ceil((expiresAt - this.now()) / 1000));
      return { id: active.id, rule: active.rule, retryAfterSeconds };
    }
    return undefined;
  }

  private prune(): void {
    const now = this.now();
    for (let index = this.rules.length - 1; index >= 0; index--) {
      const expiresAt = this.rules[index]!.expiresAt;
      if (expiresAt !== undefined && now >= expiresAt) this.rules.splice(index, 1);
    }
  }
}
