import { describe, expect, it } from 'vitest';
import { Skip } from '../../../src/verify/check-kit.js';
import type { Answer, Call } from '../../../src/verify/http-client.js';
import {
  addTheRunContact,
  aListId,
  collection,
  createField,
  integerId,
  theRunContact,
} from '../../../src/verify/needs.js';
import { json, scriptedTools } from '../../helpers/scripted-tools.js';

const text = (status: number, body: string): Answer => ({
  status,
  contentType: 'text/plain',
  body,
});

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

describe('addTheRunContact', () => {
  it("adds the run's address to the first list in JSON and takes it off again by the id the answer gives", async () => {
    const answers = [json(200, { contactId: 9 }), json(204, null)];
    const { tools, calls, made } = scriptedTools((call) =>
      call.method === 'GET' ? json(200, [{ id: 7 }]) : (answers.shift() as Answer),
    );
    const added = await addTheRunContact(tools);
    expect(added).toMatchObject({ listId: 7, path: '/lists/7/contacts', contactId: 9 });
    expect(calls[1]).toEqual({
      method: 'PUT',
      path: '/lists/7/contacts',
      accept: 'application/json',
      body: { emailAddress: 'fms-verify-0123456789ab@example.com' },
    });
    expect(made.map(({ what }) => what)).toEqual([
      'the contact fms-verify-0123456789ab@example.com (contacts cannot be deleted through the API)',
      'the contact fms-verify-0123456789ab@example.com on list 7',
    ]);
    expect(made[0]?.undo).toBeUndefined();
    expect(await made[1]?.undo?.()).toBe(true);
    expect(calls[2]).toEqual({ method: 'DELETE', path: '/lists/7/contacts/9' });
  });

  it.each([
    [200, true],
    [299, true],
    [300, false],
    [199, false],
    [404, false],
  ])('counts the contact taken off when the DELETE answers %i: %s', async (status, undone) => {
    const { tools, made } = scriptedTools((call) =>
      call.method === 'GET'
        ? json(200, [{ id: 7 }])
        : call.method === 'PUT'
          ? json(200, { contactId: 9 })
          : json(status, {}),
    );
    await addTheRunContact(tools);
    expect(await made[1]?.undo?.()).toBe(undone);
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
      reported
        ? [
            'the contact fms-verify-0123456789ab@example.com (contacts cannot be deleted through the API)',
          ]
        : [],
    );
  });

  it('takes nothing off when the answer names no usable contact id', async () => {
    const { tools, made } = scriptedTools(listThen(json(200, { contactId: 'x' })));
    expect((await addTheRunContact(tools)).contactId).toBeUndefined();
    expect(made).toHaveLength(1);
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
  it('POSTs the field by name, in JSON unless told, and deletes it by the id the answer gives', async () => {
    const { tools, calls, made } = scriptedTools((call) =>
      call.method === 'POST' ? json(200, { customFieldNameId: 5 }) : json(200, {}),
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
    expect(calls[1]).toEqual({ method: 'DELETE', path: '/customfields/5' });
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
    [404, true],
    [300, false],
    [199, false],
    [500, false],
  ])('counts the field deleted when the DELETE answers %i: %s', async (status, undone) => {
    const { tools, made } = scriptedTools((call) =>
      call.method === 'POST' ? json(201, { customFieldNameId: '5' }) : json(status, {}),
    );
    await createField(tools, 'F');
    expect(await made[0]?.undo?.()).toBe(undone);
  });

  describe('when the answer gives no id', () => {
    const madeWithout = async (listed: Answer, deleted: Answer = json(200, {})) => {
      const script = scriptedTools((call) =>
        call.method === 'POST' ? text(200, 'made') : call.method === 'GET' ? listed : deleted,
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
      ]);
    });

    it('counts it gone when a 200 list does not hold it', async () => {
      const { undone, calls } = await madeWithout(json(200, [{ name: 'G', customFieldNameId: 1 }]));
      expect(undone).toBe(true);
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
