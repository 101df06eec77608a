import {
  type Check,
  type CheckTools,
  expectJsonMessage,
  expectStatus,
  jsonOf,
  Mismatch,
  Skip,
} from '../check-kit.js';
import type { Answer } from '../http-client.js';
import { aListId, createField, theRunContact } from '../needs.js';
import { expectObject } from '../shapes.js';
import { FIELD_RULES } from './fields.js';

const MAX_FIELDS = 20;
const EXCEEDED = 'You have exceeded the maximum number of Custom Field Names allowed.';

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

/** Creates a throwaway field for a check that needs one; skips when it cannot. */
async function aNewField(tools: CheckTools, name: string): Promise<number> {
  const answer = await createField(tools, name);
  const id =
    answer.status < 300
      ? (jsonOf(answer) as { customFieldNameId?: unknown }).customFieldNameId
      : undefined;
  if (!Number.isInteger(id)) {
    throw new Skip(
      `could not create the field ${name} this check needs: ${answer.status} ${answer.body.slice(0, 120)} (writes.field-create judges that answer)`,
    );
  }
  return id as number;
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
      'DELETE /lists/{list}/contacts/{it} (finally)',
    ],
    expect: async (tools) => {
      const listId = await aListId(tools);
      const path = `/lists/${listId}/contacts`;
      const answer = await tools.call({
        method: 'PUT',
        path,
        accept: 'application/json',
        body: { emailAddress: tools.run.address },
      });
      if (answer.status < 300)
        tools.made(`the contact ${tools.run.address} (contacts cannot be deleted through the API)`);
      const contactId = (
        JSON.parse(answer.status < 300 && answer.body ? answer.body : '{}') as {
          contactId?: unknown;
        }
      ).contactId;
      if (Number.isInteger(contactId)) {
        tools.made(`the contact ${tools.run.address} on list ${listId}`, async () => {
          const removed = await tools.call({ method: 'DELETE', path: `${path}/${contactId}` });
          return removed.status < 300;
        });
      }
      expectMembership(tools, answer, listId);
      return `200 ${answer.body}`;
    },
  },
  {
    id: 'writes.add-by-id',
    section: '4 PUT /lists/{listId}/contacts/{contactId}; 2 List-membership result',
    requirement:
      'Add an existing contact by id: the result is {serverId, contactId, listId} of that contact and list.',
    writes: true,
    requests: [
      "PUT /lists/{list}/contacts {the run's address}",
      'PUT /lists/{list}/contacts/{its id}',
    ],
    expect: async (tools) => {
      const { listId, contactId } = await theRunContact(tools);
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
      "PUT /lists/{list}/contacts {the run's address}",
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
      "PUT /lists/{list}/contacts {the run's address}",
      'DELETE /lists/{list}/contacts/{it}',
      'PUT /lists/{list}/contacts/{it}',
    ],
    expect: async (tools) => {
      const { listId, contactId } = await theRunContact(tools);
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
        "PUT /lists/{list}/contacts {the run's address}",
        form === 'by-id'
          ? 'POST /contacts/unsubscribe/{its id}'
          : 'POST /contacts/unsubscribe {"emailAddress":"<the run\'s address>"}',
      ],
      expect: async (tools) => {
        const { contactId } = await theRunContact(tools);
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

/** Custom field writes: throwaway fields, deleted in the run's `finally`. */
export const FIELD_WRITE_CHECKS: readonly Check[] = [
  {
    id: 'writes.field-create',
    section: '4 POST /customfields/{name} (Response); 2 Custom field',
    requirement:
      'Create a custom field: success, one Custom field object {customFieldNameId, name as asked, serverId, customFieldType "String"}, listed by GET /customfields.',
    writes: true,
    requests: [
      'POST /customfields/FmsVerify<random>C',
      'GET /customfields',
      'DELETE /customfields/{its id} (finally)',
    ],
    expect: async (tools) => {
      const name = `${tools.run.fieldName}C`;
      const answer = await createField(tools, name);
      expectStatus(answer, '2xx');
      expectObject(
        tools,
        answer,
        jsonOf(answer),
        { ...FIELD_RULES(tools.serverId), name: { equals: name } },
        'field',
      );
      const id = (jsonOf(answer) as { customFieldNameId: number }).customFieldNameId;
      const listed = await tools.call({
        method: 'GET',
        path: '/customfields',
        accept: 'application/json',
      });
      const fields = jsonOf(listed, 'GET /customfields: ');
      if (
        !Array.isArray(fields) ||
        !fields.some((field) => field?.customFieldNameId === id && field?.name === name)
      ) {
        throw new Mismatch(
          `GET /customfields: the new field ${id} ${name} listed`,
          'GET /customfields: not listed',
          listed,
        );
      }
      return `${answer.status} ${answer.body}, then listed`;
    },
  },
  {
    id: 'writes.field-duplicate',
    section: '7 (409 messages)',
    requirement:
      "Create a name that exists: 409 'The field '{name}' can't be created because it already exists.'",
    writes: true,
    requests: [
      'POST /customfields/FmsVerify<random>U',
      'POST /customfields/FmsVerify<random>U',
      'DELETE /customfields/{its id} (finally)',
    ],
    expect: async (tools) => {
      const name = `${tools.run.fieldName}U`;
      await aNewField(tools, name);
      const again = await createField(tools, name);
      expectStatus(again, 409);
      expectJsonMessage(again, `The field '${name}' can't be created because it already exists.`);
      return '409 with the exact message';
    },
  },
  {
    id: 'writes.field-delete',
    section: '4 DELETE /customfields/{customFieldNameId}; 7',
    requirement: 'Delete a custom field: 204 No Content; deleting it again: 404.',
    writes: true,
    requests: [
      'POST /customfields/FmsVerify<random>D',
      'DELETE /customfields/{its id}',
      'DELETE /customfields/{its id}',
    ],
    expect: async (tools) => {
      const id = await aNewField(tools, `${tools.run.fieldName}D`);
      const deleted = await tools.call({ method: 'DELETE', path: `/customfields/${id}` });
      expectStatus(deleted, 204);
      const again = await tools.call({ method: 'DELETE', path: `/customfields/${id}` });
      expectStatus(again, 404, 'again: ');
      return '204, then 404';
    },
  },
  {
    id: 'writes.field-name-50',
    section: '8 Custom field name length (1 to 50 characters)',
    requirement: 'A name of exactly 50 characters is created.',
    writes: true,
    requests: ['POST /customfields/{50 characters}', 'DELETE /customfields/{its id} (finally)'],
    expect: async (tools) => {
      const answer = await createField(tools, tools.run.fieldName.padEnd(50, 'x'));
      expectStatus(answer, '2xx');
      return `${answer.status}: created`;
    },
  },
  {
    id: 'writes.field-limit',
    section: '8 Custom fields per server (20); 7 (409 messages)',
    requirement: `With ${MAX_FIELDS} fields, one more: 409 '${EXCEEDED}'.`,
    writes: true,
    requests: [
      'GET /customfields',
      `POST /customfields/FmsVerify<random>L<n> up to ${MAX_FIELDS} fields`,
      'POST one more',
      'DELETE each (finally)',
    ],
    expect: async (tools) => {
      const listed = await tools.call({
        method: 'GET',
        path: '/customfields',
        accept: 'application/json',
      });
      const fields = listed.status === 200 ? jsonOf(listed) : undefined;
      if (!Array.isArray(fields))
        throw new Skip(
          `cannot count the fields: GET /customfields answered ${listed.status} (customfields.json judges it)`,
        );
      for (let index = fields.length; index < MAX_FIELDS; index++)
        await aNewField(tools, `${tools.run.fieldName}L${index}`);
      const over = await createField(tools, `${tools.run.fieldName}L${MAX_FIELDS}`);
      expectStatus(over, 409);
      expectJsonMessage(over, EXCEEDED);
      return `field ${MAX_FIELDS + 1}: 409 with the exact message`;
    },
  },
];
