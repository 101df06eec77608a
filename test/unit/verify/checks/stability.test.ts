import { describe, expect, it } from 'vitest';
import { Skip } from '../../../../src/verify/check-kit.js';
import {
  STABILITY_CHECKS,
  STABILITY_WRITE_CHECKS,
} from '../../../../src/verify/checks/stability.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, scriptedTools } from '../../../helpers/scripted-tools.js';

const [readTwice] = STABILITY_CHECKS;
const [aroundWrite] = STABILITY_WRITE_CHECKS;
const NAME = 'FmsVerify0123456789abS';

interface Account {
  lists: unknown[];
  fields: unknown[];
  content: unknown[];
}
const PATHS = { '/lists': 'lists', '/customfields': 'fields', '/content': 'content' } as const;

const account = (): Account => ({
  lists: [{ id: 1, name: 'Main', serverId: 1234 }],
  fields: [{ customFieldNameId: 3, name: 'Colour', serverId: 1234, customFieldType: 'String' }],
  content: [{ id: 5, name: 'Banner', created: '2024-01-01T00:00:00Z' }],
});

/**
 * A service reading `accounts[n]` at the n-th read of the collections (the last one from then on);
 * a field created is given id 77 and listed until it is deleted. `answer` overrides any call it
 * answers.
 */
function accountService(
  accounts: Account[],
  answer: (call: Call) => Answer | undefined = () => undefined,
) {
  let reads = 0;
  let created: unknown;
  return (call: Call): Answer => {
    const given = answer(call);
    if (given) return given;
    if (call.method === 'GET' && call.path in PATHS) {
      const state = accounts[Math.min(Math.floor(reads / 3), accounts.length - 1)]!;
      reads += 1;
      const items = state[PATHS[call.path as keyof typeof PATHS]];
      return json(200, call.path === '/customfields' && created ? [...items, created] : items);
    }
    if (call.method === 'POST') {
      created = { customFieldNameId: 77, name: NAME, serverId: 1234, customFieldType: 'String' };
      return json(200, created);
    }
    if (call.method === 'DELETE' && call.path === '/customfields/77') {
      created = undefined;
      return { status: 204, contentType: '', body: '' };
    }
    return json(404, {});
  };
}

const withContent = (content: unknown[]): Account => ({ ...account(), content });
const read = (path: string): Call => ({ method: 'GET', path, accept: 'application/json' });
const THREE_READS = [read('/lists'), read('/customfields'), read('/content')];

describe('stable.ids-and-dates', () => {
  it('reads the three collections twice in JSON and passes when nothing changed', async () => {
    const { tools, calls } = scriptedTools(accountService([account()]));
    await expect(readTwice!.expect(tools)).resolves.toBe(
      '1 lists, 1 customfields, 1 content: the same on a second read',
    );
    expect(calls).toEqual([...THREE_READS, ...THREE_READS]);
  });

  it.each(['2024-01-01T00:00:00.000Z', '2024-01-01T01:00:00+01:00'])(
    'takes a content created instant spelt %s as the same',
    async (respelt) => {
      const { tools } = scriptedTools(
        accountService([account(), withContent([{ id: 5, created: respelt }])]),
      );
      await expect(readTwice!.expect(tools)).resolves.toMatch(/the same on a second read$/);
    },
  );

  it.each([
    [
      '2024-01-01T00:00:00Z',
      '2024-01-02T00:00:00Z',
      '2024-01-01T00:00:00.000Z',
      '2024-01-02T00:00:00.000Z',
    ],
    [12345, 12346, '12345', '12346'],
    ['yesterday', 'today', '"yesterday"', '"today"'],
  ])(
    'fails when a content created %j changes to %j, as the report reads it',
    async (before, now, was, seen) => {
      const { tools } = scriptedTools(
        accountService([
          withContent([{ id: 5, created: before }]),
          withContent([{ id: 5, created: now }]),
        ]),
      );
      await expect(readTwice!.expect(tools)).rejects.toMatchObject({
        wanted: `the second read: content 5 still there with created ${was} (ids and what they name do not change)`,
        got: `the second read: content 5 has created ${seen}`,
      });
    },
  );

  it('takes a created text that is no date as it is, on both reads', async () => {
    const same = withContent([{ id: 5, created: 'yesterday' }]);
    const { tools } = scriptedTools(accountService([same, same]));
    await expect(readTwice!.expect(tools)).resolves.toMatch(/the same on a second read$/);
  });

  it('fails when a list is gone or belongs to another server', async () => {
    const gone = scriptedTools(accountService([account(), { ...account(), lists: [] }]));
    await expect(readTwice!.expect(gone.tools)).rejects.toMatchObject({
      wanted:
        'the second read: list 1 still there with serverId 1234 (ids and what they name do not change)',
      got: 'the second read: no list with id 1',
    });
    const moved = scriptedTools(
      accountService([account(), { ...account(), lists: [{ id: 1, serverId: 99 }] }]),
    );
    await expect(readTwice!.expect(moved.tools)).rejects.toMatchObject({
      got: 'the second read: list 1 has serverId 99',
    });
  });

  it('fails when ids appear, naming them and the ids before (or none)', async () => {
    const { tools } = scriptedTools(
      accountService([
        { ...account(), lists: [] },
        { ...account(), lists: [{ id: 8 }, { id: 9 }] },
      ]),
    );
    await expect(readTwice!.expect(tools)).rejects.toMatchObject({
      wanted: 'the second read: the same list ids as before (none)',
      got: 'the second read: list id(s) 8, 9 appeared',
    });
    const more = scriptedTools(
      accountService([
        { ...account(), lists: [{ id: 1 }, { id: 2 }] },
        { ...account(), lists: [{ id: 1 }, { id: 2 }, { id: 3 }] },
      ]),
    );
    await expect(readTwice!.expect(more.tools)).rejects.toMatchObject({
      wanted: 'the second read: the same list ids as before (1, 2)',
      got: 'the second read: list id(s) 3 appeared',
    });
  });

  it('reads past an item that is null', async () => {
    const withNull = { ...account(), lists: [null, { id: 1, serverId: 1234 }] };
    const { tools } = scriptedTools(accountService([withNull, withNull]));
    await expect(readTwice!.expect(tools)).resolves.toBe(
      '2 lists, 1 customfields, 1 content: the same on a second read',
    );
  });

  it.each([
    ['/lists', json(500, [])],
    ['/customfields', json(200, { items: [] })],
    ['/content', { status: 200, contentType: 'text/plain', body: 'none' }],
  ])('skips when GET %s cannot be read, naming the check that judges it', async (path, answer) => {
    const { tools } = scriptedTools(
      accountService([account()], (call) => (call.path === path ? answer : undefined)),
    );
    await expect(readTwice!.expect(tools)).rejects.toThrow(
      new Skip(
        `cannot read GET ${path}: it answered ${answer.status} (the ${path.slice(1)}.json check judges that answer)`,
      ),
    );
  });

  it('skips an account with nothing in any collection', async () => {
    const { tools, calls } = scriptedTools(
      accountService([{ lists: [], fields: [], content: [] }]),
    );
    await expect(readTwice!.expect(tools)).rejects.toThrow(
      new Skip(
        'the account has nothing to compare: GET /lists, /customfields and /content answered no item',
      ),
    );
    expect(calls).toHaveLength(3);
  });
});

