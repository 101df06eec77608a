import { describe, expect, it } from 'vitest';
import { type Check, Skip } from '../../../../src/verify/check-kit.js';
import { CONTACT_WRITE_CHECKS } from '../../../../src/verify/checks/contact-writes.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, scriptedTools } from '../../../helpers/scripted-tools.js';

const check = (id: string): Check => {
  const found = CONTACT_WRITE_CHECKS.find((entry) => entry.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

const FIRST = 'fms-verify-0123456789ab@example.com';
const SECOND = 'fms-verify-0123456789ab-2@example.com';
const empty = (status: number, body = ''): Answer => ({ status, contentType: '', body });
const membership = (contactId: unknown, more: object = {}) =>
  json(200, { serverId: 1234, contactId, listId: 7, ...more });

/**
 * A service with list 7 where the run's address is contact 50 and its second address contact 51;
 * `answer` overrides any call it answers (`index` counts the calls so far).
 */
function contactService(
  answer: (call: Call, index: number) => Answer | undefined = () => undefined,
) {
  return (call: Call, index: number): Answer => {
    const given = answer(call, index);
    if (given) return given;
    const address = (call.body as { emailAddress?: string } | undefined)?.emailAddress;
    if (call.method === 'GET' && call.path === '/lists')
      return json(200, [{ id: 7, name: 'Main', serverId: 1234 }]);
    if (call.method === 'PUT' && address === FIRST) return membership(50);
    if (call.method === 'PUT' && address === SECOND) return membership(51);
    if (call.method === 'PUT' && call.path === '/lists/7/contacts/50') return membership(50);
    if (call.method === 'DELETE') return empty(204);
    if (call.method === 'POST') return empty(204);
    return empty(404);
  };
}

describe('writes.add-creates', () => {
  it('adds the run address to the first list and passes on the membership result', async () => {
    const { tools, calls } = scriptedTools(contactService());
    await expect(check('writes.add-creates').expect(tools)).resolves.toBe(
      '200 {"serverId":1234,"contactId":50,"listId":7}',
    );
    expect(calls[1]).toEqual({
      method: 'PUT',
      path: '/lists/7/contacts',
      accept: 'application/json',
      body: { emailAddress: FIRST },
    });
  });

  it.each([
    [
      'a contactId that is no integer',
      membership('50'),
      'result.contactId: an integer',
      'result.contactId is "50"',
    ],
    [
      'another server',
      json(200, { serverId: 99, contactId: 50, listId: 7 }),
      'result.serverId: 1234',
      'result.serverId is 99',
    ],
    [
      'another list',
      json(200, { serverId: 1234, contactId: 50, listId: 8 }),
      'result.listId: 7',
      'result.listId is 8',
    ],
  ])('fails on %s', async (_, answer, wanted, got) => {
    const { tools } = scriptedTools(
      contactService((call) => (call.method === 'PUT' ? answer : undefined)),
    );
    await expect(check('writes.add-creates').expect(tools)).rejects.toMatchObject({ wanted, got });
  });
});

describe('writes.second-contact', () => {
  it('adds both addresses, then each again, asking JSON each time', async () => {
    const { tools, calls } = scriptedTools(contactService());
    await expect(check('writes.second-contact').expect(tools)).resolves.toBe(
      'two new contacts, ids 50 and 51; each address added again answers its own id',
    );
    const puts = calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.path, call.accept, call.body])).toEqual(
      [FIRST, SECOND, FIRST, SECOND].map((address) => [
        '/lists/7/contacts',
        'application/json',
        { emailAddress: address },
      ]),
    );
  });

  it('skips, adding nothing more, when the first add names no contact id', async () => {
    const { tools, calls } = scriptedTools(
      contactService((call) =>
        (call.body as { emailAddress?: string } | undefined)?.emailAddress === FIRST
          ? json(200, { serverId: 1234, listId: 7 })
          : undefined,
      ),
    );
    await expect(check('writes.second-contact').expect(tools)).rejects.toBeInstanceOf(Skip);
    expect(calls.filter(({ method }) => method === 'PUT')).toHaveLength(1);
  });

  it('takes both contacts off their list by their own ids', async () => {
    const { tools, made } = scriptedTools(contactService());
    await check('writes.second-contact').expect(tools);
    expect(made.filter(({ undo }) => undo).map(({ what }) => what)).toEqual([
      `the contact ${FIRST} on list 7`,
      `the contact ${SECOND} on list 7`,
    ]);
  });

  it("fails when the second address answers the first contact's id", async () => {
    const { tools } = scriptedTools(
      contactService((call) =>
        (call.body as { emailAddress?: string } | undefined)?.emailAddress === SECOND
          ? membership(50)
          : undefined,
      ),
    );
    await expect(check('writes.second-contact').expect(tools)).rejects.toMatchObject({
      wanted: 'the second new contact: a contactId of its own (the first new contact is 50)',
      got: "contactId 50, the first new contact's",
    });
  });

  it('fails when an address added again answers another contact', async () => {
    let firstAdds = 0;
    const { tools } = scriptedTools(
      contactService((call) => {
        if ((call.body as { emailAddress?: string } | undefined)?.emailAddress !== FIRST)
          return undefined;
        firstAdds += 1;
        return firstAdds > 1 ? membership(52) : undefined;
      }),
    );
    await expect(check('writes.second-contact').expect(tools)).rejects.toMatchObject({
      wanted: 'result.contactId: 50',
      got: 'result.contactId is 52',
    });
  });
});

