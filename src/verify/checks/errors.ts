import {
  type Check,
  type CheckTools,
  expectRefused,
  expectStatus,
  UNKNOWN_ID,
} from '../check-kit.js';
import { expectErrorFormat, FORMATS, formatLabel } from '../error-answers.js';
import type { Call } from '../http-client.js';
import { aListId } from '../needs.js';

/**
 * A check that one request is refused with `status` (or any 4xx when the description gives no
 * status), asked in JSON and then in XML: an error answers in the format Accept chose, as every
 * answer does (1 rule 5). Requests the description says fail change nothing, so these are
 * read-only; should a drifted service accept one that adds a contact, the report says so (`made`).
 */
function refusal(entry: {
  id: string;
  section: string;
  requirement: string;
  request: string;
  status: number | '4xx';
  needsList?: boolean;
  call: (tools: CheckTools, listId: number) => Call;
}): Check {
  return {
    id: entry.id,
    section: entry.section,
    requirement: `${entry.requirement} In JSON and in XML, each with the Content-Type Accept chose.`,
    writes: false,
    requests: [
      ...(entry.needsList ? ['GET /lists (to find a list id)'] : []),
      ...FORMATS.map((accept) => `${entry.request} (Accept: ${accept})`),
    ],
    expect: async (tools) => {
      const listId = entry.needsList ? await aListId(tools) : 0;
      for (const accept of FORMATS) {
        const request = { ...entry.call(tools, listId), accept };
        const answer = await tools.call(request);
        const address = (request.body as { emailAddress?: unknown } | undefined)?.emailAddress;
        if (answer.status >= 200 && answer.status < 300 && typeof address === 'string') {
          tools.made(
            `the contact ${address}, if ${request.method} ${request.path} made it: it was accepted though the description says it fails`,
          );
        }
        const what = formatLabel(accept);
        if (entry.status === '4xx') expectRefused(answer, what);
        else expectStatus(answer, entry.status, what);
        expectErrorFormat(answer, accept, what);
      }
      return `${entry.status === '4xx' ? 'refused' : entry.status}, as described, in JSON and XML`;
    },
  };
}

// Without Accept: refusal() asks each request in both formats.
const byEmail = (listId: number | string, body: unknown): Call => ({
  method: 'PUT',
  path: `/lists/${listId}/contacts`,
  body,
});

/** Authentication (section 5). */
export const AUTH_CHECKS: readonly Check[] = [
  {
    id: 'auth.wrong-key',
    section: '5 Authentication (rule 5); 7',
    requirement:
      'A request with invalid credentials gets 401 Unauthorized, in JSON and in XML with the Content-Type Accept chose.',
    writes: false,
    requests: FORMATS.map((accept) => `GET /lists with a wrong key (Accept: ${accept})`),
    expect: async ({ call, key }) => {
      for (const accept of FORMATS) {
        const answer = await call({ method: 'GET', path: '/lists', key: `${key}-wrong`, accept });
        expectStatus(answer, 401, formatLabel(accept));
        expectErrorFormat(answer, accept, formatLabel(accept));
      }
      return '401 for a wrong key, in JSON and XML';
    },
  },
];

/** The errors of the contact methods and of deleting a field (section 7). */
export const ERROR_CHECKS: readonly Check[] = [
  refusal({
    id: 'errors.missing-address',
    section: '4 PUT /lists/{listId}/contacts (rule 5); 7',
    requirement: 'Add by email address: the email address is missing: 400.',
    request: 'PUT /lists/{a list id}/contacts {}',
    status: 400,
    needsList: true,
    call: (_tools, listId) => byEmail(listId, {}),
  }),
  refusal({
    id: 'errors.malformed-address',
    section: '4 PUT /lists/{listId}/contacts (rule 5); 7',
    requirement: 'Add by email address: the email address is poorly formatted: 400.',
    request: 'PUT /lists/{a list id}/contacts {"emailAddress":"not an address"}',
    status: 400,
    needsList: true,
    call: (_tools, listId) => byEmail(listId, { emailAddress: 'not an address' }),
  }),
  refusal({
    id: 'errors.unknown-list',
    section: '4 PUT /lists/{listId}/contacts/{contactId}; 7',
    requirement: 'Add to list by id: the list does not exist: 404.',
    request: `PUT /lists/${UNKNOWN_ID}/contacts/${UNKNOWN_ID}`,
    status: 404,
    call: () => ({ method: 'PUT', path: `/lists/${UNKNOWN_ID}/contacts/${UNKNOWN_ID}` }),
  }),
  refusal({
    id: 'errors.unknown-list-by-email',
    section: '7 (404: add to list, the list does not exist)',
    requirement: 'Add to list by email address: the list does not exist: 404.',
    request: `PUT /lists/${UNKNOWN_ID}/contacts {"emailAddress":"fms-verify-<random>@example.com"}`,
    status: 404,
    call: (tools) => byEmail(UNKNOWN_ID, { emailAddress: tools.run.address }),
  }),
  refusal({
    id: 'errors.unknown-contact',
    section: '4 PUT /lists/{listId}/contacts/{contactId}; 7',
    requirement: 'Add to list by id: the contact does not exist: 404.',
    request: `PUT /lists/{a list id}/contacts/${UNKNOWN_ID}`,
    status: 404,
    needsList: true,
    call: (_tools, listId) => ({ method: 'PUT', path: `/lists/${listId}/contacts/${UNKNOWN_ID}` }),
  }),
  refusal({
    id: 'errors.unknown-custom-field',
    section: '4 PUT /lists/{listId}/contacts (rule 3); 7 Other rules',
    requirement:
      'A call that names a custom field that does not exist fails (status not given: any 4xx).',
    request:
      'PUT /lists/{a list id}/contacts {"emailAddress":"fms-verify-<random>@example.com","customFields":[{"Name":"FmsVerifyNoSuch<random>","Value":"x"}]}',
    status: '4xx',
    needsList: true,
    call: (tools, listId) =>
      byEmail(listId, {
        emailAddress: tools.run.address,
        customFields: [{ Name: `FmsVerifyNoSuch${tools.run.tag}`, Value: 'x' }],
      }),
  }),
  refusal({
    id: 'errors.unsubscribe-unknown',
    section: '4 POST /contacts/unsubscribe (form 2); 7',
    requirement: 'Unsubscribe by email address (form 2): the contact is not found: 404.',
    request: 'POST /contacts/unsubscribe {"emailAddress":"fms-verify-<random>@example.com"}',
    status: 404,
    call: (tools) => ({
      method: 'POST',
      path: '/contacts/unsubscribe',
      body: { emailAddress: `unknown-${tools.run.address}` },
    }),
  }),
  refusal({
    id: 'errors.unsubscribe-unknown-id',
    section: '4 POST /contacts/unsubscribe/{contactId} (form 1); 7',
    requirement: 'Unsubscribe by id (form 1): the contact is not found: 404.',
    request: `POST /contacts/unsubscribe/${UNKNOWN_ID}`,
    status: 404,
    call: () => ({ method: 'POST', path: `/contacts/unsubscribe/${UNKNOWN_ID}` }),
  }),
  refusal({
    id: 'errors.unknown-field',
    section: '4 DELETE /customfields/{customFieldNameId}; 7',
    requirement: 'Delete custom field: the id does not exist for the server: 404.',
    request: `DELETE /customfields/${UNKNOWN_ID}`,
    status: 404,
    call: () => ({ method: 'DELETE', path: `/customfields/${UNKNOWN_ID}` }),
  }),
];
