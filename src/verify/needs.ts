import { type CheckTools, type ListedField, Skip, tryJson } from './check-kit.js';
import type { Answer } from './http-client.js';

/** What a check finds or makes for itself: each check calls these, nothing is shared. */

const cut = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}...` : text);

/**
 * An integer id, also when a drifted service writes it as a string of digits; none past 2^53 - 1,
 * which JSON reads as another number: a path built from it would name another id.
 */
export function integerId(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return Number.isSafeInteger(number) ? (number as number) : undefined;
}

/**
 * The items of a collection (`/lists`, `/customfields`, `/content`) in JSON; skips saying exactly
 * why when the account has none or the answer cannot be used (the collection's own check reports
 * that answer as a failure).
 */
export async function collection(
  tools: CheckTools,
  path: string,
): Promise<{ answer: Answer; items: Record<string, unknown>[] }> {
  const answer = await tools.call({ method: 'GET', path, accept: 'application/json' });
  const value = tryJson(answer);
  if (answer.status !== 200 || !Array.isArray(value)) {
    throw new Skip(
      `cannot read GET ${path}: it answered ${answer.status} ${cut(answer.body)} (the ${path.slice(1)}.json check judges that answer)`,
    );
  }
  if (value.length === 0) throw nothingToCheck(path);
  return { answer, items: value as Record<string, unknown>[] };
}

/** The skip of a check whose collection is empty: an empty account proves nothing. */
export function nothingToCheck(path: string): Skip {
  return new Skip(
    `the account has nothing to check: GET ${path} answered no item (add one to the account${path === '/customfields' ? ', or run writes.field-create with --allow-writes' : ''})`,
  );
}

/** The id of the account's first list; skips when there is none. */
export async function aListId(tools: CheckTools): Promise<number> {
  const {
    items: [first],
  } = await collection(tools, '/lists');
  const id = integerId(first?.id);
  if (id === undefined) {
    throw new Skip(
      `the first list of GET /lists has no usable id (an integer of at most ${Number.MAX_SAFE_INTEGER}, to put in a path): ${cut(JSON.stringify(first))} (lists.json judges it)`,
    );
  }
  return id;
}

/**
 * Adds a throwaway contact by address to the account's first list (`writes.add-creates` judges
 * the answer for the run's contact) and says what it made. It does not take the contact off: no
 * method reads a contact back, so the id answered is used to undo only once told apart
 * ({@link takeOffWhenOwn}).
 */
export async function addAContact(tools: CheckTools, address: string) {
  const listId = await aListId(tools);
  const path = `/lists/${listId}/contacts`;
  const answer = await tools.call({
    method: 'PUT',
    path,
    accept: 'application/json',
    body: { emailAddress: address },
  });
  const contactId =
    answer.status === 200
      ? integerId((tryJson(answer) as { contactId?: unknown } | undefined)?.contactId)
      : undefined;
  if (answer.status >= 200 && answer.status < 300) {
    // The id the checks then write by, in the report: no method reads a contact back, so only
    // its reader can tell that a service answered a customer's id (1, say) for a new address.
    const id = contactId === undefined ? '' : `id ${contactId} as the service answered it; `;
    tools.made(`the contact ${address} (${id}contacts cannot be deleted through the API)`);
  }
  return { listId, path, answer, contactId };
}

/**
 * Takes each added contact off the list again in `finally`, but only by an id no other address
 * of the check was answered with: a service that answers another contact's id (one id for every
 * address) would have verify take a customer off a list. A shared id is reported as left, with
 * why. It is the most the API allows: no method reads a contact back. `elsewhere`: contacts the
 * check made before, taken off (or not) on their own.
 */
export function takeOffWhenOwn(
  tools: CheckTools,
  listId: number,
  added: readonly (readonly [address: string, contactId: number | undefined])[],
  elsewhere: readonly (readonly [address: string, contactId: number])[] = [],
): boolean {
  let allOwn = true;
  for (const [address, id] of added) {
    if (id === undefined) continue;
    const others = [...added, ...elsewhere].filter(
      ([other, otherId]) => other !== address && otherId === id,
    );
    if (others.length === 0) {
      tools.made(`the contact ${address} on list ${listId}`, async () => {
        const removed = await tools.call({
          method: 'DELETE',
          path: `/lists/${listId}/contacts/${id}`,
        });
        return removed.status >= 200 && removed.status < 300;
      });
    } else {
      allOwn = false;
      tools.made(
        `the contact ${address} on list ${listId} (not taken off: the service answered the id ${id} for ${others[0]?.[0]} too, so it may be another contact's)`,
      );
    }
  }
  return allOwn;
}

