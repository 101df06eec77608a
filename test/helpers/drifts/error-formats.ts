import type { Drift } from '../drift-proxy.js';
import { CONFLICT_CHECKS, drift, ERROR_CHECKS, jsonAnswer, mapXml, wantsXml } from './kit.js';

/** The message of an error body in either format, for a drift that re-wraps it. */
function messageOf(body: string): string {
  try {
    return String((JSON.parse(body) as { message?: unknown }).message);
  } catch {
    return /<Message>([^<]*)<\/Message>/.exec(body)?.[1] ?? body;
  }
}

/**
 * Drifts of the errors' form rather than their status: the media type Accept chose (section 1
 * rule 5: every method answers in JSON or XML) and the 409 envelope (section 7: a `message`).
 */
export const ERROR_FORMAT_DRIFTS: readonly Drift[] = [
  drift({
    id: 'errors.404-text-plain',
    description: 'Every 404 is a plain-text "Not Found", whatever Accept asked for.',
    section: '1 General rule 5; 7 (404)',
    requirement: 'R13',
    caughtBy: [
      'errors.unknown-list',
      'errors.unknown-list-by-email',
      'errors.unknown-contact',
      'errors.unsubscribe-unknown',
      'errors.unsubscribe-unknown-id',
      'errors.unknown-field',
      'writes.field-delete',
    ],
    answer: (answer) =>
      answer.status === 404
        ? {
            status: 404,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
            body: 'Not Found',
          }
        : answer,
  }),
  drift({
    id: 'errors.400-html-page',
    description: 'Every 400 is an HTML error page (text/html), whatever Accept asked for.',
    section: '1 General rule 5; 7 (400)',
    requirement: 'R11',
    caughtBy: [
      'errors.missing-address',
      'errors.malformed-address',
      'errors.unknown-custom-field',
      'errors.forbidden-characters',
    ],
    answer: (answer) =>
      answer.status === 400
        ? {
            status: 400,
            headers: { 'content-type': 'text/html; charset=utf-8' },
            body: '<html><body><h1>Bad Request</h1></body></html>',
          }
        : answer,
  }),
  drift({
    id: 'errors.xml-errors-as-json',
    description: 'With Accept: text/xml, errors other than the 409s answer JSON.',
    section: '1 General rule 5; 5 (rule 5); 7',
    requirement: 'R01',
    caughtBy: ['auth.wrong-key', ...ERROR_CHECKS.filter((id) => !CONFLICT_CHECKS.includes(id))],
    answer: (answer, request) =>
      answer.status >= 400 && answer.status !== 409 && wantsXml(request)
        ? jsonAnswer(answer.status, { message: messageOf(answer.body) })
        : answer,
  }),
  drift({
    id: 'errors.409-xml-message-renamed',
    description: 'XML 409s carry their message in a Detail element, not Message.',
    section: '7 (409 with a message field)',
    requirement: 'R20',
    caughtBy: [...CONFLICT_CHECKS],
    answer: (answer) =>
      answer.status === 409
        ? mapXml(answer, (text) => text.replace(/(<\/?)Message>/g, '$1Detail>'))
        : answer,
  }),
  drift({
    id: 'errors.field-limit-409-text-html',
    description: 'The too-many-fields 409 is labelled text/html (its body unchanged).',
    section: '1 General rule 5; 7 (409 messages)',
    requirement: 'R33',
    caughtBy: ['writes.field-limit'],
    answer: (answer) =>
      answer.status === 409 && answer.body.includes('exceeded')
        ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' } }
        : answer,
  }),
];
