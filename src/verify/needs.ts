import { type CheckTools, Skip, tryJson } from './check-kit.js';
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
 * the answer for the run's contact): says what it made, and takes the contact off the list again
 * in `finally` when the answer names its id.
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
  if (answer.status >= 200 && answer.status < 300) {
    tools.made(`the contact ${address} (contacts cannot be deleted through the API)`);
  }
  const contactId = integerId((tryJson(answer) as { contactId?: unknown } | undefined)?.contactId);
  if (contactId !== undefined) {
    tools.made(`the contact ${address} on list ${listId}`, async () => {
      const removed = await tools.call({ method: 'DELETE', path: `${path}/${contactId}` });
      return removed.status >= 200 && removed.status < 300;
    });
  }
  return { listId, path, answer, contactId };
}

/** The run's throwaway contact, added by address to the account's first list. */
export const addTheRunContact = (tools: CheckTools) => addAContact(tools, tools.run.address);

/**
 * A throwaway contact (the run's own by default) on the account's first list, taken off again in
 * `finally`; skips when it cannot be made (`writes.add-creates` judges that answer).
 */
export async function theRunContact(
  tools: CheckTools,
  address = tools.run.address,
): Promise<{ listId: number; contactId: number }> {
  const { listId, path, answer, contactId } = await addAContact(tools, address);
  if (answer.status !== 200 || contactId === undefined) {
    throw new Skip(
      `could not make the contact ${address}: PUT ${path} answered ${answer.status} ${cut(answer.body)} (writes.add-creates judges that answer)`,
    );
  }
  return { listId, contactId };
}

/**
 * POSTs a custom field and, whatever the answer, makes sure it does not stay: a field that was
 * created (even by a request the description says fails) is deleted in the run's `finally`,
 * found by name when the answer did not give its id.
 */
export async function createField(
  tools: CheckTools,
  name: string,
  accept: 'application/json' | 'text/xml' = 'application/json',
): Promise<Answer> {
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
    let id = given;
    if (id === undefined) {
      const listed = await tools.call({
        method: 'GET',
        path: '/customfields',
        accept: 'application/json',
      });
      const fields = tryJson(listed);
      const field = Array.isArray(fields)
        ? (fields as { name?: unknown; customFieldNameId?: unknown }[]).find(
            (item) => item.name === name,
          )
        : undefined;
      if (listed.status === 200 && Array.isArray(fields) && !field) return true;
      id = integerId(field?.customFieldNameId);
      if (id === undefined) return false;
    }
    const deleted = await tools.call({ method: 'DELETE', path: `/customfields/${id}` });
    // 404: it is not there (it was never really made, or is gone already).
    return (deleted.status >= 200 && deleted.status < 300) || deleted.status === 404;
  });
  return answer;
}
