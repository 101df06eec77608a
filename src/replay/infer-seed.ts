import type { ServerSeed } from '../domain/seed-types.js';
import { parseBody, UnreadableBodyError } from './body.js';
import type { RecordedExchange } from './har-input.js';
import { itemsOf, operationOf, recordOf, serverIdOf } from './operations.js';

/** What a recording shows of one server's state before the session. */
export interface ServerFacts {
  /** A GET /customfields answer was recorded: the number of fields is known. */
  fieldsShown: boolean;
  /** A GET /lists answer was recorded: which lists exist is known. */
  listsShown: boolean;
  /** Lists the recording shows to exist. */
  knownLists: ReadonlySet<number>;
  seed: Omit<ServerSeed, 'serverId' | 'key'>;
}

// Contacts shown only by id get an address no one can have: the recording never showed theirs.
const placeholderEmail = (id: number) => `contact${id}@replay.invalid`;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,7})?Z$/;
const FIELD_NAME = /^[^<>]{1,50}$/;
// Inferred servers have no cap: the recording never shows it (a recorded 403 is not comparable).
const NO_CAP = 10_000_000;

class Facts {
  lists = new Map<number, string>();
  listsShown = false;
  listRefs = new Set<number>();
  fields = new Map<number, string>();
  /**
   * Fields known by name only (a 409 "already exists", a name in a successful request), with the
   * index of the last exchange that showed them to exist.
   */
  namedOnly = new Map<string, { name: string; lastSeen: number }>();
  /** Fields known by id only: deleted (by the exchange at the index given) before any listing. */
  deletedUnseen = new Map<number, number>();
  fieldsShown = false;
  created = new Set<number>();
  createdNames = new Set<string>();
  content = new Map<number, { name: string; created?: string; updated?: string }>();
  contacts = new Map<number, string | undefined>();
  revealed = new Set<number>();
  emails = new Set<string>();
  unsubscribedEmails = new Map<string, string>();

  /** A field that existed before the session (unless the session made it). */
  addField(name: unknown, at: number, id?: number): void {
    if (typeof name !== 'string' || !FIELD_NAME.test(name)) return;
    const lower = name.toLowerCase();
    if (id !== undefined) {
      this.fields.set(id, name);
      this.namedOnly.delete(lower);
      return;
    }
    if (this.createdNames.has(lower)) return;
    if ([...this.fields.values()].some((known) => known.toLowerCase() === lower)) return;
    this.namedOnly.set(lower, { name: this.namedOnly.get(lower)?.name ?? name, lastSeen: at });
  }

  /**
   * A field deleted before any listing is, if the recording shows one, a field known by name
   * whose last sighting came before the delete: one entity, not two.
   */
  settleDeleted(): void {
    for (const [id, deletedAt] of this.deletedUnseen) {
      const named = [...this.namedOnly].find(([, field]) => field.lastSeen < deletedAt);
      if (named) {
        this.namedOnly.delete(named[0]);
        this.fields.set(id, named[1].name);
      } else {
        this.fields.set(id, `replay-field-${id}`);
      }
    }
  }
}

/**
 * The starting state a recording shows, per server id: lists, fields and content from the answers
 * that list them, fields named by successful requests, contacts from the answers and requests
 * that prove them (an id used successfully before any add-by-email answer gave it). Ids stay as
 * recorded, so that seeded entities need no pairing.
 */
export function inferServers(exchanges: readonly RecordedExchange[]): Map<number, ServerFacts> {
  const all = new Map<number, Facts>();
  for (const exchange of exchanges) {
    const serverId = serverIdOf(exchange);
    if (serverId === undefined || exchange.noAnswerReason !== undefined) continue;
    let facts = all.get(serverId);
    if (!facts) {
      facts = new Facts();
      all.set(serverId, facts);
    }
    try {
      learn(facts, exchange);
    } catch (error) {
      // An answer no reader can walk shows nothing of the state; the replay says so at that entry.
      if (!(error instanceof UnreadableBodyError)) throw error;
    }
  }
  return new Map([...all].map(([serverId, facts]) => [serverId, toSeed(facts)]));
}

