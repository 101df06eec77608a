import type { Drift, DriftState, ProxiedAnswer, ProxiedRequest } from '../drift-proxy.js';
import { drift, errorAnswer, isJson, on } from './kit.js';

const FIELDS = /^\/customfields$/;
const CREATE_FIELD = /^\/customfields\/[^/]+$/;
const BY_EMAIL = /^\/lists\/[^/]+\/contacts$/;
const MEMBERSHIP = /^\/lists\/[^/]+\/contacts(\/[^/]+)?$/;
const EXCEEDED = 'You have exceeded the maximum number of Custom Field Names allowed.';
const TOO_LONG = 'The field Name must be a string with a maximum length of 50.';

/** The account's field count as the answers show it: listed, then each create and delete. */
function countFields(answer: ProxiedAnswer, request: ProxiedRequest, state: DriftState) {
  const count = state.get('fields') as number | undefined;
  if (on(request, 'GET', FIELDS) && answer.status === 200 && isJson(answer)) {
    state.set('fields', (JSON.parse(answer.body) as unknown[]).length);
  } else if (count !== undefined && answer.status < 300) {
    if (on(request, 'POST', CREATE_FIELD)) state.set('fields', count + 1);
    if (on(request, 'DELETE', CREATE_FIELD)) state.set('fields', count - 1);
  }
}

/**
 * Limits enforced one off (section 8) and the contact maximum's answer (section 4 rule 6): the
 * refusal itself is the drift, so the checks must fail on it, never skip.
 */
export const LIMIT_DRIFTS: readonly Drift[] = [
  drift({
    id: 'writes.field-limit-one-early',
    description: 'The 20th custom field is refused with the too-many-fields 409 (19 allowed).',
    section: '8 Custom fields per server (20); 7',
    requirement: 'R33',
    caughtBy: ['writes.field-limit'],
    request: (request, state) =>
      on(request, 'POST', CREATE_FIELD) && state.get('fields') === 19
        ? errorAnswer(request, 409, EXCEEDED)
        : request,
    answer: (answer, request, state) => {
      countFields(answer, request, state);
      return answer;
    },
  }),
  drift({
    id: 'writes.name-1-refused',
    description: 'A custom field name of one character is refused as too long.',
    section: '8 Custom field name length (1 to 50)',
    requirement: 'R36',
    caughtBy: ['writes.field-name-1'],
    request: (request) =>
      on(request, 'POST', CREATE_FIELD) &&
      decodeURIComponent(request.apiPath.split('/')[2] ?? '').length === 1
        ? errorAnswer(request, 409, TOO_LONG)
        : request,
  }),
  drift({
    id: 'writes.contact-cap-409',
    description: 'A new contact past the maximum gets 409 instead of 403.',
    section: '4 PUT /lists/{listId}/contacts (rule 6); 7 (403)',
    requirement: 'R38',
    caughtBy: ['writes.contact-cap'],
    answer: (answer, request) =>
      on(request, 'PUT', BY_EMAIL) && answer.status === 403 ? { ...answer, status: 409 } : answer,
  }),
  drift({
    id: 'writes.contact-cap-text-plain',
    description: 'The 403 for the contact maximum is plain text, whatever Accept asked for.',
    section: '4 PUT /lists/{listId}/contacts (rule 6); 1 General rule 5',
    requirement: 'R38',
    caughtBy: ['writes.contact-cap'],
    answer: (answer, request) =>
      on(request, 'PUT', BY_EMAIL) && answer.status === 403
        ? {
            status: 403,
            headers: { 'content-type': 'text/plain; charset=utf-8' },
            body: 'Forbidden',
          }
        : answer,
  }),
  drift({
    id: 'writes.contact-cap-refuses-existing',
    description: 'Once at the maximum, adding an existing contact to a list is refused too (403).',
    section: '4 PUT /lists/{listId}/contacts (rules 2 and 6)',
    requirement: 'R38',
    caughtBy: ['writes.contact-cap'],
    answer: (answer, request, state) => {
      if (!on(request, 'PUT', MEMBERSHIP)) return answer;
      if (answer.status === 403) state.set('full', true);
      return state.get('full') && answer.status === 200
        ? errorAnswer(
            request,
            403,
            'The maximum number of contacts for this server has been reached.',
          )
        : answer;
    },
  }),
];
