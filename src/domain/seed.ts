import type { ContactSnapshot, Content, CustomField, List, NextIds } from './model.js';
import {
  CONTACT_STATUSES,
  type ContactStatus,
  fieldNameProblem,
  foldCase,
  isServerId,
  isServerKey,
  isValidEmail,
  isWholeNumber,
  MAX_CUSTOM_FIELDS,
  MAX_FIELD_NAME_LENGTH,
  SERVER_KEY_RULE,
} from './rules.js';
import {
  assignIds,
  describe,
  expectArray,
  expectDate,
  expectId,
  expectObject,
  expectString,
  fail,
  isPositiveId,
  joinPath,
  optionalArray,
  pathOf,
} from './seed-check.js';
import { planNextIds } from './seed-next-ids.js';
import type { Tenant } from './tenant.js';

/** What a seed needs from its surroundings. */
export interface SeedContext {
  /** The tenant already held under this id, which the seed then extends. */
  readonly existing: (serverId: number) => Tenant | undefined;
  readonly defaultMaxContacts: number;
  readonly now: () => number;
  readonly newKey: () => string;
}

/** A validated seed for one server: applying it cannot fail. */
export interface ServerPlan {
  readonly serverId: number;
  readonly target: Tenant | undefined;
  readonly key: string;
  readonly maxContacts: number;
  readonly fields: readonly CustomField[];
  readonly lists: readonly List[];
  readonly contacts: readonly ContactSnapshot[];
  readonly content: readonly Content[];
  /** Counters the seed sets, applied after its items. */
  readonly nextIds: Partial<NextIds>;
}

const SEED_KEYS = ['$schema', 'servers'] as const;
const SERVER_KEYS = [
  'serverId',
  'key',
  'maxContacts',
  'customFields',
  'lists',
  'contacts',
  'content',
  'nextIds',
] as const;
const FIELD_KEYS = ['customFieldNameId', 'name'] as const;
const LIST_KEYS = ['id', 'name'] as const;
const CONTACT_KEYS = ['contactId', 'emailAddress', 'status', 'customFields', 'lists'] as const;
const CONTENT_KEYS = ['id', 'name', 'created', 'updated'] as const;
// Shared by every contact without values or lists: insertContact only reads them.
const NO_VALUES: (number | string)[] = [];
const NO_LISTS: number[] = [];

/**
 * Checks a whole seed against the rules and the servers it extends, and returns what to apply.
 * Throws SeedError at the first problem, before anything has changed.
 */
export function planSeed(input: unknown, context: SeedContext): ServerPlan[] {
  const seed = expectObject(input, '', SEED_KEYS);
  if (seed.servers === undefined) fail('servers', 'is required: a seed is { "servers": [...] }');
  const servers = expectArray(seed.servers, 'servers');
  const seen = new Set<number>();
  return servers.map((server, index) => {
    const plan = planServer(server, `servers[${index}]`, context);
    if (seen.has(plan.serverId)) {
      fail(`servers[${index}].serverId`, `server ${plan.serverId} appears twice in this seed`);
    }
    seen.add(plan.serverId);
    return plan;
  });
}

/**
 * Checks one server's seed on its own (a tenant's: `fake.tenant(seed)`), with paths from its
 * root (`lists[0].name`); throws SeedError, changing nothing.
 */
export function planServerSeed(input: unknown, context: SeedContext): ServerPlan {
  return planServer(input, '', context);
}

function planServer(input: unknown, path: string, context: SeedContext): ServerPlan {
  const server = expectObject(input, path, SERVER_KEYS);
  const serverId = server.serverId;
  if (!isServerId(serverId)) {
    fail(joinPath(path, 'serverId'), `must be a 4- or 5-digit integer, got ${describe(serverId)}`);
  }
  const id = serverId as number;
  const target = context.existing(id);
  const key = planKey(server.key, joinPath(path, 'key'), target) ?? context.newKey();
  const maxContacts = planMaxContacts(server.maxContacts, joinPath(path, 'maxContacts'));
  const fields = planFields(server.customFields, joinPath(path, 'customFields'), target);
  const lists = planLists(server.lists, joinPath(path, 'lists'), target);
  const contacts = planContacts(server.contacts, joinPath(path, 'contacts'), target, fields, lists);
  // A server may hold more contacts than its cap (setMaxContacts() can lower it below the count,
  // and nobody is removed): a seed can describe that state, so every exported state seeds back.
  // The cap refuses contacts created later through the API.
  const cap = maxContacts ?? target?.maxContacts ?? context.defaultMaxContacts;
  const content = planContent(server.content, joinPath(path, 'content'), target, context.now);
  const used = { lists, contacts, fields, content };
  const nextIds = planNextIds(server.nextIds, joinPath(path, 'nextIds'), used, target);
  return { serverId: id, target, key, maxContacts: cap, fields, lists, contacts, content, nextIds };
}