describe('writes.add-by-id', () => {
  it('adds the contact by its id in the path, asking JSON', async () => {
    const { tools, calls } = scriptedTools(contactService());
    await expect(check('writes.add-by-id').expect(tools)).resolves.toBe(
      '200 {"serverId":1234,"contactId":50,"listId":7}',
    );
    expect(calls.at(-1)).toEqual({
      method: 'PUT',
      path: '/lists/7/contacts/50',
      accept: 'application/json',
    });
  });

  it('fails when the result names another contact', async () => {
    const { tools } = scriptedTools(
      contactService((call) => (call.path === '/lists/7/contacts/50' ? membership(51) : undefined)),
    );
    await expect(check('writes.add-by-id').expect(tools)).rejects.toMatchObject({
      wanted: 'result.contactId: 50',
      got: 'result.contactId is 51',
    });
  });
});

describe('writes.re-add-idempotent', () => {
  it('adds the same address twice, asking JSON, and passes on the same contact', async () => {
    const { tools, calls } = scriptedTools(contactService());
    await expect(check('writes.re-add-idempotent').expect(tools)).resolves.toBe(
      '200, the same contact 50',
    );
    expect(calls.at(-1)).toEqual({
      method: 'PUT',
      path: '/lists/7/contacts',
      accept: 'application/json',
      body: { emailAddress: FIRST },
    });
  });

  it.each([
    [membership(53), 'contactId 53'],
    [membership('50'), 'contactId "50"'],
    [json(200, { serverId: 1234, listId: 7 }), 'contactId undefined'],
  ])('fails when the second add answers %j', async (again, got) => {
    const { tools } = scriptedTools(
      contactService((_, index) => (index === 4 ? again : undefined)),
    );
    await expect(check('writes.re-add-idempotent').expect(tools)).rejects.toMatchObject({
      wanted: 'contactId 50',
      got,
    });
  });

  it('fails when adding again is refused', async () => {
    const { tools } = scriptedTools(
      contactService((_, index) =>
        index === 4 ? json(409, { message: 'on the list' }) : undefined,
      ),
    );
    await expect(check('writes.re-add-idempotent').expect(tools)).rejects.toMatchObject({
      wanted: 'status 200',
      got: 'status 409',
    });
  });
});

describe('writes.remove-keeps-contact', () => {
  it('removes the contact from the list, then adds it back by id in JSON', async () => {
    const { tools, calls } = scriptedTools(contactService());
    await expect(check('writes.remove-keeps-contact').expect(tools)).resolves.toBe(
      'removed, then added back by id: 200',
    );
    expect(calls.slice(4)).toEqual([
      { method: 'DELETE', path: '/lists/7/contacts/50' },
      { method: 'PUT', path: '/lists/7/contacts/50', accept: 'application/json' },
    ]);
  });

  it('fails when the removal is refused, saying which step', async () => {
    const { tools } = scriptedTools(
      contactService((call) => (call.method === 'DELETE' ? empty(500) : undefined)),
    );
    await expect(check('writes.remove-keeps-contact').expect(tools)).rejects.toMatchObject({
      wanted: 'remove: status a 2xx success',
      got: 'remove: status 500',
    });
  });

  it('fails when adding back by id is refused, saying which step', async () => {
    const { tools } = scriptedTools(
      contactService((call) =>
        call.path === '/lists/7/contacts/50' && call.method === 'PUT' ? empty(404) : undefined,
      ),
    );
    await expect(check('writes.remove-keeps-contact').expect(tools)).rejects.toMatchObject({
      wanted: 'add back by id: status a 2xx success',
      got: 'add back by id: status 404',
    });
  });
});

