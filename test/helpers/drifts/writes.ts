import type { Drift } from '../drift-proxy.js';
import {
  drift,
  emptyAnswer,
  errorAnswer,
  jsonAnswer,
  madeUpField,
  mapItems,
  mapJson,
  mapXml,
  on,
} from './kit.js';

const BY_EMAIL = /^\/lists\/[^/]+\/contacts$/;
const BY_ID = /^\/lists\/[^/]+\/contacts\/[^/]+$/;
const MEMBERSHIP = /^\/lists\/[^/]+\/contacts(\/[^/]+)?$/;
const CREATE_FIELD = /^\/customfields\/[^/]+$/;
const COLLECTION = /^\/(lists|customfields|content)$/;

/** Drifts of the writing methods: results, idempotence, deletes, limits. */
export const WRITE_DRIFTS: readonly Drift[] = [
  drift({
    id: 'writes.membership-listid-missing',
    description: 'Add-to-list results lack listId.',
    section: '2 List-membership result',
    requirement: 'R23',
    caughtBy: ['writes.add-creates', 'writes.second-contact', 'writes.add-by-id'],
    answer: (answer, request) =>
      on(request, 'PUT', MEMBERSHIP) && answer.status === 200
        ? mapItems(answer, ({ listId: _listId, ...rest }) => rest)
        : answer,
  }),
  drift({
    id: 'writes.membership-serverid-string',
    description: 'Add-to-list results give serverId as a string.',
    section: '2 List-membership result',
    requirement: 'R23',
    caughtBy: ['writes.add-creates', 'writes.second-contact', 'writes.add-by-id'],
    answer: (answer, request) =>
      on(request, 'PUT', MEMBERSHIP) && answer.status === 200
        ? mapItems(answer, (item) => ({ ...item, serverId: String(item.serverId) }))
        : answer,
  }),
  drift({
    id: 'writes.add-by-id-empty-answer',
    description: 'Add by id answers 204 with no result.',
    section: '4 PUT /lists/{listId}/contacts/{contactId} (Response)',
    requirement: 'R24',
    caughtBy: ['writes.add-by-id'],
    answer: (answer, request) =>
      on(request, 'PUT', BY_ID) && answer.status === 200 ? emptyAnswer(204) : answer,
  }),
  drift({
    id: 'writes.re-add-conflict',
    description: 'Adding an address already on the list answers 409.',
    section: '3 List membership; 7 Other rules',
    requirement: 'R25',
    // writes.second-contact adds each of its addresses again: the same rule.
    caughtBy: ['writes.second-contact', 'writes.re-add-idempotent'],
    // Remembers who is on which list from the answers: a removal takes the contact off again.
    answer: (answer, request, state) => {
      const listId = request.apiPath.split('/')[2];
      if (on(request, 'DELETE', BY_ID)) state.delete(`${listId} ${request.apiPath.split('/')[4]}`);
      if (!on(request, 'PUT', BY_EMAIL) || answer.status !== 200) return answer;
      const key = `${listId} ${String((JSON.parse(answer.body) as { contactId?: unknown }).contactId)}`;
      if (state.has(key))
        return jsonAnswer(409, { message: 'The contact is already on the list.' });
      state.set(key, true);
      return answer;
    },
  }),
  drift({
    id: 'writes.remove-deletes-contact',
    description: 'Removing a contact from a list deletes the contact: adding it back by id is 404.',
    section: '3 List membership; 4 DELETE /lists/{listId}/contacts/{contactId}',
    requirement: 'R26',
    caughtBy: ['writes.remove-keeps-contact'],
    // A deleted contact comes back (as a new contact) when it is added by address again.
    answer: (answer, request, state) => {
      const contactId = request.apiPath.split('/')[4];
      if (on(request, 'DELETE', BY_ID) && answer.status < 300) state.set(`gone ${contactId}`, true);
      if (on(request, 'PUT', BY_EMAIL) && answer.status === 200) {
        state.delete(
          `gone ${String((JSON.parse(answer.body) as { contactId?: unknown }).contactId)}`,
        );
      }
      if (on(request, 'PUT', BY_ID) && state.has(`gone ${contactId}`)) {
        return jsonAnswer(404, { message: `Contact ${contactId} does not exist.` });
      }
      return answer;
    },
  }),
  drift({
    id: 'writes.unsubscribe-by-email-unsupported',
    description: 'Unsubscribe form 2 (address in the body) always answers 404.',
    section: '4 POST /contacts/unsubscribe (form 2)',
    requirement: 'R27',
    caughtBy: ['writes.unsubscribe-by-email'],
    request: (request) =>
      on(request, 'POST', /^\/contacts\/unsubscribe$/)
        ? errorAnswer(request, 404, 'Not found')
        : request,
  }),
  drift({
    id: 'writes.unsubscribe-by-id-unsupported',
    description: 'Unsubscribe form 1 (id in the path) always answers 404.',
    section: '4 POST /contacts/unsubscribe/{contactId} (form 1)',
    requirement: 'R28',
    caughtBy: ['writes.unsubscribe-by-id'],
    request: (request) =>
      on(request, 'POST', /^\/contacts\/unsubscribe\/[^/]+$/)
        ? errorAnswer(request, 404, 'Not found')
        : request,
  }),
  drift({
    id: 'writes.field-create-serverid-missing',
    description: 'The created custom field answer lacks serverId.',
    section: '4 POST /customfields/{name} (Response)',
    requirement: 'R29',
    caughtBy: ['writes.field-create'],
    answer: (answer, request) =>
      on(request, 'POST', CREATE_FIELD) && answer.status < 300
        ? mapJson(answer, (value) => {
            const { serverId: _serverId, ...rest } = value as Record<string, unknown>;
            return rest;
          })
        : answer,
  }),
  drift({
    id: 'writes.field-create-id-of-another',
    description: "A created custom field is answered with another field's id (1, FirstName).",
    section: '4 POST /customfields/{name} (Response); 2 Custom field (unique id)',
    requirement: 'R29',
    // field-delete would delete FirstName by that id: it confirms the id by the list, and skips.
    caughtBy: ['writes.field-create', 'writes.stable-after-write'],
    skips: ['writes.field-delete'],
    answer: (answer, request) =>
      on(request, 'POST', CREATE_FIELD) && answer.status < 300
        ? mapItems(answer, (item) => ({ ...item, customFieldNameId: 1 }))
        : answer,
  }),
  drift({
    id: 'writes.field-create-id-of-another-after-empty-list',
    description:
      "The first GET /customfields answers [] (the list verify reads before it writes), and a created custom field is answered with another field's id (1, FirstName).",
    section:
      '4 GET /customfields; 4 POST /customfields/{name} (Response); 2 Custom field (unique id)',
    requirement: 'R29',
    // The later lists show FirstName and the rest, which the first did not: that first list was
    // not the whole account, so no field is confirmed verify's, and FirstName stays. Every field
    // the run made is left (and reported), so stable-after-write finds the field limit reached.
    caughtBy: ['writes.field-create'],
    skips: ['writes.field-delete', 'writes.stable-after-write'],
    answer: (answer, request, state) => {
      if (on(request, 'GET', /^\/customfields$/) && answer.status === 200 && !state.has('read')) {
        state.set('read', true);
        return mapXml(
          mapJson(answer, () => []),
          (text) => text.replace(/<(ArrayOf\w+)>[\s\S]*<\/\1>/, '<$1/>'),
        );
      }
      return on(request, 'POST', CREATE_FIELD) && answer.status < 300
        ? mapItems(answer, (item) => ({ ...item, customFieldNameId: 1 }))
        : answer;
    },
  }),
  drift({
    id: 'writes.field-create-type-lowercase',
    description: 'The created custom field answer says customFieldType "string".',
    section: '4 POST /customfields/{name} (Response); 2 Custom field',
    requirement: 'R29',
    caughtBy: ['writes.field-create'],
    answer: (answer, request) =>
      on(request, 'POST', CREATE_FIELD) && answer.status < 300
        ? mapItems(answer, (item) => ({ ...item, customFieldType: 'string' }))
        : answer,
  }),
  drift({
    id: 'writes.field-create-type-missing',
    description: 'The created custom field answer lacks customFieldType.',
    section: '4 POST /customfields/{name} (Response)',
    requirement: 'R29',
    caughtBy: ['writes.field-create'],
    answer: (answer, request) =>
      on(request, 'POST', CREATE_FIELD) && answer.status < 300
        ? mapItems(answer, ({ customFieldType: _type, ...rest }) => rest)
        : answer,
  }),
  drift({
    id: 'writes.collections-empty',
    description: 'Every collection answers empty (JSON [] and XML with no items).',
    section: '4 GET /lists, GET /customfields, GET /content',
    requirement: 'R29',
    // field-limit counts no field, then is refused before 20: the limit as this service shows it.
    caughtBy: ['writes.field-create', 'writes.field-limit'],
    skips: [
      'lists.json',
      'lists.xml',
      'customfields.json',
      'customfields.xml',
      'content.json',
      'content.xml',
      'content.timestamps',
      'stable.ids-and-dates',
      'errors.missing-address',
      'errors.malformed-address',
      'errors.unknown-contact',
      'errors.unknown-custom-field',
      'writes.add-creates',
      'writes.second-contact',
      'writes.add-by-id',
      'writes.re-add-idempotent',
      'writes.remove-keeps-contact',
      'writes.unsubscribe-by-email',
      'writes.unsubscribe-by-id',
      // The list shows no field to confirm the answered id by: verify deletes nothing by it.
      'writes.field-delete',
      'writes.stable-after-write',
      'writes.contact-cap',
    ],
    answer: (answer, request) =>
      on(request, 'GET', COLLECTION) && answer.status === 200
        ? mapXml(
            mapJson(answer, () => []),
            (text) => text.replace(/<(ArrayOf\w+)>[\s\S]*<\/\1>/, '<$1/>'),
          )
        : answer,
  }),
  drift({
    id: 'writes.duplicate-message-json',
    description: 'The already-exists 409 message is worded differently.',
    section: '7 (409 messages, exact wording)',
    requirement: 'R30',
    caughtBy: ['writes.field-duplicate'],
    answer: (answer) =>
      answer.status === 409 && answer.body.includes('already exists')
        ? mapJson(answer, () => ({ message: 'A field with that name already exists.' }))
        : answer,
  }),
  drift({
    id: 'writes.duplicate-created',
    description: 'Creating a field whose name exists succeeds again.',
    section: '7 (409: the name already exists)',
    requirement: 'R30',
    caughtBy: ['writes.field-duplicate'],
    answer: (answer, request) =>
      answer.status === 409 && answer.body.includes('already exists')
        ? madeUpField(request)
        : answer,
  }),
  drift({
    id: 'writes.field-delete-200',
    description: 'Deleting a custom field answers 200 with a body instead of 204.',
    section: '4 DELETE /customfields/{customFieldNameId} (Success: 204)',
    requirement: 'R31',
    caughtBy: ['writes.field-delete'],
    answer: (answer, request) =>
      on(request, 'DELETE', /^\/customfields\/[^/]+$/) && answer.status === 204
        ? jsonAnswer(200, { deleted: true })
        : answer,
  }),
  drift({
    id: 'writes.name-50-refused',
    description: 'A custom field name of exactly 50 characters is refused as too long.',
    section: '8 Custom field name length (1 to 50)',
    requirement: 'R32',
    caughtBy: ['writes.field-name-50'],
    request: (request) =>
      on(request, 'POST', CREATE_FIELD) && (request.apiPath.split('/')[2] ?? '').length === 50
        ? jsonAnswer(409, {
            message: 'The field Name must be a string with a maximum length of 50.',
          })
        : request,
  }),
  drift({
    id: 'writes.field-limit-not-enforced',
    description: 'A 21st custom field is created.',
    section: '8 Custom fields per server (20); 7',
    requirement: 'R33',
    caughtBy: ['writes.field-limit'],
    answer: (answer, request) =>
      answer.status === 409 && answer.body.includes('exceeded') ? madeUpField(request) : answer,
  }),
  drift({
    id: 'writes.field-limit-message-xml',
    description:
      'The too-many-fields 409 answer is XML with another wording, whatever Accept says.',
    section: '7 (409 messages, exact wording)',
    requirement: 'R33',
    caughtBy: ['writes.field-limit'],
    answer: (answer) =>
      answer.status === 409 && answer.body.includes('exceeded')
        ? {
            status: 409,
            headers: { 'content-type': 'text/xml; charset=utf-8' },
            body: '<Error><Message>Too many custom fields.</Message></Error>',
          }
        : answer,
  }),
];
