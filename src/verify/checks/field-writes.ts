import {
  type Check,
  type CheckTools,
  expectStatus,
  jsonOf,
  Mismatch,
  Skip,
  tryJson,
} from '../check-kit.js';
import { expectErrorFormat, expectMessage, FORMATS, formatLabel } from '../error-answers.js';
import { createField, deleteField, listedFieldId } from '../needs.js';
import { expectObject } from '../shapes.js';
import { FIELD_RULES } from './fields.js';

const MAX_FIELDS = 20;
const EXCEEDED = 'You have exceeded the maximum number of Custom Field Names allowed.';
/** One-character names to try: none is reserved (8), and 26 letters outnumber the 20 fields an account holds. */
const LETTERS = 'QZXJKVWYFGPBUHMNLCDRSTAEOI';

/** The names of the account's fields, lower case (names match case-insensitively); skips when unreadable. */
async function fieldNames(tools: CheckTools, what: string): Promise<string[]> {
  const listed = await tools.call({
    method: 'GET',
    path: '/customfields',
    accept: 'application/json',
  });
  const fields = listed.status === 200 ? tryJson(listed) : undefined;
  if (!Array.isArray(fields))
    throw new Skip(
      `cannot ${what}: GET /customfields answered ${listed.status} (customfields.json judges it)`,
    );
  return fields.map((field) => String((field as { name?: unknown } | null)?.name).toLowerCase());
}

/** Asks again in both formats for what must be a 409 with `message`; nothing is created. */
async function expect409(tools: CheckTools, name: string, message: string) {
  for (const accept of FORMATS) {
    const answer = await createField(tools, name, accept);
    expectStatus(answer, 409, formatLabel(accept));
    expectMessage(answer, accept, message, formatLabel(accept));
  }
}

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
      "Create a name that exists: 409 'The field '{name}' can't be created because it already exists.' (JSON and XML, as errors.reserved-name)",
    writes: true,
    requests: [
      'POST /customfields/FmsVerify<random>U',
      ...FORMATS.map((accept) => `POST /customfields/FmsVerify<random>U (Accept: ${accept})`),
      'DELETE /customfields/{its id} (finally)',
    ],
    expect: async (tools) => {
      const name = `${tools.run.fieldName}U`;
      await aNewField(tools, name);
      await expect409(
        tools,
        name,
        `The field '${name}' can't be created because it already exists.`,
      );
      return '409 with the exact message, in JSON and XML';
    },
  },
  {
    id: 'writes.field-delete',
    section: '4 DELETE /customfields/{customFieldNameId}; 7',
    requirement:
      'Delete a custom field: 204 No Content; deleting it again: 404, in JSON and in XML with the Content-Type Accept chose.',
    writes: true,
    requests: [
      'POST /customfields/FmsVerify<random>D',
      'GET /customfields (its id listed under its name)',
      'DELETE /customfields/{its id}',
      ...FORMATS.map((accept) => `DELETE /customfields/{its id} (Accept: ${accept})`),
    ],
    expect: async (tools) => {
      const name = `${tools.run.fieldName}D`;
      const id = await aNewField(tools, name);
      // Deleted by an id the list confirms: the one answered may be another field's, data and all.
      const listed = await listedFieldId(tools, name);
      if (listed !== id)
        throw new Skip(
          `GET /customfields does not list the id ${id} the create answered under the name ${name} (${listed === null ? 'the name is not listed' : listed === undefined ? 'the list or its id cannot be read' : `it lists id ${listed}`}): verify deletes only a field it can confirm it made (writes.field-create judges those answers)`,
        );
      const deleted = await deleteField(tools, name, id);
      expectStatus(deleted, 204);
      for (const accept of FORMATS) {
        const what = `again: ${formatLabel(accept)}`;
        const again = await tools.call({ method: 'DELETE', path: `/customfields/${id}`, accept });
        expectStatus(again, 404, what);
        expectErrorFormat(again, accept, what);
      }
      return '204, then 404 in JSON and XML';
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
    id: 'writes.field-name-1',
    section: '8 Custom field name length (1 to 50 characters)',
    requirement: 'A name of exactly 1 character is created.',
    writes: true,
    requests: [
      'GET /customfields (to find a letter no field is named)',
      'POST /customfields/{one letter}',
      'DELETE /customfields/{its id} (finally)',
    ],
    expect: async (tools) => {
      const taken = await fieldNames(tools, 'find a free one-character name');
      const name = [...LETTERS].find((letter) => !taken.includes(letter.toLowerCase()));
      if (name === undefined)
        throw new Skip(`every one-character name this check tries (${LETTERS}) is a field already`);
      const answer = await createField(tools, name);
      expectStatus(answer, '2xx', `the name "${name}": `);
      return `${answer.status}: "${name}" created`;
    },
  },
  {
    id: 'writes.field-limit',
    section: '8 Custom fields per server (20); 7 (409 messages)',
    requirement: `Up to ${MAX_FIELDS} fields are created (a refusal before is a failure); with ${MAX_FIELDS}, one more: 409 '${EXCEEDED}' (JSON and XML, as errors.reserved-name).`,
    writes: true,
    requests: [
      'GET /customfields',
      `POST /customfields/FmsVerify<random>L<n> up to ${MAX_FIELDS} fields`,
      ...FORMATS.map((accept) => `POST one more (Accept: ${accept})`),
      'DELETE each (finally)',
    ],
    expect: async (tools) => {
      const { length } = await fieldNames(tools, 'count the fields');
      for (let index = length; index < MAX_FIELDS; index++) {
        // The account has room: a refusal here is the limit enforced early, not a reason to skip.
        const answer = await createField(tools, `${tools.run.fieldName}L${index}`);
        if (answer.status < 200 || answer.status >= 300) {
          throw new Mismatch(
            `field ${index + 1} of ${MAX_FIELDS} created (the limit is ${MAX_FIELDS} custom fields per server)`,
            `field ${index + 1} refused: status ${answer.status}`,
            answer,
          );
        }
      }
      await expect409(tools, `${tools.run.fieldName}L${MAX_FIELDS}`, EXCEEDED);
      return `fields up to ${MAX_FIELDS} created; field ${MAX_FIELDS + 1}: 409 with the exact message, in JSON and XML`;
    },
  },
];
