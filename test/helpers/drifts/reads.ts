import type { Drift } from '../drift-proxy.js';
import { drift, ERROR_CHECKS, isJson, isXml, jsonAnswer, mapItems, mapXml, on } from './kit.js';

const LISTS = /^\/lists$/;
const FIELDS = /^\/customfields$/;
const CONTENT = /^\/content$/;

/** Drifts of what the read-only GETs answer: formats, shapes, values. */
export const READ_DRIFTS: readonly Drift[] = [
  drift({
    id: 'auth.wrong-key-accepted',
    description: 'A wrong key is let in: 200 instead of 401.',
    section: '5 Authentication (rule 5)',
    requirement: 'R01',
    caughtBy: ['auth.wrong-key'],
    answer: (answer) => (answer.status === 401 ? jsonAnswer(200, []) : answer),
  }),
  drift({
    id: 'format.json-as-text-plain',
    description: 'JSON answers are labelled Content-Type: text/plain.',
    section: '1 General rule 5',
    requirement: 'R02',
    // Errors too: every check that provokes one judges its Content-Type.
    caughtBy: ['auth.wrong-key', 'format.json-content-type', ...ERROR_CHECKS],
    answer: (answer) =>
      isJson(answer)
        ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain; charset=utf-8' } }
        : answer,
  }),
  drift({
    id: 'format.xml-as-text-html',
    description: 'XML answers are labelled Content-Type: text/html.',
    section: '1 General rule 5',
    requirement: 'R03',
    // Errors too: every check that provokes one judges its Content-Type.
    caughtBy: ['auth.wrong-key', 'format.xml-content-type', ...ERROR_CHECKS],
    answer: (answer) =>
      isXml(answer)
        ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' } }
        : answer,
  }),
  drift({
    id: 'format.accept-xml-ignored',
    description: 'Accept: text/xml is ignored: every answer is JSON.',
    section: '1 General rule 5',
    requirement: 'R03',
    caughtBy: [
      'auth.wrong-key',
      'format.xml-content-type',
      'lists.xml',
      'customfields.xml',
      'content.xml',
      'content.timestamps',
      ...ERROR_CHECKS,
    ],
    request: (request) => ({
      ...request,
      headers: { ...request.headers, accept: 'application/json' },
    }),
  }),
  drift({
    id: 'lists.json-name-missing',
    description: 'Lists in JSON lack name.',
    section: '2 List',
    requirement: 'R04',
    caughtBy: ['lists.json'],
    answer: (answer, request) =>
      on(request, 'GET', LISTS) ? mapItems(answer, ({ name: _name, ...rest }) => rest) : answer,
  }),
  drift({
    id: 'lists.json-id-string',
    description: 'List ids in JSON are strings ("1").',
    section: '2 List',
    requirement: 'R04',
    caughtBy: ['lists.json'],
    answer: (answer, request) =>
      on(request, 'GET', LISTS)
        ? mapItems(answer, (item) => ({ ...item, id: String(item.id) }))
        : answer,
  }),
  drift({
    id: 'lists.json-other-server',
    description: "Lists carry another server's id.",
    section: '2 List; 1 General rule 1',
    requirement: 'R04',
    caughtBy: ['lists.json'],
    answer: (answer, request) =>
      on(request, 'GET', LISTS)
        ? mapItems(answer, (item) => ({ ...item, serverId: 99_999 }))
        : answer,
  }),
  drift({
    id: 'lists.xml-order',
    description: 'List XML gives Name before Id.',
    section: '2 List (XML form)',
    requirement: 'R05',
    caughtBy: ['lists.xml'],
    answer: (answer, request) =>
      on(request, 'GET', LISTS)
        ? mapXml(answer, (text) =>
            text.replace(/<Id>(\d+)<\/Id><Name>([^<]*)<\/Name>/g, '<Name>$2</Name><Id>$1</Id>'),
          )
        : answer,
  }),
  drift({
    id: 'lists.xml-root-renamed',
    description: 'List XML root is Lists instead of ArrayOfList.',
    section: '2 List (XML form)',
    requirement: 'R05',
    caughtBy: ['lists.xml'],
    answer: (answer, request) =>
      on(request, 'GET', LISTS)
        ? mapXml(answer, (text) => text.replace(/(<\/?)ArrayOfList\b/g, '$1Lists'))
        : answer,
  }),
  drift({
    id: 'lists.xml-id-not-integer',
    description: 'List XML Id holds "L1" instead of an integer.',
    section: '2 List (XML form)',
    requirement: 'R05',
    caughtBy: ['lists.xml'],
    answer: (answer, request) =>
      on(request, 'GET', LISTS)
        ? mapXml(answer, (text) => text.replace(/<Id>(\d+)<\/Id>/g, '<Id>L$1</Id>'))
        : answer,
  }),
  drift({
    id: 'customfields.json-type-lowercase',
    description: 'customFieldType is "string" instead of "String".',
    section: '2 Custom field',
    requirement: 'R06',
    caughtBy: ['customfields.json'],
    answer: (answer, request) =>
      on(request, 'GET', FIELDS)
        ? mapItems(answer, (item) => ({ ...item, customFieldType: 'string' }))
        : answer,
  }),
  drift({
    id: 'customfields.json-type-missing',
    description: 'Custom fields in JSON lack customFieldType.',
    section: '2 Custom field',
    requirement: 'R06',
    caughtBy: ['customfields.json'],
    answer: (answer, request) =>
      on(request, 'GET', FIELDS)
        ? mapItems(answer, ({ customFieldType: _type, ...rest }) => rest)
        : answer,
  }),
  drift({
    id: 'customfields.xml-type-missing',
    description: 'Custom fields in XML lack CustomFieldType.',
    section: '2 Custom field; 1 General rule 5',
    requirement: 'R07',
    caughtBy: ['customfields.xml'],
    answer: (answer, request) =>
      on(request, 'GET', FIELDS)
        ? mapXml(answer, (text) => text.replace(/<CustomFieldType>[^<]*<\/CustomFieldType>/g, ''))
        : answer,
  }),
  drift({
    id: 'customfields.xml-type-lowercase',
    description: 'CustomFieldType in XML is "string".',
    section: '2 Custom field; 1 General rule 5',
    requirement: 'R07',
    caughtBy: ['customfields.xml'],
    answer: (answer, request) =>
      on(request, 'GET', FIELDS)
        ? mapXml(answer, (text) =>
            text.replace(/<CustomFieldType>String</g, '<CustomFieldType>string<'),
          )
        : answer,
  }),
  drift({
    id: 'content.json-thumbnail-missing',
    description: 'Content in JSON lacks thumbnailUrl.',
    section: '2 Content',
    requirement: 'R08',
    caughtBy: ['content.json'],
    answer: (answer, request) =>
      on(request, 'GET', CONTENT)
        ? mapItems(answer, ({ thumbnailUrl: _url, ...rest }) => rest)
        : answer,
  }),
  drift({
    id: 'content.json-thumbnail-not-url',
    description: 'thumbnailUrl is a bare file name, not a URL.',
    section: '2 Content',
    requirement: 'R08',
    caughtBy: ['content.json'],
    answer: (answer, request) =>
      on(request, 'GET', CONTENT)
        ? mapItems(answer, (item) => ({ ...item, thumbnailUrl: `thumb-${item.id}.png` }))
        : answer,
  }),
  drift({
    id: 'content.json-id-string',
    description: 'Content ids in JSON are strings.',
    section: '2 Content',
    requirement: 'R08',
    caughtBy: ['content.json'],
    answer: (answer, request) =>
      on(request, 'GET', CONTENT)
        ? mapItems(answer, (item) => ({ ...item, id: String(item.id) }))
        : answer,
  }),
  drift({
    id: 'content.xml-order',
    description: 'Content XML gives Name before Created.',
    section: '2 Content (XML form)',
    requirement: 'R09',
    caughtBy: ['content.xml'],
    answer: (answer, request) =>
      on(request, 'GET', CONTENT)
        ? mapXml(answer, (text) =>
            text.replace(/(<Created>[^<]*<\/Created>)(<Name>[^<]*<\/Name>)/g, '$2$1'),
          )
        : answer,
  }),
  drift({
    id: 'content.xml-root-renamed',
    description: 'Content XML root is ArrayOfContents.',
    section: '2 Content (XML form)',
    requirement: 'R09',
    caughtBy: ['content.xml'],
    answer: (answer, request) =>
      on(request, 'GET', CONTENT)
        ? mapXml(answer, (text) => text.replace(/(<\/?)ArrayOfContent\b/g, '$1ArrayOfContents'))
        : answer,
  }),
];
