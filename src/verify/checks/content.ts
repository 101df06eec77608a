import { type Check, expectStatus, Mismatch, xmlOf } from '../check-kit.js';
import { collection } from '../needs.js';
import { isIsoUtc, readJsonItems, readXmlItems } from '../shapes.js';

const TIMES = ['thumbnailExpiration', 'created', 'updated'] as const;
const capital = (name: string) => name[0]!.toUpperCase() + name.slice(1);

/** GET /content in JSON and XML, and its timestamps. */
export const CONTENT_CHECKS: readonly Check[] = [
  {
    id: 'content.json',
    section: '2 Content; 4 GET /content',
    requirement:
      'GET /content answers an array of Content: id (integer), name (string), thumbnailUrl (a URL), thumbnailExpiration, created, updated (strings).',
    writes: false,
    requests: ['GET /content (Accept: application/json)'],
    expect: async (tools) => {
      const items = await readJsonItems(
        tools,
        '/content',
        {
          id: 'integer',
          name: 'string',
          thumbnailUrl: 'url',
          thumbnailExpiration: 'string',
          created: 'string',
          updated: 'string',
        },
        'content',
      );
      return `200, ${items.length} content item(s) with every field`;
    },
  },
  {
    id: 'content.xml',
    section: '2 Content (XML form)',
    requirement:
      'XML form: root ArrayOfContent, items Content, with child elements Created, Name, Id, ThumbnailExpiration, ThumbnailUrl, Updated (in that order).',
    writes: false,
    requests: ['GET /content (Accept: text/xml)'],
    expect: async (tools) => {
      const items = await readXmlItems(tools, '/content', 'ArrayOfContent', 'Content', [
        ['Created', 'string'],
        ['Name', 'string'],
        ['Id', 'integer'],
        ['ThumbnailExpiration', 'string'],
        ['ThumbnailUrl', 'url'],
        ['Updated', 'string'],
      ]);
      return `200, ArrayOfContent with ${items.length} Content element(s) in the described order`;
    },
  },
  {
    id: 'content.timestamps',
    section: '2 Content; 1 General rule 4; 9 (all date-times are UTC)',
    requirement:
      'thumbnailExpiration, created and updated are ISO 8601 UTC timestamps, in JSON and in XML.',
    writes: false,
    requests: ['GET /content (Accept: application/json)', 'GET /content (Accept: text/xml)'],
    expect: async (tools) => {
      const { answer: jsonAnswer, items } = await collection(tools, '/content');
      for (const [index, item] of items.entries()) {
        for (const field of TIMES) {
          if (!isIsoUtc(item[field])) {
            throw new Mismatch(
              `content[${index}].${field}: an ISO 8601 UTC timestamp`,
              `content[${index}].${field} is ${JSON.stringify(item[field])}`,
              jsonAnswer,
            );
          }
        }
      }
      const xmlAnswer = await tools.call({ method: 'GET', path: '/content', accept: 'text/xml' });
      expectStatus(xmlAnswer, 200, 'XML: ');
      const root = xmlOf(xmlAnswer, 'XML: ');
      if (root.children.length === 0) {
        throw new Mismatch(
          'XML: as many Content items as in JSON',
          'XML: no Content item',
          xmlAnswer,
        );
      }
      for (const [index, item] of root.children.entries()) {
        for (const field of TIMES) {
          const text = item.children.find((child) => child.name === capital(field))?.text.trim();
          if (!isIsoUtc(text)) {
            throw new Mismatch(
              `XML: Content ${index + 1} ${capital(field)}: an ISO 8601 UTC timestamp`,
              `XML: Content ${index + 1} ${capital(field)} is ${JSON.stringify(text)}`,
              xmlAnswer,
            );
          }
        }
      }
      return `${items.length} item(s): every timestamp ISO 8601 UTC, in JSON and XML`;
    },
  },
];
