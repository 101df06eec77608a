import { describe, expect, it } from 'vitest';
import { Mismatch, Skip } from '../../../../src/verify/check-kit.js';
import { CONTACT_CAP_CHECKS } from '../../../../src/verify/checks/contact-cap.js';
import type { Answer, Call } from '../../../../src/verify/http-client.js';
import { json, scriptedTools, xml } from '../../../helpers/scripted-tools.js';

const [cap] = CONTACT_CAP_CHECKS;
const SECOND = 'fms-verify-0123456789ab-2@example.com';
const FIRST = 'fms-verify-0123456789ab@example.com';
const capAddress = (n: number | 'x') => `fms-verify-0123456789ab-cap${n}@example.com`;
const REFUSED_XML = xml(403, '<Error><Message>Maximum contacts reached</Message></Error>');

/**
 * A service whose account takes `room` new contacts, then refuses with 403; list 7, the run's
 * second contact 50 (its first 49), new contacts 101, 102... `answer` overrides any call it answers.
 */
function capService(room: number, answer: (call: Call) => Answer | undefined = () => undefined) {
  return (call: Call): Answer => {
    const given = answer(call);
    if (given) return given;
    const address = (call.body as { emailAddress?: string } | undefined)?.emailAddress;
    if (call.method === 'GET' && call.path === '/lists')
      return json(200, [{ id: 7, name: 'Main', serverId: 1234 }]);
    if (call.method === 'DELETE') return { status: 204, contentType: '', body: '' };
    if (address === SECOND) return json(200, { serverId: 1234, contactId: 50, listId: 7 });
    if (address === FIRST) return json(200, { serverId: 1234, contactId: 49, listId: 7 });
    if (call.accept === 'text/xml') return REFUSED_XML;
    const n = Number(address?.match(/-cap(\d+)@/)?.[1]);
    return n <= room
      ? json(200, { serverId: 1234, contactId: 100 + n, listId: 7 })
      : json(403, { message: 'Maximum contacts reached' });
  };
}