function planKey(value: unknown, path: string, target: Tenant | undefined): string | undefined {
  if (value === undefined) return target?.key;
  const key = expectString(value, path);
  if (!isServerKey(key)) fail(path, `must be ${SERVER_KEY_RULE}`);
  if (target && target.key !== key) {
    fail(
      path,
      `server ${target.serverId} exists with another key; use regenerateKey() to change it`,
    );
  }
  return key;
}

function planMaxContacts(value: unknown, path: string): number | undefined {
  if (value === undefined) return undefined;
  if (!isWholeNumber(value)) {
    fail(path, `must be a whole number of 0 or more, got ${describe(value)}`);
  }
  return value as number;
}

function planFields(value: unknown, path: string, target: Tenant | undefined): CustomField[] {
  const items = optionalArray(value, path).map((item, index) => {
    const itemPath = joinPath(path, index);
    const field = expectObject(item, itemPath, FIELD_KEYS);
    const id = field.customFieldNameId;
    return {
      path: joinPath(itemPath, 'customFieldNameId'),
      id: id === undefined ? undefined : expectId(id, joinPath(itemPath, 'customFieldNameId')),
      name: checkFieldName(field.name, joinPath(itemPath, 'name')),
    };
  });
  const names = new Set<string>();
  items.forEach(({ name }, index) => {
    const folded = foldCase(name);
    if (names.has(folded) || target?.fieldByName(name)) {
      fail(joinPath(joinPath(path, index), 'name'), `custom field "${name}" is defined twice`);
    }
    names.add(folded);
  });
  const total = items.length + (target?.fields.size ?? 0);
  if (total > MAX_CUSTOM_FIELDS) {
    fail(path, `${total} custom fields exceed the limit of ${MAX_CUSTOM_FIELDS} per server`);
  }
  const ids = assignIds(
    items.map((item) => item.id),
    (index) => pathOf(items[index]!.path),
    (id) => target?.fields.has(id) ?? false,
    target?.peekNextIds().field ?? 1,
    'custom field',
  );
  return items.map(({ name }, index) => ({ id: ids[index]!, name }));
}

function checkFieldName(value: unknown, path: string): string {
  switch (fieldNameProblem(value)) {
    case 'length':
      return fail(path, `must be a string of 1 to ${MAX_FIELD_NAME_LENGTH} characters`);
    case 'characters':
      return fail(path, 'must not contain "<" or ">"');
    case 'reserved':
      return fail(path, `"${value}" is a reserved name (EmailAddress, ContactId, Id)`);
  }
  return value as string;
}

function planLists(value: unknown, path: string, target: Tenant | undefined): List[] {
  const items = optionalArray(value, path).map((item, index) => {
    const itemPath = joinPath(path, index);
    const list = expectObject(item, itemPath, LIST_KEYS);
    const name = expectString(list.name, joinPath(itemPath, 'name'));
    if (name.length === 0) fail(joinPath(itemPath, 'name'), 'must not be empty');
    const idPath = joinPath(itemPath, 'id');
    return {
      path: idPath,
      id: list.id === undefined ? undefined : expectId(list.id, idPath),
      name,
    };
  });
  const ids = assignIds(
    items.map((item) => item.id),
    (index) => pathOf(items[index]!.path),
    (id) => target?.lists.has(id) ?? false,
    target?.peekNextIds().list ?? 1,
    'list',
  );
  return items.map(({ name }, index) => ({ id: ids[index]!, name }));
}

