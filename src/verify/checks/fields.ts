import { type Check, expectStatus, jsonOf, xmlOf } from '../check-kit.js';
import { nothingToCheck } from '../needs.js';
import { expectArrayOf, expectXmlItems, type Rule } from '../shapes.js';

/** The fields of a Custom field object (section 2), for the list and for a create answer. */
export const FIELD_RULES = (serverId: number): Record<string, Rule> => ({
  customFieldNameId: 'integer',
  name: 'string',
  serverId: { equals: serverId },
  customFieldType: { equals: 'String' },
});

/** GET /customfields in JSON and XML. */
export const FIELD_CHECKS: readonly Check[] = [
  {
    id: 'customfields.json',
    section: '2 Custom field; 4 GET /customfields',
    requirement:
      'GET /customfields answers an array of Custom field: customFieldNameId (integer), name (string), serverId (integer), customFieldType "String".',
    writes: false,
    requests: ['GET /customfields (Accept: application/json)'],
    expect: async (tools) => {
      const answer = await tools.call({
        method: 'GET',
        path: '/customfields',
        accept: 'application/json',
      });
      expectStatus(answer, 200);
      const items = expectArrayOf(
        tools,
        answer,
        jsonOf(answer),
        FIELD_RULES(tools.serverId),
        'field',
      );
      if (items.length === 0) throw nothingToCheck('/customfields');
      return `200, ${items.length} field(s), each customFieldType "String"`;
    },
  },
  {
    id: 'customfields.xml',
    section: '2 Custom field; 1 General rule 5 (the XML form is not given)',
    requirement:
      'With Accept: text/xml, the custom fields as XML: one element per field holding CustomFieldNameId, CustomFieldType ("String"), Name, ServerId.',
    writes: false,
    requests: ['GET /customfields (Accept: text/xml)'],
    expect: async (tools) => {
      const answer = await tools.call({ method: 'GET', path: '/customfields', accept: 'text/xml' });
      expectStatus(answer, 200);
      // The description gives no XML form for fields: the form of List and Content (ArrayOfX, X,
      // the JSON names capitalised, alphabetical as the data-contract serialiser writes them).
      const items = expectXmlItems(
        tools,
        answer,
        xmlOf(answer),
        'ArrayOfCustomField',
        'CustomField',
        [
          ['CustomFieldNameId', 'integer'],
          ['CustomFieldType', { equals: 'String' }],
          ['Name', 'string'],
          ['ServerId', { equals: tools.serverId }],
        ],
      );
      if (items.length === 0) throw nothingToCheck('/customfields');
      return `200, ArrayOfCustomField with ${items.length} CustomField element(s)`;
    },
  },
];
