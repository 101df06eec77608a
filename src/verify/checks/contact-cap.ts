import { type Check, expectStatus, jsonOf, Mismatch, Skip } from '../check-kit.js';
import { expectErrorFormat } from '../error-answers.js';
import type { Answer } from '../http-client.js';
import { integerId, takeOffWhenOwn, theRunContact } from '../needs.js';

/** The contact maximum (4 rule 6, 7, 8): a write past it, when the account can reach it. */
export const CONTACT_CAP_CHECKS: readonly Check[] = [
  {
    id: 'writes.contact-cap',
    section:
      '4 PUT /lists/{listId}/contacts (rules 2 and 6); 7 (403); 8 Maximum contacts per server',
    requirement:
      'A new contact past the maximum: 403 (JSON and XML, with the Content-Type Accept chose); an existing contact is still added. The maximum is not given: checked only within --max-new-contacts new contacts.',
    writes: true,
    requests: [
      'PUT /lists/{list}/contacts {"emailAddress":"fms-verify-<random>-2@example.com"} (an existing contact), then {the run\'s address} (their ids told apart)',
      'PUT /lists/{list}/contacts {"emailAddress":"fms-verify-<random>-cap<n>@example.com"}, up to --max-new-contacts, until a 403',
      'PUT /lists/{list}/contacts {another new address} (Accept: text/xml)',
      'DELETE /lists/{list}/contacts/{the existing contact}',
      'PUT /lists/{list}/contacts {the existing contact}',
      'DELETE /lists/{list}/contacts/{each} (finally, each by an id no other address was answered)',
    ],
    expect: async (tools) => {
      const budget = tools.maxNewContacts;
      if (budget < 1)
        throw new Skip(
          'the maximum is not given (8) and the API cannot delete contacts: give --max-new-contacts <n> (maxNewContacts), the throwaway contacts this check may leave, on an account whose maximum is within n new contacts',
        );
      const { listId, contactId } = await theRunContact(tools, tools.run.second, true);
      const path = `/lists/${listId}/contacts`;
      const add = (address: string, accept: 'application/json' | 'text/xml' = 'application/json') =>
        tools.call({ method: 'PUT', path, accept, body: { emailAddress: address } });
      const made: string[] = [];
      const ids: [string, number | undefined][] = [];
      let refused: Answer | undefined;
      try {
        for (let index = 1; index <= budget && !refused; index++) {
          const address = `fms-verify-${tools.run.tag}-cap${index}@example.com`;
          const answer = await add(address);
          if (answer.status === 403) refused = answer;
          else if (answer.status === 200) {
            made.push(address);
            // Its shape is writes.contact-add's to judge: here, only an id to undo with.
            ids.push([
              address,
              integerId((jsonOf(answer) as { contactId?: unknown } | null)?.contactId),
            ]);
          } else
            throw new Mismatch(
              `new contact ${index}: 200 (created, 4 rule 1) or 403 (past the maximum, 4 rule 6)`,
              `new contact ${index}: status ${answer.status}`,
              answer,
            );
        }
      } finally {
        takeOffWhenOwn(tools, listId, ids, [[tools.run.second, contactId]]);
        if (made.length > 0)
          tools.made(
            `${made.length} contact(s) ${made[0]}${made.length > 1 ? ` to ${made.at(-1)}` : ''} (contacts cannot be deleted through the API)`,
          );
      }
      if (!refused)
        throw new Skip(
          `no 403 within ${budget} new contact(s): the maximum is further (give a larger --max-new-contacts, or an account nearer its maximum)`,
        );
      expectErrorFormat(refused, 'application/json', 'past the maximum: ');
      const extra = `fms-verify-${tools.run.tag}-capx@example.com`;
      const xml = await add(extra, 'text/xml');
      if (xml.status >= 200 && xml.status < 300)
        tools.made(`the contact ${extra} (contacts cannot be deleted through the API)`);
      expectStatus(xml, 403, 'past the maximum, XML: ');
      expectErrorFormat(xml, 'text/xml', 'past the maximum, XML: ');
      // Rule 6 refuses a new contact only: an existing one not on the list is still added (rule 2).
      await tools.call({ method: 'DELETE', path: `${path}/${contactId}` });
      const again = await add(tools.run.second);
      expectStatus(
        again,
        200,
        'at the maximum, an existing contact (taken off the list) added again: ',
      );
      return `403 after ${made.length} new contact(s), in JSON and XML; an existing contact is still added`;
    },
  },
];
