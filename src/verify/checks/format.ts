import { type Check, Mismatch, mediaType } from '../check-kit.js';
import { createField } from '../needs.js';

const PATHS = ['/lists', '/customfields', '/content'] as const;

/** The Content-Type of each answer follows Accept: one check per Accept value. */
function contentTypeCheck(id: string, accept: 'application/json' | 'text/xml'): Check {
  return {
    id,
    section: '1 General rule 5; 4 (every method answers in JSON or XML, as chosen by Accept)',
    requirement: `With Accept: ${accept}, answers (successes and errors) have Content-Type ${accept}.`,
    writes: false,
    requests: [
      ...PATHS.map((path) => `GET ${path} (Accept: ${accept})`),
      `POST /customfields/EmailAddress (Accept: ${accept}), a 409`,
    ],
    expect: async (tools) => {
      const answers = [
        ...(await Promise.all(PATHS.map((path) => tools.call({ method: 'GET', path, accept })))),
        // Through createField: should a drifted service create the field, it is deleted again.
        await createField(tools, 'EmailAddress', accept),
      ];
      for (const answer of answers) {
        if (mediaType(answer) !== accept) {
          throw new Mismatch(
            `Content-Type ${accept}`,
            `Content-Type ${answer.contentType || '(none)'}`,
            answer,
          );
        }
      }
      return `${answers.length} answers with Content-Type ${accept}`;
    },
  };
}

/** Content negotiation. */
export const FORMAT_CHECKS: readonly Check[] = [
  contentTypeCheck('format.json-content-type', 'application/json'),
  contentTypeCheck('format.xml-content-type', 'text/xml'),
];
