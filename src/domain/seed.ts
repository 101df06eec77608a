import {
  CONTACT_STATUSES,
  type ContactStatus,
  fieldNameProblem,
  foldCase,
  isValidEmail,
  MAX_CUSTOM_FIELDS,
  MAX_FIELD_NAME_LENGTH,
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
  joinPath,
  optionalArray,
} from './seed-check.js';
import type { ContactSnapshot, Content, CustomField, List, Tenant } from './tenant.js';

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
] as const;
const FIELD_KEYS = ['customFieldNameId', 'name'] as const;
const LIST_KEYS = ['id', 'name'] as const;
const CONTACT_KEYS = ['contactId', 'emailAddress', 'status', 'customFields', 'lists'] as const;
const CONTENT_KEYS = ['id', 'name', 'created', 'updated'] as const;
const MAX_KEY_LENGTH = 200;

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

function planServer(input: unknown, path: string, context: SeedContext): ServerPlan {
  const server = expectObject(input, path, SERVER_KEYS);
  const serverId = server.serverId;
  if (!Number.isInteger(serverId) || (serverId as number) < 1000 || (serverId as number) > 99999) {
    fail(joinPath(path, 'serverId'), `must be a 4- or 5-digit integer, got ${describe(serverId)}`);
  }
  const id = serverId as number;
  const target = context.existing(id);
  const key = planKey(server.key, joinPath(path, 'key'), target) ?? context.newKey();
  const maxContacts = planMaxContacts(server.maxContacts, joinPath(path, 'maxContacts'));
  const fields = planFields(server.customFields, joinPath(path, 'customFields'), target);
  const lists = planLists(server.lists, joinPath(path, 'lists'), target);
  const contacts = planContacts(server.contacts, joinPath(path, 'contacts'), target, fields, lists);
  const cap = maxContacts ?? target?.maxContacts ?? context.defaultMaxContacts;
  const total = contacts.length + (target?.contacts.size ?? 0);
  if (total > cap) {
    fail(joinPath(path, 'contacts'), `${total} contacts exceed the server's maxContacts of ${cap}`);
  }
  const content = planContent(server.content, joinPath(path, 'content'), target, context.now);
  return { serverId: id, target, key, maxContacts: cap, fields, lists, contacts, content };
}

function planKey(value: unknown, path: string, target: Tenant | undefined): string | undefined {
  if (value === undefined) return target?.key;
  const key = expectString(value, path);
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || /[\x00-\x1f\x7f]/.test(key)) {
    fail(path, `must be 1 to ${MAX_KEY_LENGTH} printable characters`);
  }
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
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
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
    items,
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
    items,
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
  const listIds = new Set(lists.map((list) => list.id));
  const emails = new Set<string>();
  const items = optionalArray(value, path).map((item, index) => {
    const itemPath = joinPath(path, index);
    const contact = expectObject(item, itemPath, CONTACT_KEYS);
    const emailPath = joinPath(itemPath, 'emailAddress');
    const emailAddress = contact.emailAddress;
    if (!isValidEmail(emailAddress)) {
      fail(emailPath, `must be a well-formed email address, got ${describe(emailAddress)}`);
    }
    const folded = foldCase(emailAddress);
    if (emails.has(folded) || target?.contactByEmail(emailAddress)) {
      fail(emailPath, `"${emailAddress}" is used by two contacts (addresses are case-insensitive)`);
    }
    emails.add(folded);
    const idPath = joinPath(itemPath, 'contactId');
    return {
      path: idPath,
      id: contact.contactId === undefined ? undefined : expectId(contact.contactId, idPath),
      emailAddress,
      status: checkStatus(contact.status, joinPath(itemPath, 'status')),
      values: checkValues(contact.customFields, joinPath(itemPath, 'customFields'), (name) =>
        name === undefined
          ? undefined
          : (fieldsByName.get(foldCase(name)) ?? target?.fieldByName(name)?.id),
      ),
      listIds: checkMemberships(
        contact.lists,
        joinPath(itemPath, 'lists'),
        (id) => listIds.has(id) || (target?.lists.has(id) ?? false),
      ),
    };
  });
  const ids = assignIds(
    items,
    (id) => target?.contacts.has(id) ?? false,
    target?.peekNextIds().contact ?? 1,
    'contact',
  );
  return items.map(({ path: _path, ...contact }, index) => ({ ...contact, id: ids[index]! }));
}

function checkStatus(value: unknown, path: string): ContactStatus {
  if (value === undefined) return 'Active';
  if (!CONTACT_STATUSES.includes(value as ContactStatus)) {
    fail(path, `must be "Active" or "Unsubscribed", got ${describe(value)}`);
  }
  return value as ContactStatus;
}

function checkValues(
  value: unknown,
  path: string,
  fieldId: (name: string | undefined) => number | undefined,
): [number, string][] {
  if (value === undefined) return [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(path, `must be an object of values by custom field name, got ${describe(value)}`);
  }
  const byId = new Map<number, string>();
  for (const [name, fieldValue] of Object.entries(value)) {
    const namePath = joinPath(path, name);
    const id = fieldId(name);
    if (id === undefined) fail(namePath, `names no custom field of this server`);
    if (byId.has(id))
      fail(namePath, 'sets the same custom field twice (names are case-insensitive)');
    byId.set(id, expectString(fieldValue, namePath));
  }
  return [...byId];
}

function checkMemberships(value: unknown, path: string, exists: (id: number) => boolean): number[] {
  const ids = optionalArray(value, path).map((item, index) => {
    const id = expectId(item, joinPath(path, index));
    if (!exists(id))
      fail(joinPath(path, index), `names list ${id}, which this server does not have`);
    return id;
  });
  const duplicate = ids.findIndex((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== -1) fail(joinPath(path, duplicate), `list ${ids[duplicate]} is named twice`);
  return ids;
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
    items,
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
