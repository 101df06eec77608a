import type { Drift } from '../drift-proxy.js';
import { drift, isJson, isXml, mapItems, mapXml, on } from './kit.js';

/** Variations the description allows: every check must still pass with each of them on. */
export const HARMLESS: readonly Drift[] = [
  drift({
    id: 'harmless.xml-namespaces',
    description: 'XML roots carry a default namespace and an xmlns:i declaration.',
    section: '2 (XML forms name elements, not namespaces)',
    requirement: '',
    caughtBy: [],
    answer: (answer) =>
      mapXml(answer, (text) =>
        text.replace(
          /<(ArrayOf\w+|Error|ListContact|CustomField)>/,
          '<$1 xmlns="http://schemas.example.com/marketing" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">',
        ),
      ),
  }),
  drift({
    id: 'harmless.xml-whitespace',
    description: 'XML is indented: newlines and spaces between elements.',
    section: '2 (XML forms)',
    requirement: '',
    caughtBy: [],
    answer: (answer) => mapXml(answer, (text) => text.replace(/></g, '>\n  <')),
  }),
  drift({
    id: 'harmless.create-201',
    description: 'Creating a custom field answers 201 Created.',
    section: '4 POST /customfields/{name} (success status not shown)',
    requirement: '',
    caughtBy: [],
    answer: (answer, request) =>
      on(request, 'POST', /^\/customfields\/[^/]+$/) && answer.status === 200
        ? { ...answer, status: 201 }
        : answer,
  }),
  drift({
    id: 'harmless.extra-fields',
    description: 'Every JSON object has an extra field (a later addition by the service).',
    section: '2 (fields the description lists must be there; more may come)',
    requirement: '',
    caughtBy: [],
    answer: (answer) =>
      answer.status < 300 && isJson(answer) && answer.body !== ''
        ? mapItems(answer, (item) => ({ ...item, etag: 'W/"1"' }))
        : answer,
  }),
  drift({
    id: 'harmless.content-type-spelling',
    description: 'Content-Type without charset (JSON) and with charset=UTF-8 in capitals (XML).',
    section: '1 General rule 5',
    requirement: '',
    caughtBy: [],
    answer: (answer) =>
      isJson(answer)
        ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/json' } }
        : isXml(answer)
          ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/xml; charset=UTF-8' } }
          : answer,
  }),
  drift({
    id: 'harmless.timestamps-without-milliseconds',
    description: 'Timestamps are written without milliseconds (2026-01-05T10:00:00Z).',
    section: '2 Content (ISO 8601 UTC)',
    requirement: '',
    caughtBy: [],
    answer: (answer) => ({
      ...answer,
      body: answer.body.replace(/(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d{3}Z/g, '$1Z'),
    }),
  }),
];
