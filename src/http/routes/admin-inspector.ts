import { ApiError } from '../../domain/errors.js';
import type { Contact } from '../../domain/model.js';
import { CONTACT_STATUSES, type ContactStatus, isoTime } from '../../domain/rules.js';
import type { Tenant } from '../../domain/tenant.js';
import { ADMIN_PREFIX } from '../../paths.js';
import { INSPECTOR_PAGE, INSPECTOR_POLICY } from '../inspector-page.js';
import { Rendered, type Route, route, SERVER_ID } from '../route.js';
import { CONTROL_BODY_LIMIT } from './admin-bodies.js';
import { contentWithThumbnails, first, selfOrigin } from './content.js';

/**
 * The inspector page and what it polls: a count of each server's data, and one server as the page
 * shows it. Each answer is bounded whatever the state's size (a page polls every few seconds; the
 * whole state, GET /__admin/state, is hundreds of megabytes for a large one).
 */

/**
 * The inspector's own headers: its policy (script and style by hash, no framing), no framing for
 * older browsers either, and no Referer from anything it loads (its address may hold ?token=).
 */
const INSPECTOR_HEADERS = {
  'content-security-policy': INSPECTOR_POLICY,
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Most lists and content items an overview names; the counts say how many there are. */
export const OVERVIEW_MAX_ITEMS = 1000;
/** Contacts an overview shows unless `limit` says otherwise, and the most it takes. */
export const OVERVIEW_CONTACTS = 100;
export const OVERVIEW_MAX_CONTACTS = 1000;
/** Characters of each custom-field value an overview shows; a longer one ends with `…`. */
export const OVERVIEW_VALUE_CHARACTERS = 200;
/** Longest `search`: a substring typed into a box. */
const MAX_SEARCH = 256;

const OVERVIEW_QUERY = {
  search: {
    type: 'string',
    maxLength: MAX_SEARCH,
    description: 'Contacts whose email address or a custom-field value holds this text (any case).',
  },
  status: { type: 'string', enum: CONTACT_STATUSES },
  listId: { type: 'integer', minimum: 1, description: 'Contacts on this list.' },
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: OVERVIEW_MAX_CONTACTS,
    description: `How many of the matching contacts to show (default ${OVERVIEW_CONTACTS}).`,
  },
} as const;

const common = { auth: 'admin', tags: ['control'], bodyLimit: CONTROL_BODY_LIMIT } as const;

export const INSPECTOR_ROUTES: readonly Route[] = [
  route({
    ...common,
    operationId: 'inspector',
    method: 'GET',
    path: `${ADMIN_PREFIX}/ui`,
    summary: 'The inspector page (HTML); with an admin token, open it as /__admin/ui?token=...',
    status: 200,
    renders: 'text/html',
    // A browser cannot send a header when it opens a page: this page alone also takes the token
    // as ?token= (and its script then sends the header).
    page: true,
    handle: ({ reply }) => {
      reply.headers(INSPECTOR_HEADERS);
      return new Rendered('text/html; charset=utf-8', INSPECTOR_PAGE);
    },
  }),
  route({
    ...common,
    operationId: 'listServers',
    method: 'GET',
    path: `${ADMIN_PREFIX}/servers`,
    summary:
      'Every server the fake holds, in the order they were added, with how many lists, contacts, custom fields and content items each has.',
    status: 200,
    handle: ({ core }) => Array.from(core.store.allTenants(), counts),
  }),
  route({
    ...common,
    operationId: 'serverOverview',
    method: 'GET',
    path: `${ADMIN_PREFIX}/servers/:serverId/overview`,
    params: { serverId: SERVER_ID },
    query: OVERVIEW_QUERY,
    summary: `One server as the inspector shows it, bounded whatever its size: its counts (lists, contacts, customFields, content), its first ${OVERVIEW_MAX_ITEMS} lists (with member counts) and content items (with thumbnail URLs), its custom fields, and the first \`limit\` contacts that match search, status and listId (values cut at ${OVERVIEW_VALUE_CHARACTERS} characters); moreContacts says whether more match.`,
    status: 200,
    handle: async ({ core, params, request, thumbnails }) => {
      const tenant = core.store.requireTenant(params.serverId);
      const query = overviewQuery(request.query);
      const lists = first(tenant.lists.values(), OVERVIEW_MAX_ITEMS).map((list) => ({
        id: list.id,
        name: list.name,
        members: tenant.memberIds(list.id).size,
      }));
      const content = contentWithThumbnails(
        tenant,
        selfOrigin(request),
        thumbnails,
        core.now(),
        OVERVIEW_MAX_ITEMS,
      ).map(({ id, name, created, updated, thumbnailUrl }) => ({
        id,
        name,
        created: isoTime(created),
        updated: isoTime(updated),
        thumbnailUrl,
      }));
      const found = await firstMatching(tenant, query, query.limit + 1);
      const { serverId, ...held } = counts(tenant);
      return {
        serverId,
        counts: held,
        lists,
        customFields: Array.from(tenant.fields.values(), (field) => ({
          customFieldNameId: field.id,
          name: field.name,
        })),
        content,
        contacts: found.slice(0, query.limit).map((contact) => ({
          contactId: contact.id,
          emailAddress: contact.emailAddress,
          status: contact.status,
          lists: tenant.listIdsOf(contact.id),
          customFields: Object.fromEntries(
            Object.entries(tenant.customFieldsOf(contact.id)).map(([name, value]) => [
              name,
              cut(value),
            ]),
          ),
        })),
        moreContacts: found.length > query.limit,
      };
    },
  }),
];

