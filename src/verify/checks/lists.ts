import { type Check, expectStatus, jsonOf, xmlOf } from '../check-kit.js';
import { nothingToCheck } from '../needs.js';
import { expectArrayOf, expectXmlItems } from '../shapes.js';

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
      const answer = await tools.call({
        method: 'GET',
        path: '/lists',
        accept: 'application/json',
      });
      expectStatus(answer, 200);
      const items = expectArrayOf(
        tools,
        answer,
        jsonOf(answer),
        { id: 'integer', serverId: { equals: tools.serverId }, name: 'string' },
        'list',
      );
      if (items.length === 0) throw nothingToCheck('/lists');
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
      const answer = await tools.call({ method: 'GET', path: '/lists', accept: 'text/xml' });
      expectStatus(answer, 200);
      const items = expectXmlItems(tools, answer, xmlOf(answer), 'ArrayOfList', 'List', [
        ['Id', 'integer'],
        ['Name', 'string'],
        ['ServerId', { equals: tools.serverId }],
      ]);
      if (items.length === 0) throw nothingToCheck('/lists');
      return `200, ArrayOfList with ${items.length} List element(s) of Id, Name, ServerId`;
    },
  },
];