describe.each([
  ['writes.unsubscribe-by-id', { method: 'POST', path: '/contacts/unsubscribe/50' }],
  [
    'writes.unsubscribe-by-email',
    { method: 'POST', path: '/contacts/unsubscribe', body: { emailAddress: FIRST } },
  ],
])('%s', (id, sent) => {
  const UNSUBSCRIBED = `the contact ${FIRST} is unsubscribed (no method moves it out of Unsubscribed)`;
  const unsubscribe = (status: number, body = '') => {
    const run = scriptedTools(
      contactService((call) => (call.method === 'POST' ? empty(status, body) : undefined)),
    );
    return { ...run, outcome: check(id).expect(run.tools) };
  };

  it('sends its form of the request and passes on a 2xx without a body', async () => {
    const { outcome, calls, notes, made } = unsubscribe(204);
    await expect(outcome).resolves.toBe('204: unsubscribed');
    expect(calls.at(-1)).toEqual(sent);
    expect(notes).toEqual([]);
    expect(made.at(-1)?.what).toBe(UNSUBSCRIBED);
  });

  it('does not note a body of white space only', async () => {
    const { outcome, notes } = unsubscribe(200, ' \n ');
    await expect(outcome).resolves.toBe('200: unsubscribed');
    expect(notes).toEqual([]);
  });

  it('notes a body the description does not give, its first 80 characters', async () => {
    const { outcome, notes } = unsubscribe(200, `{"ok":true,"pad":"${'x'.repeat(100)}"}`);
    await expect(outcome).resolves.toBe('200: unsubscribed');
    expect(notes).toEqual([
      `the answer has a body, the description gives none: {"ok":true,"pad":"${'x'.repeat(62)}`,
    ]);
  });

  it.each([
    [299, true],
    [300, false],
    [404, false],
  ])('answered %i: the contact counted as unsubscribed: %s', async (status, left) => {
    const { outcome, made } = unsubscribe(status);
    if (status < 300) await expect(outcome).resolves.toBe(`${status}: unsubscribed`);
    else
      await expect(outcome).rejects.toMatchObject({
        wanted: 'status a 2xx success',
        got: `status ${status}`,
      });
    expect(made.some(({ what }) => what === UNSUBSCRIBED)).toBe(left);
  });
});

describe('a contact id the service also answered for the other address', () => {
  /** A service that answers contact 4 (a customer's) for every address added by email. */
  const oneId = () =>
    scriptedTools(
      contactService((call) => (call.path === '/lists/7/contacts' ? membership(4) : undefined)),
    );

  it.each(['writes.add-by-id', 'writes.remove-keeps-contact', 'writes.unsubscribe-by-id'])(
    '%s skips, sending nothing by that id and taking nothing off',
    async (id) => {
      const { tools, calls, made } = oneId();
      await expect(check(id).expect(tools)).rejects.toThrow(
        `cannot confirm the id 4 answered for ${FIRST} is its own (the service answered it for ${SECOND} too; no method reads a contact back): verify does not remove, unsubscribe or add by an id that may be another contact's (writes.second-contact judges those answers)`,
      );
      expect(
        calls.filter((call) => call.path !== '/lists' && call.path !== '/lists/7/contacts'),
      ).toEqual([]);
      expect(made.filter(({ undo }) => undo)).toEqual([]);
      expect(made.map(({ what }) => what)).toContain(
        `the contact ${FIRST} on list 7 (not taken off: the service answered the id 4 for ${SECOND} too, so it may be another contact's)`,
      );
    },
  );

  it.each(['writes.add-creates', 'writes.re-add-idempotent', 'writes.unsubscribe-by-email'])(
    '%s still judges the answers, and takes nothing off',
    async (id) => {
      const { tools, calls, made } = oneId();
      await expect(check(id).expect(tools)).resolves.toBeTypeOf('string');
      expect(calls.some((call) => call.method === 'DELETE' || /\/\d+$/.test(call.path))).toBe(
        false,
      );
      expect(made.filter(({ undo }) => undo)).toEqual([]);
    },
  );

  it('writes.second-contact fails and takes neither contact off', async () => {
    const { tools, made } = oneId();
    await expect(check('writes.second-contact').expect(tools)).rejects.toMatchObject({
      got: "contactId 4, the first new contact's",
    });
    expect(made.filter(({ undo }) => undo)).toEqual([]);
  });

  it('takes both contacts off by their own ids when they differ', async () => {
    const { tools, calls, made } = scriptedTools(contactService());
    await check('writes.add-creates').expect(tools);
    const undos = made.filter(({ undo }) => undo);
    expect(undos.map(({ what }) => what)).toEqual([
      `the contact ${FIRST} on list 7`,
      `the contact ${SECOND} on list 7`,
    ]);
    for (const { undo } of undos) expect(await undo!()).toBe(true);
    expect(calls.slice(-2)).toEqual([
      { method: 'DELETE', path: '/lists/7/contacts/50' },
      { method: 'DELETE', path: '/lists/7/contacts/51' },
    ]);
  });
});
