import { type Check, type CheckTools, expectStatus, jsonOf, Mismatch } from '../check-kit.js';
import type { Answer } from '../http-client.js';
import { addAContact, addTheRunContact, notMade, takeOffWhenOwn, theRunContact } from '../needs.js';
import { expectObject } from '../shapes.js';

/** The membership result (section 2) for this server, list and, when known, contact. */
function expectMembership(tools: CheckTools, answer: Answer, listId: number, contactId?: number) {
  expectStatus(answer, 200);
  expectObject(
    tools,
    answer,
    jsonOf(answer),
    {
      serverId: { equals: tools.serverId },
      contactId: contactId === undefined ? 'integer' : { equals: contactId },
      listId: { equals: listId },
    },
    'result',
  );
}

/** Contact writes: a throwaway contact (it stays: the API cannot delete contacts). */
export const CONTACT_WRITE_CHECKS: readonly Check[] = [
  {
    id: 'writes.add-creates',
    section: '4 PUT /lists/{listId}/contacts (rule 1); 2 List-membership result',
    requirement:
      'Add by email: an unknown address creates the contact; the result is {serverId, contactId (integer), listId}.',
    writes: true,
    requests: [
      'GET /lists',
      'PUT /lists/{a list id}/contacts {"emailAddress":"fms-verify-<random>@example.com"}',
      "PUT /lists/{list}/contacts {the run's second address} (its id told apart)",
      'DELETE /lists/{list}/contacts/{each} (finally, when their ids differ)',
    ],
    expect: async (tools) => {
      const { listId, answer } = await addTheRunContact(tools);
      expectMembership(tools, answer, listId);
      return `200 ${answer.body}`;
    },
  },
  {
    id: 'writes.second-contact',
    section:
      '2 Contact (an integer id each; the address unique per server); 4 PUT /lists/{listId}/contacts (rules 1 and 2)',
    requirement:
      "A second unknown address creates a second contact: {serverId, contactId, listId} with a contactId of its own (not the first new contact's); each address added again answers its own contactId.",
    writes: true,
    requests: [
      "PUT /lists/{list}/contacts {the run's address}",
      'PUT /lists/{list}/contacts {"emailAddress":"fms-verify-<random>-2@example.com"}',
      'PUT /lists/{list}/contacts {each address again}',
      'DELETE /lists/{list}/contacts/{each} (finally, when their ids differ)',
    ],
    expect: async (tools) => {
      const made = await addAContact(tools, tools.run.address);
      const { listId, contactId: first } = made;
      if (first === undefined) throw notMade(tools.run.address, made.path, made.answer);
      const { answer, contactId } = await addAContact(tools, tools.run.second);
      takeOffWhenOwn(tools, listId, [
        [tools.run.address, first],
        [tools.run.second, contactId],
      ]);
      expectMembership(tools, answer, listId);
      const second = (jsonOf(answer) as { contactId: number }).contactId;
      if (second === first) {
        throw new Mismatch(
          `the second new contact: a contactId of its own (the first new contact is ${first})`,
          `contactId ${second}, the first new contact's`,
          answer,
        );
      }
      for (const [address, id] of [
        [tools.run.address, first],
        [tools.run.second, second],
      ] as const) {
        const again = await tools.call({
          method: 'PUT',
          path: `/lists/${listId}/contacts`,
          accept: 'application/json',
          body: { emailAddress: address },
        });
        expectMembership(tools, again, listId, id);
      }
      return `two new contacts, ids ${first} and ${second}; each address added again answers its own id`;
    },
  },
  {
    id: 'writes.add-by-id',
    section: '4 PUT /lists/{listId}/contacts/{contactId}; 2 List-membership result',
    requirement:
      'Add an existing contact by id: the result is {serverId, contactId, listId} of that contact and list.',
    writes: true,
    requests: [
      "PUT /lists/{list}/contacts {the run's address}, then {its second address} (their ids told apart)",
      'PUT /lists/{list}/contacts/{its id}',
    ],
    expect: async (tools) => {
      const { listId, contactId } = await theRunContact(tools, tools.run.address, true);
      const answer = await tools.call({
        method: 'PUT',
        path: `/lists/${listId}/contacts/${contactId}`,
        accept: 'application/json',
      });
      expectMembership(tools, answer, listId, contactId);
      return `200 ${answer.body}`;
    },
  },
  {
    id: 'writes.re-add-idempotent',
    section: '3 List membership; 7 Other rules',
    requirement:
      'Adding a contact that is already on the list is not an error: 200, the same contact.',
    writes: true,
    requests: [
      "PUT /lists/{list}/contacts {the run's address}, then {its second address} (their ids told apart)",
      'PUT /lists/{list}/contacts {the same address}',
    ],
    expect: async (tools) => {
      const { listId, contactId } = await theRunContact(tools);
      const answer = await tools.call({
        method: 'PUT',
        path: `/lists/${listId}/contacts`,
        accept: 'application/json',
        body: { emailAddress: tools.run.address },
      });
      expectStatus(answer, 200);
      const again = (jsonOf(answer) as { contactId?: unknown }).contactId;
      if (again !== contactId)
        throw new Mismatch(`contactId ${contactId}`, `contactId ${JSON.stringify(again)}`, answer);
      return `200, the same contact ${contactId}`;
    },
  },
  {
    id: 'writes.remove-keeps-contact',
    section: '3 List membership; 4 DELETE /lists/{listId}/contacts/{contactId}',
    requirement: 'Remove from list: the contact still exists (adding it back by id succeeds).',
    writes: true,
    requests: [
      "PUT /lists/{list}/contacts {the run's address}, then {its second address} (their ids told apart)",
      'DELETE /lists/{list}/contacts/{it}',
      'PUT /lists/{list}/contacts/{it}',
    ],
    expect: async (tools) => {
      const { listId, contactId } = await theRunContact(tools, tools.run.address, true);
      const path = `/lists/${listId}/contacts/${contactId}`;
      expectStatus(await tools.call({ method: 'DELETE', path }), '2xx', 'remove: ');
      const back = await tools.call({ method: 'PUT', path, accept: 'application/json' });
      expectStatus(back, '2xx', 'add back by id: ');
      return `removed, then added back by id: ${back.status}`;
    },
  },
  ...(['by-email', 'by-id'] as const).map(
    (form): Check => ({
      id: `writes.unsubscribe-${form}`,
      section: `4 POST /contacts/unsubscribe${form === 'by-id' ? '/{contactId} (form 1)' : ' (form 2)'}; 3 Contact status`,
      requirement: `Unsubscribe a known contact ${form === 'by-id' ? 'by id in the path (form 1)' : 'by emailAddress in a JSON body (form 2)'}: success.`,
      writes: true,
      requests: [
        "PUT /lists/{list}/contacts {the run's address}, then {its second address} (their ids told apart)",
        form === 'by-id'
          ? 'POST /contacts/unsubscribe/{its id}'
          : 'POST /contacts/unsubscribe {"emailAddress":"<the run\'s address>"}',
      ],
      expect: async (tools) => {
        // By id only when the id is told apart: it may be a customer's.
        const { contactId } = await theRunContact(tools, tools.run.address, form === 'by-id');
        const answer = await tools.call(
          form === 'by-id'
            ? { method: 'POST', path: `/contacts/unsubscribe/${contactId}` }
            : {
                method: 'POST',
                path: '/contacts/unsubscribe',
                body: { emailAddress: tools.run.address },
              },
        );
        if (answer.status < 300)
          tools.made(
            `the contact ${tools.run.address} is unsubscribed (no method moves it out of Unsubscribed)`,
          );
        expectStatus(answer, '2xx');
        if (answer.body.trim() !== '')
          tools.note(
            `the answer has a body, the description gives none: ${answer.body.slice(0, 80)}`,
          );
        return `${answer.status}: unsubscribed`;
      },
    }),
  ),
];
