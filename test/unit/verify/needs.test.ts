import { describe, expect, it } from 'vitest';
import { Skip } from '../../../src/verify/check-kit.js';
import type { Answer, Call } from '../../../src/verify/http-client.js';
import {
  addTheRunContact,
  aListId,
  collection,
  createField,
  deleteField,
  integerId,
  listedFieldId,
  theRunContact,
} from '../../../src/verify/needs.js';
import { json, scriptedTools } from '../../helpers/scripted-tools.js';

const text = (status: number, body: string): Answer => ({
  status,
  contentType: 'text/plain',
  body,
});

/**
 * A service whose list of fields (`listed`) no longer shows a field once a DELETE of its id
 * answered 2xx, as the service's does; `answer` answers the other calls first.
 */
function deletingService(
  answer: (call: Call) => Answer | undefined,
  listed: Answer,
  deleted: Answer,
): (call: Call) => Answer {
  const gone = new Set<string>();
  return (call) => {
    const given = answer(call);
    if (given) return given;
    if (call.method === 'DELETE') {
      if (deleted.status >= 200 && deleted.status < 300) gone.add(call.path.split('/').pop()!);
      return deleted;
    }
    let items: unknown;
    try {
      items = JSON.parse(listed.body);
    } catch {
      return listed;
    }
    if (!Array.isArray(items)) return listed;
    const kept = items.filter(
      (item) =>
        !gone.has(String((item as { customFieldNameId?: unknown } | null)?.customFieldNameId)),
    );
    return { ...listed, body: JSON.stringify(kept) };
  };
}

/** The Skip a promise rejects with. */
async function skipOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Skip);
  return (error as Skip).message;
}

/** A service whose first list is `listId` and whose PUT of a contact answers `put`. */
const listThen =
  (put: Answer, listId: unknown = 7) =>
  (call: Call): Answer =>
    call.method === 'GET' ? json(200, [{ id: listId, name: 'L' }]) : put;

