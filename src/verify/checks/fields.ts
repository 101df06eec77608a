import type { Check } from '../check-kit.js';
import { type Rule, readJsonItems, readXmlItems } from '../shapes.js';

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
      const items = await readJsonItems(
        tools,
        '/customfields',
        FIELD_RULES(tools.serverId),
        'field',
      );
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
      // The description gives no XML form for fields: the form of List and Content (ArrayOfX, X,
      // the JSON names capitalised, alphabetical as the data-contract serialiser writes them).
      const items = await readXmlItems(
        tools,
        '/customfields',
        'ArrayOfCustomField',
        'CustomField',
        [
          ['CustomFieldNameId', 'integer'],
          ['CustomFieldType', { equals: 'String' }],
          ['Name', 'string'],
          ['ServerId', { equals: tools.serverId }],
        ],
      );
      return `200, ArrayOfCustomField with ${items.length} CustomField element(s)`;
    },
  },
];
