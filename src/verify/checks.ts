import { randomBytes } from 'node:crypto';
import type { Answer, Call } from './http-client.js';

/** What one check found. `skipped` when the account lacks what the check needs. */
export interface Outcome {
  readonly pass: boolean | 'skipped';
  /** What came back, in a line or two. */
  readonly got: string;
}

/** What every check can use: calls (recorded for the report) and what earlier checks learnt. */
export interface CheckContext {
  call(call: Call): Promise<Answer>;
  readonly serverId: number;
  readonly key: string;
  /** Shared between checks: a list id, the run's throwaway address and field. */
  readonly found: { listId?: number; contactId?: number; fieldId?: number };
  readonly run: { readonly address: string; readonly fieldName: string };
  /** What a writing check leaves on the account and cannot remove through the API. */
  leaveBehind(what: string): void;
}

export interface Check {
  /** Stable id, e.g. `lists.xml`: JUnit test names and `--only` use it. */
  readonly id: string;
  /** What the service description requires, in its words where it has them. */
  readonly requirement: string;
  /** Changes the account (only with --allow-writes). */
  readonly writes: boolean;
  /** The requests it will send, for --dry-run. */
  readonly plan: string[];
  readonly check: (context: CheckContext) => Promise<Outcome>;
}

/** Fresh names for one run: nothing the account could already hold. */
export function throwawayNames(): { address: string; fieldName: string } {
  const tag = randomBytes(6).toString('hex');
  return { address: `fms-verify-${tag}@example.com`, fieldName: `FmsVerify${tag}` };
}

const pass = (got: string): Outcome => ({ pass: true, got });
const fail = (got: string): Outcome => ({ pass: false, got });
const skipped = (got: string): Outcome => ({ pass: 'skipped', got });
const short = (text: string) => (text.length > 160 ? `${text.slice(0, 157)}...` : text);
const statusLine = (answer: Answer) => `${answer.status} ${short(answer.body)}`;