/** The other of the run's two addresses: the one a contact's id is told apart from. */
const otherAddress = (tools: CheckTools, address: string) =>
  address === tools.run.address ? tools.run.second : tools.run.address;

/**
 * Adds `address` and the run's other address to the first list and takes both off in `finally`
 * when their ids differ (see {@link takeOffWhenOwn}); `told` is undefined when they do, else why
 * the id of `address` cannot be told apart.
 */
async function addTold(tools: CheckTools, address: string) {
  const added = await addAContact(tools, address);
  if (added.contactId === undefined) return { ...added, told: 'its add named no id' };
  const other = otherAddress(tools, address);
  const { contactId: otherId, answer } = await addAContact(tools, other);
  const own = takeOffWhenOwn(tools, added.listId, [
    [address, added.contactId],
    [other, otherId],
  ]);
  const told =
    otherId === undefined
      ? `the run's other address ${other} could not be added to tell it apart: PUT answered ${answer.status} ${cut(answer.body)}`
      : own
        ? undefined
        : `the service answered it for ${other} too`;
  return { ...added, told };
}

/** The skip of a check whose throwaway contact could not be made. */
export function notMade(address: string, path: string, answer: Answer): Skip {
  return new Skip(
    `could not make the contact ${address}: PUT ${path} answered ${answer.status} ${cut(answer.body)} (writes.add-creates judges that answer)`,
  );
}

/** The run's throwaway contact, added by address to the account's first list. */
export const addTheRunContact = (tools: CheckTools) => addTold(tools, tools.run.address);

/**
 * A throwaway contact (the run's own by default) on the account's first list, taken off again in
 * `finally`; skips when it cannot be made (`writes.add-creates` judges that answer). With
 * `ownOnly`, also when its id cannot be told apart from the run's other address's: the check
 * would remove, unsubscribe or add by that id, and it may be a customer's.
 */
export async function theRunContact(
  tools: CheckTools,
  address = tools.run.address,
  ownOnly = false,
): Promise<{ listId: number; contactId: number }> {
  const { listId, path, answer, contactId, told } = await addTold(tools, address);
  if (contactId === undefined) throw notMade(address, path, answer);
  if (ownOnly && told !== undefined) {
    throw new Skip(
      `cannot confirm the id ${contactId} answered for ${address} is its own (${told}; no method reads a contact back): verify does not remove, unsubscribe or add by an id that may be another contact's (writes.second-contact judges those answers)`,
    );
  }
  return { listId, contactId };
}

/**
 * POSTs a custom field and, whatever the answer, makes sure it does not stay: a field that was
 * created (even by a request the description says fails) is deleted in the run's `finally`.
 * It is deleted by the id GET /customfields lists under its name, never by the id the create
 * answered alone, and only when that id is verify's beyond doubt: listed under its name alone,
 * neither the id nor the name on the account before the run wrote anything, and nothing listed
 * that was neither there before nor asked for by the run (else that list was not the whole
 * account, and the id may be a field it left out). A service that
 * answered, or listed, another field's id would have verify delete a field of the account with all
 * the data stored under it. A field the list does not show under its name is gone when the run
 * deleted it itself ({@link deleteField}); any other is reported as left.
 */
