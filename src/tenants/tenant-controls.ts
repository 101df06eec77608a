import { FaultRuleError, InvalidOptionError, StateError } from '../domain/errors.js';
import { describe as shown } from '../domain/seed-check.js';
import type { ServerSeed, TenantSeed } from '../domain/seed-types.js';
import type { Credentials, Store } from '../domain/store.js';
import { type FaultRule, maintenanceRule } from '../faults/fault-rule.js';
import type { FaultHandle, FaultSet, FaultView, MaintenanceOptions } from '../faults/faults.js';
import type { Journal, JournalScope } from '../journal/journal.js';
import type { RequestFilter } from '../journal/journal-filter.js';

/** What the tenant controls need of the fake around them. */
export interface TenantControlsParts {
  readonly store: Store;
  readonly journal: Journal;
  readonly faultSet: FaultSet;
  /** Checks a journal filter, throwing what to fix (the handle's or the control API's error). */
  readonly checkFilter: (filter: unknown, fail?: (detail: string) => never) => RequestFilter;
}

/**
 * Every control scoped to one server, the unit a parallel test owns: its data (back to its own
 * seed), its fault rules (those whose match names its server id), and its view of the journal
 * (its server id, from its last reset on). The in-process `Tenant` and the control API's
 * `/__admin/servers/{serverId}/...` routes both call these, so the two behave the same.
 */
export class TenantControls {
  private readonly parts: TenantControlsParts;
  /** Per server: the journal id of its last reset; its journal shows later entries only. */
  private readonly floors = new Map<number, number>();
  /** Per server id: how many tenants have been made with it, so a handle knows its own. */
  private readonly made = new Map<number, number>();

  constructor(parts: TenantControlsParts) {
    this.parts = parts;
  }

  /**
   * A new server from one server's seed, which its reset returns to. `generation` tells this
   * tenant from one made later with the same id (see {@link isCurrent}).
   */
  create(seed?: TenantSeed): Credentials & { generation: number } {
    const credentials = this.parts.store.addTenant(seed);
    const { serverId } = credentials;
    this.floors.set(serverId, this.parts.journal.newestId);
    const generation = (this.made.get(serverId) ?? 0) + 1;
    this.made.set(serverId, generation);
    return { ...credentials, generation };
  }

  /**
   * Whether the tenant made as `generation` still holds its server: false once the server was
   * removed (by anyone), even if a tenant made since holds the same id.
   */
  isCurrent(serverId: number, generation: number): boolean {
    return (
      this.made.get(serverId) === generation && this.parts.store.tenant(serverId) !== undefined
    );
  }

  /** Back to its seed; its fault rules end and its journal starts again (later entries only). */
  reset(serverId: number): void {
    this.parts.store.resetServer(serverId);
    this.parts.faultSet.clearFor(serverId);
    this.floors.set(serverId, this.parts.journal.newestId);
  }

  /**
   * Removes the server: its key gets 401 from then on; its fault rules end; its pending waits
   * reject, so that a server made later with the same id never answers them.
   */
  remove(serverId: number): void {
    this.parts.store.removeServer(serverId);
    this.parts.faultSet.clearFor(serverId);
    this.floors.delete(serverId);
    // A handle of the tenant that held it is no longer current, even if the id is made again.
    this.made.set(serverId, (this.made.get(serverId) ?? 0) + 1);
    this.parts.journal.cancelWaitsOf(
      serverId,
      new StateError(
        `Server ${serverId} was removed (its tenant closed) while waiting for a request.`,
      ),
    );
  }

  /** What of the journal a server's tenant sees: its entries since its last reset. */
  scope(serverId: number): JournalScope {
    return { serverId, sinceId: this.floors.get(serverId) ?? 0 };
  }

  /**
   * A journal filter narrowed to one server and to entries since its last reset. A filter that
   * names another server is refused: a tenant reads its own requests only.
   */
  journalFilter(
    serverId: number,
    filter: unknown = {},
    fail?: (detail: string) => never,
  ): RequestFilter {
    this.parts.store.requireTenant(serverId);
    const checked = this.parts.checkFilter(filter, fail);
    if (checked.serverId !== undefined && checked.serverId !== serverId) {
      const detail = `serverId ${checked.serverId} is another server's: a tenant's journal holds the requests of server ${serverId} only.`;
      if (fail) fail(detail);
      throw new InvalidOptionError(`Bad filter: ${detail}`);
    }
    const floor = this.floors.get(serverId) ?? 0;
    return { ...checked, serverId, sinceId: Math.max(checked.sinceId ?? 0, floor) };
  }

  /** Adds a rule that matches this server's requests only (its `match.serverId` is set). */
  addFault(serverId: number, rule: unknown): FaultHandle {
    this.parts.store.requireTenant(serverId);
    return this.parts.faultSet.add(scopedRule(rule, serverId));
  }

  /** An outage of this server alone: its requests get the outage, other servers' do not. */
  maintenance(serverId: number, options?: MaintenanceOptions | null): FaultHandle {
    this.parts.store.requireTenant(serverId);
    return this.parts.faultSet.add(scopedRule(maintenanceRule(options), serverId));
  }

  listFaults(serverId: number): FaultView[] {
    this.parts.store.requireTenant(serverId);
    return this.parts.faultSet.listFor(serverId);
  }

  /** Ends one of this server's rules; false when it has no rule with that id. */
  removeFault(serverId: number, id: string): boolean {
    this.parts.store.requireTenant(serverId);
    const own = this.parts.faultSet.listFor(serverId).some((view) => view.id === id);
    return own && this.parts.faultSet.remove(id);
  }

  clearFaults(serverId: number): void {
    this.parts.store.requireTenant(serverId);
    this.parts.faultSet.clearFor(serverId);
  }

  exportState(serverId: number): ServerSeed {
    return this.parts.store.exportServer(serverId);
  }
}

/** The rule with its match narrowed to one server; a rule aimed at another server is refused. */
function scopedRule(rule: unknown, serverId: number): unknown {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return rule;
  const { match } = rule as FaultRule;
  if (typeof match !== 'object' || match === null || Array.isArray(match)) {
    return match === undefined ? { ...rule, match: { serverId } } : rule;
  }
  if (match.serverId !== undefined && match.serverId !== serverId) {
    throw new FaultRuleError(
      `Invalid fault rule: match.serverId ${shown(match.serverId)} is not this tenant's server; a tenant's rules match its own server, ${serverId}.`,
    );
  }
  return { ...rule, match: { ...match, serverId } };
}
