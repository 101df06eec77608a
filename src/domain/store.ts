import { randomInt } from 'node:crypto';
import { nanoid } from 'nanoid';
import { constantTimeEqual } from './constant-time.js';
import { InvalidOptionError, ServerExistsError, StateError, UnknownServerError } from './errors.js';
import { KeyLedger } from './key-ledger.js';
import type { TenantSnapshot } from './model.js';
import {
  isoTime,
  isServerId,
  isServerKey,
  isWholeNumber,
  parseServerId,
  SERVER_KEY_RULE,
} from './rules.js';
import { planSeed, planServerSeed, type ServerPlan } from './seed.js';
import { describe as shown } from './seed-check.js';
import { exportNextIds } from './seed-next-ids.js';
import type { Seed, ServerSeed, TenantSeed } from './seed-types.js';
import { Tenant } from './tenant.js';

export interface StoreOptions {
  readonly defaultMaxContacts: number;
  /** Epoch milliseconds from the fake's clock. */
  readonly now: () => number;
}

export interface Credentials {
  readonly serverId: number;
  readonly key: string;
}

/** Generated server ids: the 5-digit ones. */
const FIRST_FREE_ID = 10000;
const LAST_FREE_ID = 99999;
const FREE_ID_DRAWS = 32;

const UNKNOWN_SERVER_KEY = 'no server has this key, whatever was sent';

/**
 * Every tenant of one fake, and the baseline that reset() returns to. Each fake owns one Store,
 * so two fakes in one process never share data.
 */
export class Store {
  private readonly tenants = new Map<number, Tenant>();
  /** The servers as the fake was created (its seed or state file): what reset() returns to. */
  private baseline = new Map<number, TenantSnapshot>();
  /** Tenants made with addTenant(), each at its own seed: reset() keeps them, at that seed. */
  private readonly tenantSeeds = new Map<number, TenantSnapshot>();
  private readonly ledger = new KeyLedger();
  private readonly options: StoreOptions;
  private keyRevision = 0;

  constructor(options: StoreOptions) {
    this.options = options;
  }

  /** Changes whenever a key may have: secrets derived from the keys are rebuilt when it does. */
  get keysRevision(): number {
    return this.keyRevision;
  }

  /** Every key to redact: the servers' keys now, and the last ones that stopped being one. */
  keys(): string[] {
    return [...this.ledger.keys()];
  }

  /** The keys to redact and their changes, for a reader that follows them (the redactor). */
  get keyLedger(): KeyLedger {
    return this.ledger;
  }

  /** Holds `tenant` under its id, replacing (and releasing the key of) one held before. */
  private put(tenant: Tenant): void {
    const before = this.tenants.get(tenant.serverId);
    if (before === tenant) return;
    if (before) this.ledger.release(before.key);
    this.tenants.set(tenant.serverId, tenant);
    this.ledger.hold(tenant.key);
  }

  /** Lets go of a server; false when there is none under that id. */
  private drop(serverId: number): boolean {
    const before = this.tenants.get(serverId);
    if (!before) return false;
    this.tenants.delete(serverId);
    this.ledger.release(before.key);
    return true;
  }

  /** True while the fake holds no server: no credentials can be right. */
  get isEmpty(): boolean {
    return this.tenants.size === 0;
  }

  tenant(serverId: number): Tenant | undefined {
    return this.tenants.get(serverId);
  }

  /** Every server held, in the order they were added. */
  allTenants(): IterableIterator<Tenant> {
    return this.tenants.values();
  }

  requireTenant(serverId: number): Tenant {
    checkServerIdType(serverId);
    const tenant = this.tenants.get(serverId);
    if (!tenant) throw new UnknownServerError(serverId);
    return tenant;
  }

  /**
   * The tenant these Basic credentials open, or undefined. The key comparison takes the same
   * time whether the server exists, the key is wrong, or it is right.
   */
  authenticate(username: string, key: string): Tenant | undefined {
    const serverId = parseServerId(username);
    const tenant = serverId === undefined ? undefined : this.tenants.get(serverId);
    // Compared even when there is no such server, so timing does not tell ids apart.
    const matches = constantTimeEqual(key, tenant?.key ?? UNKNOWN_SERVER_KEY);
    return tenant && matches ? tenant : undefined;
  }

