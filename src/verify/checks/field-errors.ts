import { type Check, expectRefused, expectStatus } from '../check-kit.js';
import { expectErrorFormat, expectMessage, FORMATS, formatLabel } from '../error-answers.js';
import { createField } from '../needs.js';

const RESERVED = 'That name is system reserved, please choose another.';
const TOO_LONG = 'The field Name must be a string with a maximum length of 50.';
/** The reserved names as the description writes them, then in other cases. */
const RESERVED_NAMES = ['EmailAddress', 'ContactId', 'Id', 'emailaddress', 'CONTACTID', 'iD'];

/** The refusals of POST /customfields/{name} (sections 7 and 8): none of them creates anything. */
export const FIELD_ERROR_CHECKS: readonly Check[] = [
  {
    id: 'errors.reserved-name',
    section: '8 Reserved custom field names (case-insensitive); 7 (409 messages)',
    requirement: `"EmailAddress", "ContactId", "Id", in any case: 409 '${RESERVED}' (JSON: application/json, an object with that message field; XML: text/xml, that text in a Message element).`,
    writes: false,
    requests: [
      ...RESERVED_NAMES.map((name) => `POST /customfields/${name}`),
      'POST /customfields/EmailAddress (Accept: text/xml)',
    ],
    expect: async (tools) => {
      for (const name of RESERVED_NAMES) {
        const answer = await createField(tools, name);
        expectStatus(answer, 409, `${name}: `);
        expectMessage(answer, 'application/json', RESERVED, `${name}: `);
      }
      const xml = await createField(tools, 'EmailAddress', 'text/xml');
      expectStatus(xml, 409, 'XML: ');
      expectMessage(xml, 'text/xml', RESERVED, 'XML: ');
      return `409 '${RESERVED}' for ${RESERVED_NAMES.length} spellings, JSON and XML`;
    },
  },
  {
    id: 'errors.name-too-long',
    section: '8 Custom field name length (1 to 50); 7 (409 messages)',
    requirement: `A name of 51 characters: 409 '${TOO_LONG}' (JSON and XML, as errors.reserved-name).`,
    writes: false,
    requests: [
      'POST /customfields/{51 characters}',
      'POST /customfields/{51 characters} (Accept: text/xml)',
    ],
    expect: async (tools) => {
      const name = `FmsVerify${tools.run.tag}`.padEnd(51, 'x');
      const answer = await createField(tools, name);
      expectStatus(answer, 409);
      expectMessage(answer, 'application/json', TOO_LONG);
      const xml = await createField(tools, name, 'text/xml');
      expectStatus(xml, 409, 'XML: ');
      expectMessage(xml, 'text/xml', TOO_LONG, 'XML: ');
      return `409 '${TOO_LONG}', JSON and XML`;
    },
  },
  {
    id: 'errors.forbidden-characters',
    section: '8 Forbidden name content (characters such as HTML tags)',
    requirement:
      'A name holding an HTML tag is refused (status not given: any 4xx), in JSON and in XML with the Content-Type Accept chose.',
    writes: false,
    requests: FORMATS.map((accept) => `POST /customfields/Fms<b>Verify (Accept: ${accept})`),
    expect: async (tools) => {
      const statuses: number[] = [];
      for (const accept of FORMATS) {
        const answer = await createField(tools, `Fms<b>Verify${tools.run.tag}`, accept);
        expectRefused(answer, formatLabel(accept));
        expectErrorFormat(answer, accept, formatLabel(accept));
        statuses.push(answer.status);
      }
      return `${statuses.join(', ')}: refused, in JSON and XML`;
    },
  },
];