describe('writes.contact-cap', () => {
  it('skips without --max-new-contacts, sending nothing', async () => {
    const { tools, calls } = scriptedTools(capService(0));
    await expect(cap!.expect(tools)).rejects.toThrow(
      new Skip(
        'the maximum is not given (8) and the API cannot delete contacts: give --max-new-contacts <n> (maxNewContacts), the throwaway contacts this check may leave, on an account whose maximum is within n new contacts',
      ),
    );
    expect(calls).toEqual([]);
  });

  it('adds new contacts in JSON until a 403, then asks once more in XML and re-adds an existing contact', async () => {
    const { tools, calls, made } = scriptedTools(capService(2), { maxNewContacts: 5 });
    await expect(cap!.expect(tools)).resolves.toBe(
      '403 after 2 new contact(s), in JSON and XML; an existing contact is still added',
    );
    expect(calls.slice(4)).toEqual([
      ...[1, 2, 3].map((n) => ({
        method: 'PUT',
        path: '/lists/7/contacts',
        accept: 'application/json',
        body: { emailAddress: capAddress(n) },
      })),
      {
        method: 'PUT',
        path: '/lists/7/contacts',
        accept: 'text/xml',
        body: { emailAddress: capAddress('x') },
      },
      { method: 'DELETE', path: '/lists/7/contacts/50' },
      {
        method: 'PUT',
        path: '/lists/7/contacts',
        accept: 'application/json',
        body: { emailAddress: SECOND },
      },
    ]);
    expect(made.map(({ what }) => what)).toEqual([
      `the contact ${SECOND} (id 50 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${FIRST} (id 49 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${SECOND} on list 7`,
      `the contact ${FIRST} on list 7`,
      `the contact ${capAddress(1)} on list 7`,
      `the contact ${capAddress(2)} on list 7`,
      `2 contact(s) ${capAddress(1)} to ${capAddress(2)} (contacts cannot be deleted through the API)`,
    ]);
  });

  it('names one new contact it left without a range', async () => {
    const { tools, made } = scriptedTools(capService(1), { maxNewContacts: 3 });
    await expect(cap!.expect(tools)).resolves.toBe(
      '403 after 1 new contact(s), in JSON and XML; an existing contact is still added',
    );
    expect(made.at(-1)?.what).toBe(
      `1 contact(s) ${capAddress(1)} (contacts cannot be deleted through the API)`,
    );
  });

  it('takes a new contact off its list in finally, counting only a 2xx as done', async () => {
    let statusOfUndo = 200;
    const { tools, made } = scriptedTools(
      capService(1, (call) =>
        call.method === 'DELETE' && call.path === '/lists/7/contacts/101'
          ? { status: statusOfUndo, contentType: '', body: '' }
          : undefined,
      ),
      { maxNewContacts: 2 },
    );
    await cap!.expect(tools);
    const undo = made.find(({ what }) => what === `the contact ${capAddress(1)} on list 7`)?.undo;
    expect(undo).toBeDefined();
    const outcomes: Record<number, boolean> = {};
    for (const status of [199, 200, 204, 299, 300, 404]) {
      statusOfUndo = status;
      outcomes[status] = await undo!();
    }
    expect(outcomes).toEqual({
      199: false,
      200: true,
      204: true,
      299: true,
      300: false,
      404: false,
    });
  });

  it('skips when no 403 comes within the budget, naming the contacts it left', async () => {
    const { tools, calls, made } = scriptedTools(capService(10), { maxNewContacts: 3 });
    await expect(cap!.expect(tools)).rejects.toThrow(
      new Skip(
        'no 403 within 3 new contact(s): the maximum is further (give a larger --max-new-contacts, or an account nearer its maximum)',
      ),
    );
    expect(calls).toHaveLength(7);
    expect(made.at(-1)?.what).toBe(
      `3 contact(s) ${capAddress(1)} to ${capAddress(3)} (contacts cannot be deleted through the API)`,
    );
  });

  it('fails on a new contact answered neither 200 nor 403, still naming those it made', async () => {
    const { tools, made } = scriptedTools(
      capService(5, (call) =>
        (call.body as { emailAddress?: string } | undefined)?.emailAddress === capAddress(2)
          ? json(409, { message: 'no' })
          : undefined,
      ),
      { maxNewContacts: 5 },
    );
    await expect(cap!.expect(tools)).rejects.toMatchObject({
      name: 'Mismatch',
      wanted: 'new contact 2: 200 (created, 4 rule 1) or 403 (past the maximum, 4 rule 6)',
      got: 'new contact 2: status 409',
    });
    expect(made.at(-1)?.what).toBe(
      `1 contact(s) ${capAddress(1)} (contacts cannot be deleted through the API)`,
    );
  });

  it('names no contacts as left when the first new one is refused', async () => {
    const { tools, made } = scriptedTools(capService(0), { maxNewContacts: 3 });
    await expect(cap!.expect(tools)).resolves.toBe(
      '403 after 0 new contact(s), in JSON and XML; an existing contact is still added',
    );
    expect(made.map(({ what }) => what)).toEqual([
      `the contact ${SECOND} (id 50 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${FIRST} (id 49 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${SECOND} on list 7`,
      `the contact ${FIRST} on list 7`,
    ]);
  });

  it('offers no undo for a new contact whose answer gives no usable id', async () => {
    const { tools, made } = scriptedTools(
      capService(1, (call) =>
        (call.body as { emailAddress?: string } | undefined)?.emailAddress === capAddress(1)
          ? json(200, { serverId: 1234, listId: 7 })
          : undefined,
      ),
      { maxNewContacts: 2 },
    );
    await cap!.expect(tools);
    expect(made.map(({ what }) => what)).toEqual([
      `the contact ${SECOND} (id 50 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${FIRST} (id 49 as the service answered it; contacts cannot be deleted through the API)`,
      `the contact ${SECOND} on list 7`,
      `the contact ${FIRST} on list 7`,
      `1 contact(s) ${capAddress(1)} (contacts cannot be deleted through the API)`,
    ]);
  });

  it('reads a new contact answered 200 with a JSON null or array as made, without an id to undo', async () => {
    for (const body of [null, [101], 'text']) {
      const { tools, made } = scriptedTools(
        capService(1, (call) =>
          (call.body as { emailAddress?: string } | undefined)?.emailAddress === capAddress(1)
            ? json(200, body)
            : undefined,
        ),
        { maxNewContacts: 2 },
      );
      await expect(cap!.expect(tools)).resolves.toMatch(/^403 after 1 new contact/);
      // Only the run's own second contact can be taken off its list again.
      expect(made.filter(({ undo }) => undo).map(({ what }) => what)).toEqual([
        `the contact ${SECOND} on list 7`,
        `the contact ${FIRST} on list 7`,
      ]);
      expect(made.at(-1)?.what).toBe(
        `1 contact(s) ${capAddress(1)} (contacts cannot be deleted through the API)`,
      );
    }
  });

  it('fails when the 403 is not in JSON', async () => {
    const { tools } = scriptedTools(
      capService(0, (call) =>
        (call.body as { emailAddress?: string } | undefined)?.emailAddress === capAddress(1)
          ? { status: 403, contentType: 'text/plain', body: 'Forbidden' }
          : undefined,
      ),
      { maxNewContacts: 1 },
    );
    await expect(cap!.expect(tools)).rejects.toMatchObject({
      wanted:
        'past the maximum: an error answer with Content-Type application/json, as Accept chose',
      got: 'past the maximum: Content-Type text/plain',
    });
  });

  it.each([
    [200, true],
    [299, true],
    [199, false],
    [300, false],
    [409, false],
  ])(
    'past the maximum, an XML add answered %i: a failure, the contact noted as left: %s',
    async (status, left) => {
      const { tools, made } = scriptedTools(
        capService(0, (call) =>
          call.accept === 'text/xml' ? xml(status, '<Contact><Id>9</Id></Contact>') : undefined,
        ),
        { maxNewContacts: 1 },
      );
      const error = await cap!.expect(tools).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Mismatch);
      expect(error).toMatchObject({
        wanted: 'past the maximum, XML: status 403',
        got: `past the maximum, XML: status ${status}`,
      });
      const note = `the contact ${capAddress('x')} (contacts cannot be deleted through the API)`;
      expect(made.some(({ what }) => what === note)).toBe(left);
    },
  );

  it('past the maximum, an XML 403 must be in XML', async () => {
    const { tools } = scriptedTools(
      capService(0, (call) => (call.accept === 'text/xml' ? json(403, {}) : undefined)),
      { maxNewContacts: 1 },
    );
    await expect(cap!.expect(tools)).rejects.toMatchObject({
      wanted: 'past the maximum, XML: an error answer with Content-Type text/xml, as Accept chose',
    });
  });

  it('fails when an existing contact taken off the list is refused at the maximum', async () => {
    let seen = 0;
    const { tools } = scriptedTools(
      capService(0, (call) => {
        const address = (call.body as { emailAddress?: string } | undefined)?.emailAddress;
        if (address !== SECOND) return undefined;
        seen += 1;
        return seen > 1 ? json(403, { message: 'Maximum contacts reached' }) : undefined;
      }),
      { maxNewContacts: 1 },
    );
    await expect(cap!.expect(tools)).rejects.toMatchObject({
      wanted: 'at the maximum, an existing contact (taken off the list) added again: status 200',
      got: 'at the maximum, an existing contact (taken off the list) added again: status 403',
    });
  });
});