export async function createField(
  tools: CheckTools,
  name: string,
  accept: 'application/json' | 'text/xml' = 'application/json',
): Promise<Answer> {
  tools.fieldNamesAsked.add(name);
  const answer = await tools.call({
    method: 'POST',
    path: `/customfields/${encodeURIComponent(name)}`,
    accept,
  });
  if (answer.status < 200 || answer.status >= 300) return answer;
  const given = integerId(
    (tryJson(answer) as { customFieldNameId?: unknown } | undefined)?.customFieldNameId,
  );
  tools.made(`the custom field ${name}${given === undefined ? '' : ` (id ${given})`}`, async () => {
    const listed = await tools.call({
      method: 'GET',
      path: '/customfields',
      accept: 'application/json',
    });
    const now = listedFields(listed);
    if (now === undefined) return false;
    const ours = now.filter((field) => field.name === name);
    // Not listed under its name: gone if the check deleted it; else the list does not show what
    // the service said it made (a list that lags or lies), and it is reported as left.
    if (ours.length === 0) return tools.fieldNamesDeleted.has(name);
    const id = ours.length === 1 ? ours[0]!.id : undefined;
    const before = tools.fieldsBefore;
    if (id === undefined || before === undefined) return false;
    const another = now.some((field) => field.id === id && field.name !== name);
    const there = before.some((field) => field.id === id || field.name === name);
    if (another || there || !wholeAccountBefore(before, tools.fieldNamesAsked, now)) return false;
    const deleted = await tools.call({ method: 'DELETE', path: `/customfields/${id}` });
    if (deleted.status < 200 || deleted.status >= 300) return false;
    // A 2xx that deleted nothing would leave the field unreported: a list that still shows it
    // says it is left.
    const after = listedFields(
      await tools.call({ method: 'GET', path: '/customfields', accept: 'application/json' }),
    );
    return !after?.some((field) => field.name === name);
  });
  return answer;
}

/**
 * DELETEs a field the check made, by the id the list confirmed under its name; a 2xx marks it
 * deleted, so the run's clean-up does not report it left when no list shows it.
 */
export async function deleteField(tools: CheckTools, name: string, id: number): Promise<Answer> {
  const deleted = await tools.call({ method: 'DELETE', path: `/customfields/${id}` });
  if (deleted.status >= 200 && deleted.status < 300) tools.fieldNamesDeleted.add(name);
  return deleted;
}

/**
 * Whether the fields read before the run can be trusted as the whole account: every field listed
 * now is one of them or one the run asked for. A list before the run that left out fields the
 * account holds (by a fault, a page, or on purpose) would let a field of the account pass for
 * verify's own.
 */
function wholeAccountBefore(
  before: readonly ListedField[],
  asked: ReadonlySet<unknown>,
  now: readonly ListedField[],
): boolean {
  return now.every(({ name }) => asked.has(name) || before.some((field) => field.name === name));
}

/** The fields an answer of GET /customfields lists; undefined when it holds no readable list. */
export function listedFields(answer: Answer): ListedField[] | undefined {
  const fields = answer.status === 200 ? tryJson(answer) : undefined;
  if (!Array.isArray(fields)) return undefined;
  return (fields as ({ name?: unknown; customFieldNameId?: unknown } | null)[]).map((item) => ({
    name: item?.name,
    id: integerId(item?.customFieldNameId),
  }));
}

/**
 * The id GET /customfields lists for the field named `name`: null when a readable list does not
 * hold it, undefined when the list cannot be read or the field has no usable id.
 */
export async function listedFieldId(
  tools: CheckTools,
  name: string,
): Promise<number | null | undefined> {
  const listed = await tools.call({
    method: 'GET',
    path: '/customfields',
    accept: 'application/json',
  });
  const fields = listedFields(listed);
  if (fields === undefined) return undefined;
  const field = fields.find((item) => item.name === name);
  return field ? field.id : null;
}