function learn(facts: Facts, exchange: RecordedExchange): void {
  const { status } = exchange.response;
  const ok = status >= 200 && status < 300;
  const operation = operationOf(exchange);
  const answer = parseBody(exchange.response.contentType, exchange.response.body);
  const request = requestJson(exchange);
  switch (operation.name) {
    case 'lists':
      if (!ok) return;
      facts.listsShown = true;
      for (const item of itemsOf(answer)) {
        const id = Number(item.id);
        if (Number.isSafeInteger(id) && id > 0 && typeof item.name === 'string')
          facts.lists.set(id, item.name);
      }
      return;
    case 'fields':
      if (!ok) return;
      facts.fieldsShown = true;
      for (const item of itemsOf(answer)) {
        const id = Number(item.customfieldnameid);
        if (Number.isSafeInteger(id) && id > 0 && !facts.created.has(id))
          facts.addField(item.name, exchange.index, id);
      }
      return;
    case 'content':
      if (!ok) return;
      for (const item of itemsOf(answer)) {
        const id = Number(item.id);
        if (!Number.isSafeInteger(id) || id <= 0 || typeof item.name !== 'string') continue;
        const created = isoOrUndefined(item.created);
        const updated = isoOrUndefined(item.updated);
        facts.content.set(id, {
          name: item.name,
          ...(created ? { created } : {}),
          ...(updated && created && updated >= created ? { updated } : {}),
        });
      }
      return;
    case 'createField': {
      const id = Number(recordOf(answer).customfieldnameid);
      if (ok && Number.isSafeInteger(id)) {
        facts.created.add(id);
        facts.createdNames.add(operation.fieldName.toLowerCase());
      } else if (status === 409 && /already exists/i.test(exchange.response.body ?? '')) {
        facts.addField(operation.fieldName, exchange.index);
      }
      return;
    }
    case 'deleteField':
      if (ok && !facts.created.has(operation.fieldId) && !facts.fields.has(operation.fieldId))
        facts.deletedUnseen.set(operation.fieldId, exchange.index);
      return;
    case 'addByEmail': {
      if (status === 400) {
        for (const name of checkedBefore(request, recordOf(answer).message))
          facts.addField(name, exchange.index);
      }
      if (!ok) return;
      facts.listRefs.add(operation.listId);
      for (const name of namedFields(request)) facts.addField(name, exchange.index);
      const id = Number(recordOf(answer).contactid);
      const email = typeof request?.emailaddress === 'string' ? request.emailaddress : undefined;
      if (email) facts.emails.add(email.toLowerCase());
      if (!Number.isSafeInteger(id)) return;
      if (facts.contacts.has(id) && facts.contacts.get(id) === undefined)
        facts.contacts.set(id, email);
      else facts.revealed.add(id);
      return;
    }
    case 'addById':
    case 'removeById':
    case 'unsubscribeById':
      if (!ok) return;
      if ('listId' in operation) facts.listRefs.add(operation.listId);
      if (!facts.revealed.has(operation.contactId) && !facts.contacts.has(operation.contactId))
        facts.contacts.set(operation.contactId, undefined);
      return;
    case 'unsubscribeByEmail': {
      const email = request?.emailaddress;
      if (ok && typeof email === 'string' && !facts.emails.has(email.toLowerCase())) {
        facts.emails.add(email.toLowerCase());
        facts.unsubscribedEmails.set(email.toLowerCase(), email);
      }
      return;
    }
    default:
      return;
  }
}

function toSeed(facts: Facts): ServerFacts {
  facts.settleDeleted();
  const lists = facts.listsShown
    ? [...facts.lists].map(([id, name]) => ({ id, name }))
    : [...facts.listRefs].map((id) => ({ id, name: `List ${id}` }));
  const customFields: { customFieldNameId?: number; name: string }[] = [
    ...[...facts.fields].map(([customFieldNameId, name]) => ({ customFieldNameId, name })),
    ...[...facts.namedOnly.values()].map(({ name }) => ({ name })),
  ];
  const contacts = [...facts.contacts].map(([contactId, email]) => ({
    contactId,
    emailAddress: email ?? placeholderEmail(contactId),
  }));
  const taken = new Set(contacts.map((contact) => contact.emailAddress.toLowerCase()));
  const byEmail = [...facts.unsubscribedEmails]
    .filter(([lower]) => !taken.has(lower))
    .map(([, emailAddress]) => ({ emailAddress }));
  return {
    fieldsShown: facts.fieldsShown,
    listsShown: facts.listsShown,
    knownLists: new Set(lists.map((list) => list.id)),
    seed: {
      maxContacts: NO_CAP,
      lists,
      customFields,
      contacts: [...contacts, ...byEmail],
      content: [...facts.content].map(([id, item]) => ({ id, ...item })),
    },
  };
}

function requestJson(exchange: RecordedExchange): Record<string, unknown> | undefined {
  if (exchange.body === undefined) return undefined;
  try {
    const body = parseBody('application/json', exchange.body.toString('utf8'));
    return body.kind === 'json' ? recordOf(body) : undefined;
  } catch (error) {
    // A client may send anything (a body nested 150 deep): it is sent as recorded, shows nothing.
    if (error instanceof UnreadableBodyError) return undefined;
    throw error;
  }
}

/** Field names a successful add-by-email proves to exist: its CustomFields, FirstName, LastName. */
function namedFields(request: Record<string, unknown> | undefined): string[] {
  if (!request) return [];
  const names: string[] = [];
  if (Array.isArray(request.customfields)) {
    for (const item of request.customfields) {
      const name =
        (item as Record<string, unknown> | null)?.Name ??
        (item as Record<string, unknown> | null)?.name;
      if (typeof name === 'string') names.push(name);
    }
  }
  if (typeof request.firstname === 'string') names.push('FirstName');
  if (typeof request.lastname === 'string') names.push('LastName');
  return names;
}

/** The fake's answer to a name no field has; the service's wording, checked by `verify`. */
const UNKNOWN_FIELD = /^The custom field '(.*)' does not exist\.$/s;

/**
 * The names an add-by-email found to exist before the one its 400 says does not: it checks its
 * CustomFields in order, then FirstName, then LastName ({@link namedFields}' order), and stops at
 * the first it cannot find. Nothing when the answer says something else.
 */
function checkedBefore(request: Record<string, unknown> | undefined, message: unknown): string[] {
  const missing = typeof message === 'string' ? UNKNOWN_FIELD.exec(message)?.[1] : undefined;
  if (missing === undefined) return [];
  const names = namedFields(request);
  const at = names.findIndex((name) => name.toLowerCase() === missing.toLowerCase());
  return at === -1 ? [] : names.slice(0, at);
}

function isoOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && ISO_UTC.test(value) && !Number.isNaN(Date.parse(value))
    ? value
    : undefined;
}