function planContacts(
  value: unknown,
  path: string,
  target: Tenant | undefined,
  fields: readonly CustomField[],
  lists: readonly List[],
): ContactSnapshot[] {
  const fieldsByName = new Map(fields.map((field) => [foldCase(field.name), field.id]));
  const fieldId = (name: string) =>
    fieldsByName.get(foldCase(name)) ?? target?.fieldByName(name)?.id;
  const listIds = new Set(lists.map((list) => list.id));
  const listExists = (id: number) => listIds.has(id) || (target?.lists.has(id) ?? false);
  const emails = new Set<string>();
  const givenIds: (number | undefined)[] = [];
  const idPath = (index: number) => `${path}[${index}].contactId`;
  const contacts = optionalArray(value, path).map((item, index) => {
    // One lazy path per contact: the strings are made only when something fails.
    const here = () => `${path}[${index}]`;
    const contact = expectObject(item, here, CONTACT_KEYS);
    const emailAddress = contact.emailAddress;
    if (!isValidEmail(emailAddress)) {
      fail(
        `${here()}.emailAddress`,
        `must be a well-formed email address, got ${describe(emailAddress)}`,
      );
    }
    const folded = foldCase(emailAddress);
    if (emails.has(folded) || target?.contactByEmail(emailAddress)) {
      fail(
        `${here()}.emailAddress`,
        `"${emailAddress}" is used by two contacts (addresses are case-insensitive)`,
      );
    }
    emails.add(folded);
    const { contactId } = contact;
    givenIds.push(contactId === undefined ? undefined : expectId(contactId, () => idPath(index)));
    return {
      id: 0,
      emailAddress,
      status: checkStatus(contact.status, here),
      values: checkValues(contact.customFields, here, fieldId),
      listIds: checkMemberships(contact.lists, here, listExists),
    };
  });
  const ids = assignIds(
    givenIds,
    idPath,
    (id) => target?.contacts.has(id) ?? false,
    target?.peekNextIds().contact ?? 1,
    'contact',
  );
  contacts.forEach((contact, index) => {
    contact.id = ids[index]!;
  });
  return contacts;
}

function checkStatus(value: unknown, contact: () => string): ContactStatus {
  if (value === undefined) return 'Active';
  if (!CONTACT_STATUSES.includes(value as ContactStatus)) {
    fail(`${contact()}.status`, `must be "Active" or "Unsubscribed", got ${describe(value)}`);
  }
  return value as ContactStatus;
}

/** Values by field name, as a flat `[fieldId, value, ...]` array. */
function checkValues(
  value: unknown,
  contact: () => string,
  fieldId: (name: string) => number | undefined,
): (number | string)[] {
  if (value === undefined) return NO_VALUES;
  const where = () => `${contact()}.customFields`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(where, `must be an object of values by custom field name, got ${describe(value)}`);
  }
  const values: (number | string)[] = [];
  for (const name in value) {
    const id = fieldId(name);
    if (id === undefined) fail(joinPath(where(), name), 'names no custom field of this server');
    if (values.includes(id)) {
      fail(
        joinPath(where(), name),
        'sets the same custom field twice (names are case-insensitive)',
      );
    }
    const fieldValue = (value as Record<string, unknown>)[name];
    if (typeof fieldValue !== 'string') {
      fail(joinPath(where(), name), `must be a string, got ${describe(fieldValue)}`);
    }
    values.push(id, fieldValue);
  }
  return values;
}

function checkMemberships(
  value: unknown,
  contact: () => string,
  exists: (id: number) => boolean,
): number[] {
  if (value === undefined) return NO_LISTS;
  const where = () => `${contact()}.lists`;
  const ids = expectArray(value, where);
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index];
    if (!isPositiveId(id))
      fail(joinPath(where(), index), `must be a positive integer, got ${describe(id)}`);
    if (!exists(id))
      fail(joinPath(where(), index), `names list ${id}, which this server does not have`);
    if (ids.indexOf(id) !== index) fail(joinPath(where(), index), `list ${id} is named twice`);
  }
  return ids as number[];
}

function planContent(
  value: unknown,
  path: string,
  target: Tenant | undefined,
  now: () => number,
): Content[] {
  const items = optionalArray(value, path).map((item, index) => {
    const itemPath = joinPath(path, index);
    const content = expectObject(item, itemPath, CONTENT_KEYS);
    const name = expectString(content.name, joinPath(itemPath, 'name'));
    const created =
      content.created === undefined
        ? now()
        : expectDate(content.created, joinPath(itemPath, 'created'));
    const updated =
      content.updated === undefined
        ? created
        : expectDate(content.updated, joinPath(itemPath, 'updated'));
    if (updated < created) fail(joinPath(itemPath, 'updated'), 'must not be before created');
    const idPath = joinPath(itemPath, 'id');
    const id = content.id === undefined ? undefined : expectId(content.id, idPath);
    return { path: idPath, id, name, created, updated };
  });
  const ids = assignIds(
    items.map((item) => item.id),
    (index) => pathOf(items[index]!.path),
    (id) => target?.content.has(id) ?? false,
    target?.peekNextIds().content ?? 1,
    'content',
  );
  return items.map(({ name, created, updated }, index) => ({
    id: ids[index]!,
    name,
    created,
    updated,
  }));
}