function counts(tenant: Tenant) {
  return {
    serverId: tenant.serverId,
    lists: tenant.lists.size,
    contacts: tenant.contacts.size,
    customFields: tenant.fields.size,
    content: tenant.content.size,
  };
}

function cut(value: string): string {
  return value.length > OVERVIEW_VALUE_CHARACTERS
    ? `${value.slice(0, OVERVIEW_VALUE_CHARACTERS)}…`
    : value;
}

interface OverviewQuery {
  readonly search?: RegExp;
  readonly status?: ContactStatus;
  readonly listId?: number;
  readonly limit: number;
}

/**
 * Longest stretch of searching between two turns of the event loop: a search through hundreds of
 * megabytes of values (about 1 ms per MiB) must not hold up the API calls it runs beside.
 */
const SEARCH_SLICE_MS = 5;

/**
 * The first `count` contacts that match, in id order. Without a search, each contact costs a
 * comparison or two and the scan stops at `count`; a search reads every value until it has found
 * them, a slice of {@link SEARCH_SLICE_MS} at a time.
 */
async function firstMatching(
  tenant: Tenant,
  query: OverviewQuery,
  count: number,
): Promise<Contact[]> {
  const { search, status, listId } = query;
  const members = listId === undefined ? undefined : tenant.memberIds(listId);
  const found: Contact[] = [];
  let slice = performance.now();
  for (const contact of tenant.contacts.values()) {
    if (status !== undefined && contact.status !== status) continue;
    if (members !== undefined && !members.has(contact.id)) continue;
    if (search !== undefined) {
      if (performance.now() - slice >= SEARCH_SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      const values = Object.values(tenant.customFieldsOf(contact.id));
      if (!search.test(contact.emailAddress) && !values.some((value) => search.test(value))) {
        continue;
      }
    }
    found.push(contact);
    if (found.length >= count) break;
  }
  return found;
}

function badQuery(detail: string): never {
  throw new ApiError('ADMIN_BAD_REQUEST', { detail });
}

/** The overview's query, checked: every value once, each in its range, no other names. */
function overviewQuery(input: unknown): OverviewQuery {
  const query: { search?: RegExp; status?: ContactStatus; listId?: number; limit: number } = {
    limit: OVERVIEW_CONTACTS,
  };
  for (const [name, value] of Object.entries((input ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') badQuery(`'${name}' is given more than once.`);
    if (name === 'search') {
      if (value.length > MAX_SEARCH) badQuery(`search is at most ${MAX_SEARCH} characters.`);
      // The text itself, any case: a literal pattern runs in time linear in what it reads.
      if (value !== '')
        query.search = new RegExp(value.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), 'i');
    } else if (name === 'status') {
      if (!(CONTACT_STATUSES as readonly string[]).includes(value)) {
        badQuery(`status must be one of ${CONTACT_STATUSES.join(', ')}.`);
      }
      query.status = value as ContactStatus;
    } else if (name === 'listId') {
      if (!/^\d{1,15}$/.test(value) || Number(value) < 1) badQuery('listId must be a list id.');
      query.listId = Number(value);
    } else if (name === 'limit') {
      const limit = Number(value);
      if (!/^\d{1,4}$/.test(value) || limit < 1 || limit > OVERVIEW_MAX_CONTACTS) {
        badQuery(`limit must be a whole number from 1 to ${OVERVIEW_MAX_CONTACTS}.`);
      }
      query.limit = limit;
    } else {
      badQuery(`unknown parameter '${name}'; use ${Object.keys(OVERVIEW_QUERY).join(', ')}.`);
    }
  }
  return query;
}