describe('writes.contact-cap with ids it cannot tell apart', () => {
  it("skips before any write by id when the run's two addresses answer one id", async () => {
    const { tools, calls, made } = scriptedTools(
      capService(2, (call) =>
        (call.body as { emailAddress?: string } | undefined)?.emailAddress === FIRST
          ? json(200, { serverId: 1234, contactId: 50, listId: 7 })
          : undefined,
      ),
      { maxNewContacts: 5 },
    );
    await expect(cap!.expect(tools)).rejects.toThrow(Skip);
    expect(calls.filter(({ method }) => method === 'DELETE')).toEqual([]);
    expect(made.filter(({ undo }) => undo)).toEqual([]);
  });

  it('takes off no new contact whose id another address was answered with', async () => {
    const { tools, made } = scriptedTools(
      capService(3, (call) => {
        const address = (call.body as { emailAddress?: string } | undefined)?.emailAddress;
        // The second and third new contacts share an id; the first is given the run's contact's.
        if (address === capAddress(1))
          return json(200, { serverId: 1234, contactId: 50, listId: 7 });
        if (address === capAddress(2) || address === capAddress(3))
          return json(200, { serverId: 1234, contactId: 102, listId: 7 });
        return undefined;
      }),
      { maxNewContacts: 5 },
    );
    await cap!.expect(tools);
    expect(made.filter(({ undo }) => undo).map(({ what }) => what)).toEqual([
      `the contact ${SECOND} on list 7`,
      `the contact ${FIRST} on list 7`,
    ]);
    expect(made.map(({ what }) => what)).toContain(
      `the contact ${capAddress(2)} on list 7 (not taken off: the service answered the id 102 for ${capAddress(3)} too, so it may be another contact's)`,
    );
    expect(made.map(({ what }) => what)).toContain(
      `the contact ${capAddress(1)} on list 7 (not taken off: the service answered the id 50 for ${SECOND} too, so it may be another contact's)`,
    );
  });
});
