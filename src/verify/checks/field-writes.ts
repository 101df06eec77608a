import {
  type Check,
  type CheckTools,
  expectJsonMessage,
  expectStatus,
  jsonOf,
  Mismatch,
  Skip,
  tryJson,
} from '../check-kit.js';
import { createField } from '../needs.js';
import { expectObject } from '../shapes.js';
import { FIELD_RULES } from './fields.js';

const MAX_FIELDS = 20;
const EXCEEDED = 'You have exceeded the maximum number of Custom Field Names allowed.';

/** Creates a throwaway field for a check that needs one; skips when it cannot. */
async function aNewField(tools: CheckTools, name: string): Promise<number> {
  const answer = await createField(tools, name);
  const id =
    answer.status < 300
      ? (tryJson(answer) as { customFieldNameId?: unknown } | undefined)?.customFieldNameId
      : undefined;
  if (!Number.isInteger(id)) {
    throw new Skip(
      `could not create the field ${name} this check needs: ${answer.status} ${answer.body.slice(0, 120)} (writes.field-create judges that answer)`,
    );
  }
  return id as number;
}

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