function json(answer: Answer): unknown {
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

/** The child element names of each `item` under `root`, in order; undefined when the root differs. */
function xmlItems(text: string, root: string, item: string): string[][] | undefined {
  const body = text.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  if (!new RegExp(`^<${root}[\\s/>]`).test(body)) return undefined;
  const items = [...body.matchAll(new RegExp(`<${item}(?:\\s[^>]*)?>([\\s\\S]*?)</${item}>`, 'g'))];
  return items.map((match) =>
    [...match[1]!.matchAll(/<([A-Za-z_][\w.-]*)(?:\s[^>]*)?\/?>/g)].map((tag) => tag[1]!),
  );
}

/** A JSON array whose every item has exactly `keys`, each of the given type. */
function jsonArrayOf(answer: Answer, keys: Record<string, 'number' | 'string'>): Outcome {
  if (answer.status !== 200) return fail(`status ${statusLine(answer)} (wanted 200)`);
  const value = json(answer);
  if (!Array.isArray(value)) return fail(`not a JSON array: ${short(answer.body)}`);
  for (const [index, item] of value.entries()) {
    const record = item as Record<string, unknown>;
    const names = Object.keys(record ?? {}).sort();
    const wanted = Object.keys(keys).sort();
    if (names.join() !== wanted.join()) {
      return fail(`item ${index} has ${names.join(', ')} (wanted ${wanted.join(', ')})`);
    }
    const wrong = Object.entries(keys).find(([name, type]) => typeof record[name] !== type);
    if (wrong)
      return fail(
        `item ${index}: ${wrong[0]} is ${JSON.stringify(record[wrong[0]])} (wanted a ${wrong[1]})`,
      );
  }
  return pass(`200, ${value.length} item(s) of ${Object.keys(keys).join(', ')}`);
}

function xmlArrayOf(answer: Answer, root: string, item: string, children: string[]): Outcome {
  if (answer.status !== 200) return fail(`status ${statusLine(answer)} (wanted 200)`);
  const items = xmlItems(answer.body, root, item);
  if (!items) return fail(`root is not ${root}: ${short(answer.body)}`);
  const wrong = items.findIndex((names) => names.join() !== children.join());
  if (wrong !== -1) {
    return fail(
      `${item} ${wrong} has ${items[wrong]!.join(', ')} (wanted ${children.join(', ')}, in that order)`,
    );
  }
  return pass(`200, ${root} with ${items.length} ${item} element(s) of ${children.join(', ')}`);
}

function expectStatus(answer: Answer, status: number, message?: string): Outcome {
  if (answer.status !== status) return fail(`status ${statusLine(answer)} (wanted ${status})`);
  if (message !== undefined) {
    const actual = (json(answer) as { message?: unknown } | undefined)?.message;
    if (actual !== message)
      return fail(`message ${JSON.stringify(actual)} (wanted ${JSON.stringify(message)})`);
  }
  return pass(statusLine(answer));
}

/** An id no account holds: far above anything a server assigns. */
const UNKNOWN_ID = 999_999_999;

/** The conformance suite, in order, written from the service description. */
export const CHECKS: readonly Check[] = [
  {
    id: 'auth.wrong-key',
    requirement: '5.5 A request with invalid credentials gets 401 Unauthorized.',
    writes: false,
    plan: ['GET /lists with a wrong key'],
    check: async ({ call, key }) =>
      expectStatus(await call({ method: 'GET', path: '/lists', key: `${key}-wrong` }), 401),
  },
  {
    id: 'lists.json',
    requirement: '2 List: id (integer), serverId (integer), name (string); JSON by Accept.',
    writes: false,
    plan: ['GET /lists (Accept: application/json)'],
    check: async ({ call, found, serverId }) => {
      const answer = await call({ method: 'GET', path: '/lists', accept: 'application/json' });
      const outcome = jsonArrayOf(answer, { id: 'number', serverId: 'number', name: 'string' });
      const lists =
        outcome.pass === true ? (json(answer) as { id: number; serverId: number }[]) : [];
      const other = lists.find((list) => list.serverId !== serverId);
      if (other)
        return fail(`list ${other.id} has serverId ${other.serverId} (wanted ${serverId})`);
      if (lists[0]) found.listId = lists[0].id;
      return outcome;
    },
  },
  {
    id: 'lists.xml',
    requirement:
      '2 List, XML form: root ArrayOfList, items List, with child elements Id, Name, ServerId.',
    writes: false,
    plan: ['GET /lists (Accept: text/xml)'],
    check: async ({ call }) =>
      xmlArrayOf(
        await call({ method: 'GET', path: '/lists', accept: 'text/xml' }),
        'ArrayOfList',
        'List',
        ['Id', 'Name', 'ServerId'],
      ),
  },
  {
    id: 'customfields.json',
    requirement:
      '2 Custom field: customFieldNameId (integer), name (string), serverId (integer), customFieldType (string).',
    writes: false,
    plan: ['GET /customfields (Accept: application/json)'],
    check: async ({ call }) =>
      jsonArrayOf(
        await call({ method: 'GET', path: '/customfields', accept: 'application/json' }),
        {
          customFieldNameId: 'number',
          name: 'string',
          serverId: 'number',
          customFieldType: 'string',
        },
      ),
  },
  {
    id: 'content.json',
    requirement:
      '2 Content: id (integer), name, thumbnailUrl, thumbnailExpiration, created, updated (strings).',
    writes: false,
    plan: ['GET /content (Accept: application/json)'],
    check: async ({ call }) =>
      jsonArrayOf(await call({ method: 'GET', path: '/content', accept: 'application/json' }), {
        id: 'number',
        name: 'string',
        thumbnailUrl: 'string',
        thumbnailExpiration: 'string',
        created: 'string',
        updated: 'string',
      }),
  },
  {
    id: 'content.xml',
    requirement:
      '2 Content, XML form: root ArrayOfContent, items Content, with child elements Created, Name, Id, ThumbnailExpiration, ThumbnailUrl, Updated.',
    writes: false,
    plan: ['GET /content (Accept: text/xml)'],
    check: async ({ call }) =>
      xmlArrayOf(
        await call({ method: 'GET', path: '/content', accept: 'text/xml' }),
        'ArrayOfContent',
        'Content',
        ['Created', 'Name', 'Id', 'ThumbnailExpiration', 'ThumbnailUrl', 'Updated'],
      ),
  },
  {
    id: 'errors.malformed-address',
    requirement: '7 400: add by email address, the email address is missing or poorly formatted.',
    writes: false,
    plan: ['PUT /lists/{a list id}/contacts {"emailAddress":"not an address"}'],
    check: async ({ call, found }) => {
      if (found.listId === undefined) return skipped('the account has no list to add to');
      const answer = await call({
        method: 'PUT',
        path: `/lists/${found.listId}/contacts`,
        body: { emailAddress: 'not an address' },
      });
      return expectStatus(answer, 400);
    },
  },
  {
    id: 'errors.reserved-name',
    requirement: "7 409 'That name is system reserved, please choose another.'",
    writes: false,
    plan: ['POST /customfields/EmailAddress'],
    check: async ({ call }) =>
      expectStatus(
        await call({ method: 'POST', path: '/customfields/EmailAddress' }),
        409,
        'That name is system reserved, please choose another.',
      ),
  },
  {
    id: 'errors.name-too-long',
    requirement: "7 409 'The field Name must be a string with a maximum length of 50.'",
    writes: false,
    plan: ['POST /customfields/{a name of 51 characters}'],
    check: async ({ call }) =>
      expectStatus(
        await call({ method: 'POST', path: `/customfields/${'N'.repeat(51)}` }),
        409,
        'The field Name must be a string with a maximum length of 50.',
      ),
  },
  {
    id: 'errors.unknown-list',
    requirement: '7 404: add to list, the list does not exist.',
    writes: false,
    plan: [`PUT /lists/${UNKNOWN_ID}/contacts/${UNKNOWN_ID}`],
    check: async ({ call }) =>
      expectStatus(
        await call({ method: 'PUT', path: `/lists/${UNKNOWN_ID}/contacts/${UNKNOWN_ID}` }),
        404,
      ),
  },
  {
    id: 'errors.unknown-contact',
    requirement: '7 404: add to list, the contact does not exist.',
    writes: false,
    plan: [`PUT /lists/{a list id}/contacts/${UNKNOWN_ID}`],
    check: async ({ call, found }) => {
      if (found.listId === undefined) return skipped('the account has no list');
      return expectStatus(
        await call({ method: 'PUT', path: `/lists/${found.listId}/contacts/${UNKNOWN_ID}` }),
        404,
      );
    },
  },
  {
    id: 'errors.unknown-field',
    requirement: '4, 7 DELETE /customfields/{id}: 404 when the id does not exist for the server.',
    writes: false,
    plan: [`DELETE /customfields/${UNKNOWN_ID}`],
    check: async ({ call }) =>
      expectStatus(await call({ method: 'DELETE', path: `/customfields/${UNKNOWN_ID}` }), 404),
  },
  {
    id: 'errors.unsubscribe-unknown',
    requirement: '7 404: unsubscribe, the contact is not found (a fresh, well-formed address).',
    writes: false,
    plan: ['POST /contacts/unsubscribe {"emailAddress":"fms-verify-<random>@example.com"}'],
    check: async ({ call, run }) =>
      expectStatus(
        await call({
          method: 'POST',
          path: '/contacts/unsubscribe',
          body: { emailAddress: run.address },
        }),
        404,
      ),
  },
  {
    id: 'writes.add-creates',
    requirement:
      '4 Add by email: a new address makes a contact; the result has serverId, contactId, listId.',
    writes: true,
    plan: ['PUT /lists/{a list id}/contacts {"emailAddress":"fms-verify-<random>@example.com"}'],
    check: async ({ call, found, run, serverId, leaveBehind }) => {
      if (found.listId === undefined) return skipped('the account has no list to add to');
      const answer = await call({
        method: 'PUT',
        path: `/lists/${found.listId}/contacts`,
        body: { emailAddress: run.address },
      });
      if (answer.status >= 200 && answer.status < 300) {
        leaveBehind(`the contact ${run.address} (contacts cannot be deleted through the API)`);
      }
      const result = json(answer) as { serverId?: unknown; contactId?: unknown; listId?: unknown };
      if (answer.status !== 200 || typeof result?.contactId !== 'number') {
        return fail(`status ${statusLine(answer)} (wanted 200 with a contactId)`);
      }
      found.contactId = result.contactId;
      if (result.serverId !== serverId || result.listId !== found.listId) {
        return fail(
          `result ${short(answer.body)} (wanted serverId ${serverId}, listId ${found.listId})`,
        );
      }
      return pass(statusLine(answer));
    },
  },
  {
    id: 'writes.re-add-idempotent',
    requirement: '7 Adding a contact that is already on the list is not an error (same contact).',
    writes: true,
    plan: ['PUT /lists/{the same list}/contacts {the same address}'],
    check: async ({ call, found, run }) => {
      if (found.contactId === undefined) return skipped('no contact was created by this run');
      const answer = await call({
        method: 'PUT',
        path: `/lists/${found.listId}/contacts`,
        body: { emailAddress: run.address },
      });
      const result = json(answer) as { contactId?: unknown };
      if (answer.status !== 200 || result?.contactId !== found.contactId) {
        return fail(`${statusLine(answer)} (wanted 200 with contactId ${found.contactId})`);
      }
      return pass(statusLine(answer));
    },
  },
  {
    id: 'writes.remove-keeps-contact',
    requirement: '4 Remove from list: the contact still exists (adding it back by id works).',
    writes: true,
    plan: [
      'DELETE /lists/{list}/contacts/{the new contact}',
      'PUT /lists/{list}/contacts/{the new contact}',
      'DELETE /lists/{list}/contacts/{the new contact}',
    ],
    check: async ({ call, found }) => {
      if (found.contactId === undefined) return skipped('no contact was created by this run');
      const path = `/lists/${found.listId}/contacts/${found.contactId}`;
      const removed = await call({ method: 'DELETE', path });
      if (removed.status < 200 || removed.status >= 300)
        return fail(`remove: ${statusLine(removed)}`);
      const back = await call({ method: 'PUT', path });
      // Off the list again: the run leaves the contact on no list.
      await call({ method: 'DELETE', path });
      return back.status === 200
        ? pass(`remove ${removed.status}, add back by id ${back.status}`)
        : fail(`add back by id after removal: ${statusLine(back)} (wanted 200)`);
    },
  },
  {
    id: 'writes.field-create-duplicate-delete',
    requirement:
      "4, 7 Create a custom field; again: 409 'The field '{name}' can't be created because it already exists.'; DELETE: 204.",
    writes: true,
    plan: [
      'POST /customfields/FmsVerify<random>',
      'POST /customfields/FmsVerify<random>',
      'DELETE /customfields/{its id}',
    ],
    check: async ({ call, run, leaveBehind }) => {
      const created = await call({ method: 'POST', path: `/customfields/${run.fieldName}` });
      const field = json(created) as { customFieldNameId?: unknown; name?: unknown };
      if (created.status >= 300 || typeof field?.customFieldNameId !== 'number') {
        return fail(`create: ${statusLine(created)} (wanted success with a customFieldNameId)`);
      }
      const again = await call({ method: 'POST', path: `/customfields/${run.fieldName}` });
      const deleted = await call({
        method: 'DELETE',
        path: `/customfields/${field.customFieldNameId}`,
      });
      if (deleted.status !== 204)
        leaveBehind(`the custom field ${run.fieldName} (id ${field.customFieldNameId})`);
      const duplicate = expectStatus(
        again,
        409,
        `The field '${run.fieldName}' can't be created because it already exists.`,
      );
      if (duplicate.pass !== true) return fail(`duplicate: ${duplicate.got}`);
      return deleted.status === 204
        ? pass(`create ${created.status}, duplicate 409, delete 204`)
        : fail(`delete: ${statusLine(deleted)} (wanted 204)`);
    },
  },
];