describe('writes.stable-after-write', () => {
  it('reads, creates a field, reads, deletes it, reads: the new field listed under its id', async () => {
    const { tools, calls } = scriptedTools(accountService([account()]));
    await expect(aroundWrite!.expect(tools)).resolves.toBe(
      'ids and what they name unchanged by a field created and deleted',
    );
    expect(calls).toEqual([
      ...THREE_READS,
      { method: 'POST', path: `/customfields/${NAME}`, accept: 'application/json' },
      ...THREE_READS,
      { method: 'DELETE', path: '/customfields/77' },
      ...THREE_READS,
    ]);
  });

  it.each([
    ['a refusal that names an id', json(409, { customFieldNameId: 77 })],
    ['a 300 that names an id', json(300, { customFieldNameId: 77 })],
    ['a success without an id', json(201, { name: NAME })],
    ['a success that is not JSON', { status: 200, contentType: 'text/plain', body: 'created' }],
  ])('skips when the create answers %s', async (_, created) => {
    const { tools, calls } = scriptedTools(
      accountService([account()], (call) => (call.method === 'POST' ? created : undefined)),
    );
    await expect(aroundWrite!.expect(tools)).rejects.toThrow(
      new Skip(
        `could not create the field ${NAME}: ${created.status} (writes.field-create judges that answer)`,
      ),
    );
    expect(calls).toHaveLength(4);
  });

  it.each([
    [{ customFieldNameId: 77, name: 'Other' }, 'field 77 has name "Other"'],
    [undefined, 'no field with id 77'],
  ])('fails when the new field is not listed under its id as asked: %j', async (listed, got) => {
    const { tools } = scriptedTools(
      accountService(
        [account(), { ...account(), fields: [...account().fields, ...(listed ? [listed] : [])] }],
        (call) =>
          call.method === 'POST'
            ? json(200, {
                customFieldNameId: 77,
                name: NAME,
                serverId: 1234,
                customFieldType: 'String',
              })
            : undefined,
      ),
    );
    await expect(aroundWrite!.expect(tools)).rejects.toMatchObject({
      wanted: 'the new field listed under its id 77',
      got,
    });
  });

  it('fails when another id appears with the new one', async () => {
    const { tools } = scriptedTools(
      accountService([account(), { ...account(), lists: [...account().lists, { id: 78 }] }]),
    );
    await expect(aroundWrite!.expect(tools)).rejects.toMatchObject({
      wanted: 'after a field was created: the same list ids as before (1)',
      got: 'after a field was created: list id(s) 78 appeared',
    });
  });

  it('fails when the delete is refused, saying so', async () => {
    const { tools } = scriptedTools(
      accountService([account()], (call) => (call.method === 'DELETE' ? json(404, {}) : undefined)),
    );
    await expect(aroundWrite!.expect(tools)).rejects.toMatchObject({
      wanted: 'delete: status a 2xx success',
      got: 'delete: status 404',
    });
  });

  it('fails when the field is still listed after it was deleted', async () => {
    const { tools } = scriptedTools(
      accountService([account()], (call) =>
        call.method === 'DELETE' ? { status: 204, contentType: '', body: '' } : undefined,
      ),
    );
    await expect(aroundWrite!.expect(tools)).rejects.toMatchObject({
      wanted: 'after it was deleted: the same field ids as before (3)',
      got: 'after it was deleted: field id(s) 77 appeared',
    });
  });
});
