import type { Check } from '../check-kit.js';
import { readJsonItems, readXmlItems } from '../shapes.js';

/** GET /lists in JSON and XML. */
export const LIST_CHECKS: readonly Check[] = [
  {
    id: 'lists.json',
    section: '2 List; 4 GET /lists; 1 General rule 1',
    requirement:
      "GET /lists answers an array of List: id (integer), serverId (integer, the caller's server), name (string).",
    writes: false,
    requests: ['GET /lists (Accept: application/json)'],
    expect: async (tools) => {
      const items = await readJsonItems(
        tools,
        '/lists',
        { id: 'integer', serverId: { equals: tools.serverId }, name: 'string' },
        'list',
      );
      return `200, ${items.length} list(s) with id, serverId ${tools.serverId}, name`;
    },
  },
  {
    id: 'lists.xml',
    section: '2 List (XML form)',
    requirement:
      'XML form: root ArrayOfList, items List, with child elements Id, Name, ServerId (in that order).',
    writes: false,
    requests: ['GET /lists (Accept: text/xml)'],
    expect: async (tools) => {
      const items = await readXmlItems(tools, '/lists', 'ArrayOfList', 'List', [
        ['Id', 'integer'],
        ['Name', 'string'],
        ['ServerId', { equals: tools.serverId }],
      ]);
      return `200, ArrayOfList with ${items.length} List element(s) of Id, Name, ServerId`;
    },
  },
];
