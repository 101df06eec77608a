import { jsonOf, Mismatch, mediaType, xmlOf } from './check-kit.js';
import type { Answer } from './http-client.js';

/** The two formats a client can choose with Accept (section 1, rule 5). */
export type Format = 'application/json' | 'text/xml';

/** Both formats, in the order the checks ask for them. */
export const FORMATS: readonly Format[] = ['application/json', 'text/xml'];

/** A short label for a report line: `XML: ` for the XML form, nothing for JSON. */
export const formatLabel = (accept: Format) => (accept === 'text/xml' ? 'XML: ' : '');

/**
 * Throws unless an error answer is in the format Accept chose: every method answers in JSON or
 * XML (1 rule 5, 4), errors included. The body, when there is one, must be well-formed in that
 * format; what it holds is not shown by the description (7), but for the 409s.
 */
export function expectErrorFormat(answer: Answer, accept: Format, what = '') {
  if (mediaType(answer) !== accept) {
    throw new Mismatch(
      `${what}an error answer with Content-Type ${accept}, as Accept chose`,
      `${what}Content-Type ${answer.contentType || '(none)'}`,
      answer,
    );
  }
  if (answer.body.trim() === '') return;
  if (accept === 'text/xml') xmlOf(answer, what);
  else jsonOf(answer, what);
}

/**
 * Throws unless a 409 of custom field creation carries `message` as the description defines it
 * (7: "409 with a `message` field"): in JSON an object whose `message` is exactly that text; in
 * XML the same field as the XML forms of section 2 write fields, a `Message` child of the root.
 */
export function expectMessage(answer: Answer, accept: Format, message: string, what = '') {
  expectErrorFormat(answer, accept, what);
  const wanted = JSON.stringify(message);
  if (accept === 'text/xml') {
    const root = xmlOf(answer, what);
    const field = root.children.find((child) => child.name === 'Message');
    if (field?.text.trim() !== message) {
      throw new Mismatch(
        `${what}a Message element with the text ${wanted}`,
        field
          ? `${what}Message ${JSON.stringify(field.text.trim())}`
          : `${what}no Message element in ${root.name} (its elements: ${root.children.map((child) => child.name).join(', ') || 'none'})`,
        answer,
      );
    }
    return;
  }
  // A number, string or array has no `message` field either: undefined, as for null.
  const actual = (jsonOf(answer, what) as { message?: unknown } | null)?.message;
  if (actual !== message) {
    throw new Mismatch(
      `${what}message ${wanted}`,
      actual === undefined ? `${what}no message field` : `${what}message ${JSON.stringify(actual)}`,
      answer,
    );
  }
}