  /** Validates the whole seed first, then applies it: a bad seed changes nothing. */
  seed(input: unknown): Credentials[] {
    const plans = planSeed(input, {
      existing: (serverId) => this.tenants.get(serverId),
      defaultMaxContacts: this.options.defaultMaxContacts,
      now: this.options.now,
      newKey: () => nanoid(),
    });
    return plans.map((plan) => this.apply(plan));
  }

  /** Checks every option before anything changes: a refused server is not added. */
  addServer(options: { serverId?: number; key?: string; maxContacts?: number } = {}): Credentials {
    if (typeof options !== 'object' || options === null || Array.isArray(options)) {
      throw new InvalidOptionError(
        'addServer options must be an object { serverId?, key?, maxContacts? }',
      );
    }
    const serverId = options.serverId ?? this.freeServerId();
    if (!isServerId(serverId)) {
      throw new InvalidOptionError(
        `serverId must be a 4- or 5-digit integer (1000 to 99999), got ${shown(serverId)}`,
      );
    }
    if (this.tenants.has(serverId)) throw new ServerExistsError(serverId);
    const key = options.key ?? nanoid();
    if (!isServerKey(key)) {
      throw new InvalidOptionError(`key must be ${SERVER_KEY_RULE}`);
    }
    const maxContacts = options.maxContacts ?? this.options.defaultMaxContacts;
    checkMaxContacts(maxContacts);
    this.put(new Tenant(serverId, key, maxContacts));
    this.keyRevision += 1;
    return { serverId, key };
  }