describe('integerId', () => {
  it.each([
    [12, 12],
    ['12', 12],
    ['0', 0],
    ['123', 123],
    [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ])('reads %j as the id %j', (value, id) => {
    expect(integerId(value)).toBe(id);
  });

  it.each([
    ['a12'],
    ['12a'],
    ['12 '],
    [' 12'],
    ['0x10'],
    ['1e3'],
    ['1 2'],
    [''],
    ['-1'],
    ['1.5'],
    [1.5],
    [String(2 ** 53)],
    [2 ** 53],
    [null],
    [undefined],
    [true],
    [[5]],
    [{}],
  ])('reads no id in %j', (value) => {
    expect(integerId(value)).toBeUndefined();
  });
});

describe('collection', () => {
  it('asks for the collection in JSON and gives its items', async () => {
    const { tools, calls } = scriptedTools(() => json(200, [{ id: 1 }, { id: 2 }]));
    const { items, answer } = await collection(tools, '/lists');
    expect(items).toEqual([{ id: 1 }, { id: 2 }]);
    expect(answer.status).toBe(200);
    expect(calls).toEqual([{ method: 'GET', path: '/lists', accept: 'application/json' }]);
  });

  it('skips naming the answer and the check that judges it when the status is not 200', async () => {
    const { tools } = scriptedTools(() => json(201, [{ id: 1 }]));
    expect(await skipOf(collection(tools, '/content'))).toBe(
      'cannot read GET /content: it answered 201 [{"id":1}] (the content.json check judges that answer)',
    );
  });

  it('skips when a 200 holds no JSON array', async () => {
    const { tools } = scriptedTools(() => json(200, { id: 1 }));
    expect(await skipOf(collection(tools, '/lists'))).toBe(
      'cannot read GET /lists: it answered 200 {"id":1} (the lists.json check judges that answer)',
    );
  });

  it('shows a body of 120 characters whole and cuts a longer one to 117 and an ellipsis', async () => {
    const whole = 'x'.repeat(120);
    const long = `${'y'.repeat(117)}zzzz`;
    expect(await skipOf(collection(scriptedTools(() => text(500, whole)).tools, '/lists'))).toBe(
      `cannot read GET /lists: it answered 500 ${whole} (the lists.json check judges that answer)`,
    );
    expect(await skipOf(collection(scriptedTools(() => text(500, long)).tools, '/lists'))).toBe(
      `cannot read GET /lists: it answered 500 ${'y'.repeat(117)}... (the lists.json check judges that answer)`,
    );
  });

  it('skips an empty collection as nothing to check, hinting at writes.field-create only for fields', async () => {
    expect(await skipOf(collection(scriptedTools(() => json(200, [])).tools, '/lists'))).toBe(
      'the account has nothing to check: GET /lists answered no item (add one to the account)',
    );
    const { tools } = scriptedTools(() => json(200, []));
    expect(await skipOf(collection(tools, '/customfields'))).toBe(
      'the account has nothing to check: GET /customfields answered no item (add one to the account, or run writes.field-create with --allow-writes)',
    );
  });
});

describe('aListId', () => {
  it('gives the id of the first list, also written as digits', async () => {
    expect(await aListId(scriptedTools(listThen(json(200, {}), '42')).tools)).toBe(42);
  });

  it('skips when the first list is no object with an id', async () => {
    const { tools } = scriptedTools(() => json(200, [null]));
    expect(await skipOf(aListId(tools))).toBe(
      `the first list of GET /lists has no usable id (an integer of at most ${Number.MAX_SAFE_INTEGER}, to put in a path): null (lists.json judges it)`,
    );
  });
});

const FIRST = 'fms-verify-0123456789ab@example.com';
const SECOND = 'fms-verify-0123456789ab-2@example.com';

/** List 7; the run's address is contact 9, its second 10, unless `put` answers; DELETE answers `removal`. */
const twoContacts =
  (removal: Answer = json(204, null), put?: (address: string) => Answer | undefined) =>
  (call: Call): Answer => {
    if (call.method === 'GET') return json(200, [{ id: 7 }]);
    if (call.method === 'DELETE') return removal;
    const address = (call.body as { emailAddress: string }).emailAddress;
    return put?.(address) ?? json(200, { contactId: address === FIRST ? 9 : 10 });
  };

describe('addTheRunContact', () => {
  it("adds the run's address, then its second to tell the ids apart, and takes each off by its own id", async () => {
    const { tools, calls, made } = scriptedTools(twoContacts());
    const added = await addTheRunContact(tools);
    expect(added).toMatchObject({ listId: 7, path: '/lists/7/contacts', contactId: 9 });
    expect(calls.filter(({ method }) => method === 'PUT')).toEqual(
      [FIRST, SECOND].map((emailAddress) => ({
        method: 'PUT',
        path: '/lists/7/contacts',
        accept: 'application/json',
        body: { emailAddress },
      })),
    );
    expect(made.map(({ what }) => what)).toEqual([
      `the contact ${FIRST} (id 9 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${SECOND} (id 10 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${FIRST} on list 7`,
      `the contact ${SECOND} on list 7`,
    ]);
    expect(made[0]?.undo).toBeUndefined();
    expect(await made[2]?.undo?.()).toBe(true);
    expect(await made[3]?.undo?.()).toBe(true);
    expect(calls.slice(-2)).toEqual([
      { method: 'DELETE', path: '/lists/7/contacts/9' },
      { method: 'DELETE', path: '/lists/7/contacts/10' },
    ]);
  });

  it.each([
    [200, true],
    [299, true],
    [300, false],
    [199, false],
    [404, false],
  ])('counts the contact taken off when the DELETE answers %i: %s', async (status, undone) => {
    const { tools, made } = scriptedTools(twoContacts(json(status, {})));
    await addTheRunContact(tools);
    expect(await made[2]?.undo?.()).toBe(undone);
  });

  it('takes neither off when both addresses are answered one id, saying why', async () => {
    const { tools, calls, made } = scriptedTools(
      twoContacts(undefined, () => json(200, { contactId: 4 })),
    );
    await addTheRunContact(tools);
    expect(made.filter(({ undo }) => undo)).toEqual([]);
    expect(made.map(({ what }) => what).slice(2)).toEqual([
      `the contact ${FIRST} on list 7 (not taken off: the service answered the id 4 for ${SECOND} too, so it may be another contact's)`,
      `the contact ${SECOND} on list 7 (not taken off: the service answered the id 4 for ${FIRST} too, so it may be another contact's)`,
    ]);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it.each([
    [199, false],
    [200, true],
    [299, true],
    [300, false],
    [400, false],
  ])('reports the contact as made when the PUT answers %i: %s', async (status, reported) => {
    const { tools, made } = scriptedTools(listThen(text(status, 'not JSON')));
    const added = await addTheRunContact(tools);
    expect(added.contactId).toBeUndefined();
    expect(made.map(({ what }) => what)).toEqual(
      reported ? [`the contact ${FIRST} (contacts cannot be deleted through the API)`] : [],
    );
  });

  it('takes nothing off when the answer names no usable contact id', async () => {
    const { tools, made } = scriptedTools(listThen(json(200, { contactId: 'x' })));
    expect((await addTheRunContact(tools)).contactId).toBeUndefined();
    expect(made).toHaveLength(1);
  });

  it('reads no id from a success other than 200', async () => {
    const { tools, made } = scriptedTools(listThen(json(201, { contactId: 9 })));
    expect((await addTheRunContact(tools)).contactId).toBeUndefined();
    expect(made.filter(({ undo }) => undo)).toEqual([]);
  });
});

describe('theRunContact, confirming its id', () => {
  it('gives the id when it differs from the other address', async () => {
    expect(await theRunContact(scriptedTools(twoContacts()).tools, FIRST, true)).toEqual({
      listId: 7,
      contactId: 9,
    });
  });

  it("tells the run's second address apart from the first", async () => {
    const { tools, calls } = scriptedTools(twoContacts());
    expect(await theRunContact(tools, SECOND, true)).toEqual({ listId: 7, contactId: 10 });
    expect(calls.filter(({ method }) => method === 'PUT').map(({ body }) => body)).toEqual([
      { emailAddress: SECOND },
      { emailAddress: FIRST },
    ]);
  });

  it('skips when both addresses answer one id', async () => {
    const { tools } = scriptedTools(twoContacts(undefined, () => json(200, { contactId: 4 })));
    expect(await skipOf(theRunContact(tools, FIRST, true))).toBe(
      `cannot confirm the id 4 answered for ${FIRST} is its own (the service answered it for ${SECOND} too; no method reads a contact back): verify does not remove, unsubscribe or add by an id that may be another contact's (writes.second-contact judges those answers)`,
    );
    // Without ownOnly, the contact is given: the check uses it by address only.
    expect(await theRunContact(tools, FIRST)).toEqual({ listId: 7, contactId: 4 });
  });

  it('skips when the other address cannot be added, naming its answer', async () => {
    const { tools, made } = scriptedTools(
      twoContacts(undefined, (address) =>
        address === SECOND ? json(403, { m: 'full' }) : undefined,
      ),
    );
    expect(await skipOf(theRunContact(tools, FIRST, true))).toBe(
      `cannot confirm the id 9 answered for ${FIRST} is its own (the run's other address ${SECOND} could not be added to tell it apart: PUT answered 403 {"m":"full"}; no method reads a contact back): verify does not remove, unsubscribe or add by an id that may be another contact's (writes.second-contact judges those answers)`,
    );
    // Its own id is no other's: it is still taken off.
    expect(made.filter(({ undo }) => undo).map(({ what }) => what)).toEqual([
      `the contact ${FIRST} on list 7`,
    ]);
  });
});

describe('theRunContact', () => {
  it('gives the list and the contact id when the PUT answers 200 with one', async () => {
    const { tools } = scriptedTools(listThen(json(200, { contactId: 9 })));
    expect(await theRunContact(tools, 'other@example.com')).toEqual({ listId: 7, contactId: 9 });
  });

  it('skips naming the answer when the PUT answers another success, even with an id', async () => {
    const { tools } = scriptedTools(listThen(json(201, { contactId: 9 })));
    expect(await skipOf(theRunContact(tools))).toBe(
      'could not make the contact fms-verify-0123456789ab@example.com: PUT /lists/7/contacts answered 201 {"contactId":9} (writes.add-creates judges that answer)',
    );
  });

  it('skips when a 200 names no contact id, the body cut to 117 characters', async () => {
    const body = 'b'.repeat(130);
    const { tools } = scriptedTools(listThen(text(200, body)));
    expect(await skipOf(theRunContact(tools, 'c@example.com'))).toBe(
      `could not make the contact c@example.com: PUT /lists/7/contacts answered 200 ${'b'.repeat(117)}... (writes.add-creates judges that answer)`,
    );
  });
});

describe('createField', () => {
  /** A service that creates with `created`, lists `listed` and answers a DELETE with `deleted`. */
  const fieldService = (created: Answer, listed: Answer, deleted: Answer = json(204, null)) =>
    deletingService((call) => (call.method === 'POST' ? created : undefined), listed, deleted);

  it('POSTs the field by name, in JSON unless told, and deletes it by the id listed under its name', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 5 }),
        json(200, [{ name: 'A b', customFieldNameId: 5 }]),
      ),
    );
    const answer = await createField(tools, 'A b');
    expect(answer.status).toBe(200);
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/customfields/A%20b',
      accept: 'application/json',
    });
    expect(made.map(({ what }) => what)).toEqual(['the custom field A b (id 5)']);
    expect(await made[0]?.undo?.()).toBe(true);
    expect(calls.slice(1)).toEqual([
      { method: 'GET', path: '/customfields', accept: 'application/json' },
      { method: 'DELETE', path: '/customfields/5' },
      { method: 'GET', path: '/customfields', accept: 'application/json' },
    ]);
  });

  it('reports the field left when its DELETE answers 2xx and the list still shows it', async () => {
    const listed = json(200, [{ name: 'F', customFieldNameId: 5 }]);
    const { tools, calls, made } = scriptedTools((call) =>
      call.method === 'POST'
        ? json(200, { customFieldNameId: 5 })
        : call.method === 'GET'
          ? listed
          : json(204, null),
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.map(({ method }) => method)).toEqual(['POST', 'GET', 'DELETE', 'GET']);
  });

  it('never deletes the id the create answered when the list gives it to another field', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 1 }),
        json(200, [
          { name: 'FirstName', customFieldNameId: 1 },
          { name: 'F', customFieldNameId: 21 },
        ]),
      ),
      { fieldsBefore: [{ name: 'FirstName', id: 1 }] },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(true);
    expect(calls.filter(({ method }) => method === 'DELETE')).toEqual([
      { method: 'DELETE', path: '/customfields/21' },
    ]);
  });

  it('deletes nothing when the list does not hold its name, whatever id the create answered, and reports it left', async () => {
    // The service said it made the field and does not list it (a list that lags, or lies): it
    // may well be there, so it is no "nothing left".
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 1 }),
        json(200, [{ name: 'FirstName', customFieldNameId: 1 }]),
      ),
      { fieldsBefore: [{ name: 'FirstName', id: 1 }] },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('takes it as gone when the list does not hold it and the check deleted it itself', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(json(200, { customFieldNameId: 21 }), json(200, []), json(204, null)),
    );
    await createField(tools, 'F');
    expect((await deleteField(tools, 'F', 21)).status).toBe(204);
    expect([...tools.fieldNamesDeleted]).toEqual(['F']);
    expect(await made[0]?.undo?.()).toBe(true);
    expect(calls.filter(({ method }) => method === 'DELETE')).toEqual([
      { method: 'DELETE', path: '/customfields/21' },
    ]);
  });

  it.each([404, 500, 199, 300])(
    'does not mark a field deleted when its DELETE answers %i',
    async (status) => {
      const { tools } = scriptedTools(() => json(status, {}));
      expect((await deleteField(tools, 'F', 21)).status).toBe(status);
      expect([...tools.fieldNamesDeleted]).toEqual([]);
    },
  );

  it.each([200, 299])('marks a field deleted when its DELETE answers %i', async (status) => {
    const { tools } = scriptedTools(() => json(status, {}));
    await deleteField(tools, 'F', 21);
    expect([...tools.fieldNamesDeleted]).toEqual(['F']);
  });

  it('deletes nothing when the list gives its id to another field too, and reports it left', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 1 }),
        json(200, [
          { name: 'FirstName', customFieldNameId: 1 },
          { name: 'F', customFieldNameId: 1 },
        ]),
      ),
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('deletes nothing when the list shows its name twice', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [
          { name: 'F', customFieldNameId: 21 },
          { name: 'F', customFieldNameId: 22 },
        ]),
      ),
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it.each([
    ['its id was another field on the account before the run', [{ name: 'FirstName', id: 21 }]],
    ['its name was on the account before the run', [{ name: 'F', id: 7 }]],
  ])('deletes nothing when %s, and reports it left', async (_what, fieldsBefore) => {
    // A list that hides FirstName and shows the new field under FirstName's id: only what the
    // account held before the run tells them apart.
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [{ name: 'F', customFieldNameId: 21 }]),
      ),
      { fieldsBefore },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('deletes nothing when the fields on the account before the run could not be read', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [{ name: 'F', customFieldNameId: 21 }]),
      ),
      { fieldsBefore: null },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it.each([
    ['a field neither on the list before the run nor asked for', [{ name: 'LastName', id: 2 }]],
    ['an item the list before the run did not hold', [null]],
  ])('deletes nothing when the list shows %s, and reports it left', async (_what, others) => {
    // The list before the run left out fields the account holds (answered [] on purpose, say), and
    // the new field is listed under the id of one of them: the later list betrays the first.
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 1 }),
        json(200, [
          ...others.map((field) => field && { name: field.name, customFieldNameId: field.id }),
          { name: 'F', customFieldNameId: 1 },
        ]),
      ),
      { fieldsBefore: [] },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('deletes nothing when a field of the account before the run now shares its id, under another id then', async () => {
    // G was 5 before the run; the list now gives G and the new field F the same id 21.
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [
          { name: 'G', customFieldNameId: 21 },
          { name: 'F', customFieldNameId: 21 },
        ]),
      ),
      { fieldsBefore: [{ name: 'G', id: 5 }] },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('deletes nothing when a later list shows a field beside those of the account before the run', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [
          { name: 'FirstName', customFieldNameId: 1 },
          { name: 'LastName', customFieldNameId: 2 },
          { name: 'F', customFieldNameId: 21 },
        ]),
      ),
      { fieldsBefore: [{ name: 'FirstName', id: 1 }] },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(false);
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('deletes its own field when the list also shows fields the run asked for, made or not', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [
          { name: 'E', customFieldNameId: 20 },
          { name: 'F', customFieldNameId: 21 },
        ]),
      ),
      { fieldsBefore: [] },
    );
    // Asked for by an earlier check, and refused: a service that made it anyway lists it.
    tools.fieldNamesAsked.add('E');
    await createField(tools, 'F');
    expect([...tools.fieldNamesAsked]).toEqual(['E', 'F']);
    expect(await made[0]?.undo?.()).toBe(true);
    expect(calls.filter(({ method }) => method === 'DELETE')).toEqual([
      { method: 'DELETE', path: '/customfields/21' },
    ]);
  });

  it('counts a name as asked for even when the create is refused', async () => {
    const { tools } = scriptedTools(() => json(409, {}));
    await createField(tools, 'EmailAddress');
    expect([...tools.fieldNamesAsked]).toEqual(['EmailAddress']);
  });

  it('passes over list items that are no object, before and after', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [null, { name: 'F', customFieldNameId: 21 }]),
      ),
      { fieldsBefore: [{ name: undefined, id: undefined }] },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(true);
    expect(calls.filter(({ method }) => method === 'DELETE')).toEqual([
      { method: 'DELETE', path: '/customfields/21' },
    ]);
  });

  it('deletes its own field when the account held others before the run', async () => {
    const { tools, calls, made } = scriptedTools(
      fieldService(
        json(200, { customFieldNameId: 21 }),
        json(200, [{ name: 'F', customFieldNameId: 21 }]),
      ),
      {
        fieldsBefore: [
          { name: 'FirstName', id: 1 },
          { name: 'Other', id: undefined },
        ],
      },
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(true);
    expect(calls.filter(({ method }) => method === 'DELETE')).toEqual([
      { method: 'DELETE', path: '/customfields/21' },
    ]);
  });

  it('asks for XML when told', async () => {
    const { tools, calls } = scriptedTools(() => text(400, ''));
    await createField(tools, 'F', 'text/xml');
    expect(calls).toEqual([{ method: 'POST', path: '/customfields/F', accept: 'text/xml' }]);
  });

  it.each([199, 300, 400])('makes nothing when the POST answers %i', async (status) => {
    const { tools, made } = scriptedTools(() => json(status, { customFieldNameId: 5 }));
    expect((await createField(tools, 'F')).status).toBe(status);
    expect(made).toEqual([]);
  });

  it.each([
    [200, true],
    [299, true],
    // Listed a moment ago, and not found: a delete refused, reported.
    [404, false],
    [300, false],
    [199, false],
    [500, false],
  ])('counts the field deleted when the DELETE answers %i: %s', async (status, undone) => {
    const { tools, made } = scriptedTools(
      fieldService(
        json(201, { customFieldNameId: '5' }),
        json(200, [{ name: 'F', customFieldNameId: 5 }]),
        json(status, {}),
      ),
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(undone);
  });

  describe('when the answer gives no id', () => {
    const madeWithout = async (listed: Answer, deleted: Answer = json(200, {})) => {
      const script = scriptedTools(
        deletingService(
          (call) => (call.method === 'POST' ? text(200, 'made') : undefined),
          listed,
          deleted,
        ),
        { fieldsBefore: [{ name: 'G', id: 1 }] },
      );
      await createField(script.tools, 'F');
      expect(script.made.map(({ what }) => what)).toEqual(['the custom field F']);
      const undone = await script.made[0]?.undo?.();
      return { undone, calls: script.calls.slice(1) };
    };

    it('finds it by name in the JSON list of fields and deletes it', async () => {
      const { undone, calls } = await madeWithout(
        json(200, [
          { name: 'G', customFieldNameId: 1 },
          { name: 'F', customFieldNameId: 2 },
        ]),
      );
      expect(undone).toBe(true);
      expect(calls).toEqual([
        { method: 'GET', path: '/customfields', accept: 'application/json' },
        { method: 'DELETE', path: '/customfields/2' },
        { method: 'GET', path: '/customfields', accept: 'application/json' },
      ]);
    });

    it('reports it left when a 200 list does not hold it', async () => {
      const { undone, calls } = await madeWithout(json(200, [{ name: 'G', customFieldNameId: 1 }]));
      expect(undone).toBe(false);
      expect(calls.map(({ method }) => method)).toEqual(['GET']);
    });

    it.each([
      ['a list that is not 200', json(500, [])],
      ['a 200 that holds no list', json(200, { name: 'F' })],
      ['a body that is not JSON', text(200, 'F')],
      ['the field without a usable id', json(200, [{ name: 'F', customFieldNameId: 'two' }])],
    ])('reports it left behind after %s, deleting nothing', async (_, listed) => {
      const { undone, calls } = await madeWithout(listed);
      expect(undone).toBe(false);
      expect(calls.map(({ method }) => method)).toEqual(['GET']);
    });
  });
});

describe('listedFieldId', () => {
  it('finds the id listed under a name, passing over items that are no object', async () => {
    const { tools } = scriptedTools(() =>
      json(200, [null, 7, { name: 'F', customFieldNameId: 3 }]),
    );
    await expect(listedFieldId(tools, 'F')).resolves.toBe(3);
    await expect(listedFieldId(tools, 'G')).resolves.toBeNull();
  });

  it('is undefined when no list can be read', async () => {
    const { tools } = scriptedTools(() => json(500, [{ name: 'F', customFieldNameId: 3 }]));
    await expect(listedFieldId(tools, 'F')).resolves.toBeUndefined();
  });
});