  /**
   * A new server from one server's seed, whose seed is then its baseline: resetServer() and
   * reset() put it back to that seed rather than removing it. A missing serverId is a free
   * 5-digit number, a missing key a fresh one; an id the fake holds throws ServerExistsError.
   */
  addTenant(input: TenantSeed = {}): Credentials {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new InvalidOptionError(
        'A tenant seed must be an object such as { lists: [{ id: 1, name: "Newsletter" }] }',
      );
    }
    const serverId = input.serverId ?? this.freeServerId();
    if (typeof serverId === 'number' && this.tenants.has(serverId)) {
      throw new ServerExistsError(serverId);
    }
    const plan = planServerSeed(
      { ...input, serverId },
      {
        existing: () => undefined,
        defaultMaxContacts: this.options.defaultMaxContacts,
        now: this.options.now,
        newKey: () => nanoid(),
      },
    );
    const credentials = this.apply(plan);
    this.tenantSeeds.set(serverId, this.tenants.get(serverId)!.snapshot());
    return credentials;
  }

  /**
   * Removes a server: its key gets 401 from then on. A tenant's seed goes with it; a server of
   * the fake's own seed comes back with reset(), as the state after creation has it.
   */
  removeServer(serverId: number): void {
    checkServerIdType(serverId);
    if (!this.drop(serverId)) throw new UnknownServerError(serverId);
    this.tenantSeeds.delete(serverId);
    this.keyRevision += 1;
  }

  regenerateKey(serverId: number): string {
    const key = nanoid();
    const tenant = this.requireTenant(serverId);
    this.ledger.release(tenant.key);
    tenant.key = key;
    this.ledger.hold(key);
    this.keyRevision += 1;
    return key;
  }

  setMaxContacts(serverId: number, maxContacts: number): void {
    checkMaxContacts(maxContacts);
    this.requireTenant(serverId).maxContacts = maxContacts;
  }

  /** Makes the current state the one reset() returns to. */
  markBaseline(): void {
    this.baseline = new Map(
      Array.from(this.tenants.values(), (tenant) => [tenant.serverId, tenant.snapshot()]),
    );
  }

  /** The state after creation, and every tenant made with addTenant() at its own seed. */
  reset(): void {
    this.keyRevision += 1;
    for (const serverId of [...this.tenants.keys()]) this.drop(serverId);
    // A tenant may hold the id of a server of the fake's seed that was removed: the tenant wins.
    for (const snapshot of [...this.baseline.values(), ...this.tenantSeeds.values()]) {
      this.put(Tenant.restore(snapshot));
    }
  }

  /** One server back to its seed (a tenant's own, or the fake's), or gone if it had none. */
  resetServer(serverId: number): void {
    checkServerIdType(serverId);
    this.keyRevision += 1;
    const snapshot = this.tenantSeeds.get(serverId) ?? this.baseline.get(serverId);
    if (snapshot) {
      this.put(Tenant.restore(snapshot));
    } else if (!this.drop(serverId)) {
      throw new UnknownServerError(serverId);
    }
  }

  exportState(): Seed {
    return { servers: Array.from(this.tenants.values(), exportTenant) };
  }

  /** One server's state as its seed. */
  exportServer(serverId: number): ServerSeed {
    return exportTenant(this.requireTenant(serverId));
  }

  private apply(plan: ServerPlan): Credentials {
    const tenant = plan.target ?? new Tenant(plan.serverId, plan.key, plan.maxContacts);
    tenant.maxContacts = plan.maxContacts;
    for (const field of plan.fields) tenant.insertField(field);
    for (const list of plan.lists) tenant.insertList(list);
    for (const contact of plan.contacts) tenant.insertContact(contact);
    for (const content of plan.content) tenant.insertContent(content);
    tenant.raiseNextIds(plan.nextIds);
    this.put(tenant);
    this.keyRevision += 1;
    return { serverId: tenant.serverId, key: tenant.key };
  }

  /**
   * A free 5-digit id: drawn at random (a few draws find one while most are free), then looked for
   * in order from a random start, so a fake holding nearly every id still answers at once, and
   * one holding all of them says so instead of looking for ever.
   */
  private freeServerId(): number {
    for (let draw = 0; draw < FREE_ID_DRAWS; draw++) {
      const serverId = randomInt(FIRST_FREE_ID, LAST_FREE_ID + 1);
      if (!this.tenants.has(serverId)) return serverId;
    }
    const span = LAST_FREE_ID - FIRST_FREE_ID + 1;
    const start = randomInt(0, span);
    for (let step = 0; step < span; step++) {
      const serverId = FIRST_FREE_ID + ((start + step) % span);
      if (!this.tenants.has(serverId)) return serverId;
    }
    throw new StateError(
      `Every 5-digit server id (${FIRST_FREE_ID} to ${LAST_FREE_ID}) is taken: close tenants or remove servers you no longer need, or give a 4-digit serverId.`,
    );
  }
}

/** A server id from TypeScript that is not even a number is a bad argument, not an unknown server. */
function checkServerIdType(serverId: unknown): void {
  if (typeof serverId !== 'number') {
    throw new InvalidOptionError(`serverId must be a number, got ${shown(serverId)}`);
  }
}

function checkMaxContacts(maxContacts: unknown): void {
  if (!isWholeNumber(maxContacts)) {
    throw new InvalidOptionError(
      `maxContacts must be a whole number from 0 to 2^53 - 1, got ${shown(maxContacts)}`,
    );
  }
}

function exportTenant(tenant: Tenant): ServerSeed {
  return {
    serverId: tenant.serverId,
    key: tenant.key,
    maxContacts: tenant.maxContacts,
    customFields: Array.from(tenant.fields.values(), (field) => ({
      customFieldNameId: field.id,
      name: field.name,
    })),
    lists: Array.from(tenant.lists.values(), (list) => ({ id: list.id, name: list.name })),
    contacts: Array.from(tenant.contacts.values(), (contact) => ({
      contactId: contact.id,
      emailAddress: contact.emailAddress,
      status: contact.status,
      customFields: tenant.customFieldsOf(contact.id),
      lists: tenant.listIdsOf(contact.id),
    })),
    content: Array.from(tenant.content.values(), (item) => ({
      id: item.id,
      name: item.name,
      created: isoTime(item.created),
      updated: isoTime(item.updated),
    })),
    nextIds: exportNextIds(tenant.peekNextIds()),
  };
}
