import type { Drift, ProxiedAnswer, ProxiedRequest } from '../drift-proxy.js';
import {
  drift,
  emptyAnswer,
  jsonAnswer,
  madeUpField,
  madeUpMembership,
  mapItems,
  mapJson,
  mapXml,
  on,
  requestJson,
} from './kit.js';

const CONTENT = /^\/content$/;
const BY_EMAIL = /^\/lists\/[^/]+\/contacts$/;
const BY_ID = /^\/lists\/[^/]+\/contacts\/[^/]+$/;
const CREATE_FIELD = /^\/customfields\/[^/]+$/;
const UNKNOWN = '999999999';

/** A timestamp drift of the JSON content answers: `change` rewrites one field's value. */
function contentJsonTime(field: string, change: (iso: string) => string) {
  return (answer: ProxiedAnswer, request: ProxiedRequest) =>
    on(request, 'GET', CONTENT)
      ? mapItems(answer, (item) => ({ ...item, [field]: change(String(item[field])) }))
      : answer;
}

/** The same in XML: `element` is the child element whose text `change` rewrites. */
function contentXmlTime(element: string, change: (iso: string) => string) {
  return (answer: ProxiedAnswer, request: ProxiedRequest) =>
    on(request, 'GET', CONTENT)
      ? mapXml(answer, (text) =>
          text.replace(
            new RegExp(`<${element}>([^<]*)</${element}>`, 'g'),
            (_all, iso: string) => `<${element}>${change(iso)}</${element}>`,
          ),
        )
      : answer;
}

const usDate = (iso: string) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};
const msDate = (iso: string) => `/Date(${Date.parse(iso)})/`;
const noZone = (iso: string) => iso.replace(/(\.\d+)?Z$/, '');
const plusTwo = (iso: string) =>
  new Date(Date.parse(iso) + 2 * 3_600_000).toISOString().replace('Z', '+02:00');

/** A 409 message drift: `from` (part of the wording) becomes `to`, in JSON or in XML. */
function message(format: 'json' | 'xml', from: string, to: string) {
  return (answer: ProxiedAnswer) =>
    answer.status !== 409
      ? answer
      : format === 'json'
        ? mapJson(answer, (value) => ({
            message: String((value as { message?: unknown }).message).replace(from, to),
          }))
        : mapXml(answer, (text) => text.replace(from, to));
}

/** Drifts of value formats and of the errors the description gives. */
export const ERROR_DRIFTS: readonly Drift[] = [
  ...(
    [
      ['created', 'Created', 'US date', usDate],
      ['thumbnailExpiration', 'ThumbnailExpiration', '/Date(ms)/', msDate],
      ['updated', 'Updated', 'no zone', noZone],
      ['created', 'Created', '+02:00 offset', plusTwo],
    ] as const
  ).flatMap(([field, element, what, change]) => [
    drift({
      id: `content.${field}-${what.replace(/\W+/g, '-').replace(/^-|-$/g, '').toLowerCase()}-json`,
      description: `Content ${field} in JSON is written as ${what}, not ISO 8601 UTC.`,
      section: '2 Content; 1 General rule 4',
      requirement: 'R10',
      caughtBy: ['content.timestamps'],
      answer: contentJsonTime(field, change),
    }),
    drift({
      id: `content.${field}-${what.replace(/\W+/g, '-').replace(/^-|-$/g, '').toLowerCase()}-xml`,
      description: `Content ${element} in XML is written as ${what}, not ISO 8601 UTC.`,
      section: '2 Content; 1 General rule 4',
      requirement: 'R10',
      caughtBy: ['content.timestamps'],
      answer: contentXmlTime(element, change),
    }),
  ]),
  drift({
    id: 'errors.missing-address-accepted',
    description: 'Add by email without an address succeeds.',
    section: '4 PUT /lists/{listId}/contacts (rule 5); 7',
    requirement: 'R11',
    caughtBy: ['errors.missing-address'],
    request: (request) =>
      on(request, 'PUT', BY_EMAIL) && requestJson(request)?.emailAddress === undefined
        ? madeUpMembership(request)
        : request,
  }),
  drift({
    id: 'errors.malformed-address-500',
    description: 'A poorly formatted address gets 500 instead of 400.',
    section: '4 PUT /lists/{listId}/contacts (rule 5); 7',
    requirement: 'R12',
    caughtBy: ['errors.malformed-address'],
    answer: (answer, request) =>
      on(request, 'PUT', BY_EMAIL) &&
      answer.status === 400 &&
      !/^[^\s@]+@[^\s@]+$/.test(String(requestJson(request)?.emailAddress ?? 'x@y'))
        ? jsonAnswer(500, { message: 'Internal error' })
        : answer,
  }),
  drift({
    id: 'errors.unknown-list-by-id-200',
    description: 'Adding by id to a list that does not exist succeeds.',
    section: '4 PUT /lists/{listId}/contacts/{contactId}; 7',
    requirement: 'R13',
    caughtBy: ['errors.unknown-list'],
    request: (request) =>
      on(request, 'PUT', BY_ID) && request.apiPath.split('/')[2] === UNKNOWN
        ? madeUpMembership(request)
        : request,
  }),
  drift({
    id: 'errors.unknown-list-by-email-200',
    description: 'Adding by email to a list that does not exist succeeds.',
    section: '7 (404: the list does not exist)',
    requirement: 'R14',
    caughtBy: ['errors.unknown-list-by-email'],
    request: (request) =>
      on(request, 'PUT', BY_EMAIL) && request.apiPath.split('/')[2] === UNKNOWN
        ? madeUpMembership(request)
        : request,
  }),
  drift({
    id: 'errors.unknown-contact-200',
    description: 'Adding a contact id that does not exist succeeds.',
    section: '4 PUT /lists/{listId}/contacts/{contactId}; 7',
    requirement: 'R15',
    caughtBy: ['errors.unknown-contact'],
    request: (request) =>
      on(request, 'PUT', BY_ID) &&
      request.apiPath.split('/')[4] === UNKNOWN &&
      request.apiPath.split('/')[2] !== UNKNOWN
        ? madeUpMembership(request)
        : request,
  }),
  drift({
    id: 'errors.unknown-custom-field-accepted',
    description: 'Add by email naming a custom field that does not exist succeeds.',
    section: '4 PUT /lists/{listId}/contacts (rule 3); 7',
    requirement: 'R16',
    caughtBy: ['errors.unknown-custom-field'],
    request: (request) =>
      on(request, 'PUT', BY_EMAIL) && Array.isArray(requestJson(request)?.customFields)
        ? madeUpMembership(request)
        : request,
  }),
  drift({
    id: 'errors.unsubscribe-unknown-email-204',
    description: 'Unsubscribing an unknown address (form 2) succeeds.',
    section: '4 POST /contacts/unsubscribe (form 2); 7',
    requirement: 'R17',
    caughtBy: ['errors.unsubscribe-unknown'],
    answer: (answer, request) =>
      on(request, 'POST', /^\/contacts\/unsubscribe$/) && answer.status === 404
        ? emptyAnswer(204)
        : answer,
  }),
  drift({
    id: 'errors.unsubscribe-unknown-id-204',
    description: 'Unsubscribing an unknown contact id (form 1) succeeds.',
    section: '4 POST /contacts/unsubscribe/{contactId} (form 1); 7',
    requirement: 'R18',
    caughtBy: ['errors.unsubscribe-unknown-id'],
    answer: (answer, request) =>
      on(request, 'POST', /^\/contacts\/unsubscribe\/[^/]+$/) && answer.status === 404
        ? emptyAnswer(204)
        : answer,
  }),
  drift({
    id: 'errors.delete-unknown-field-204',
    description: 'Deleting a custom field id that does not exist answers 204.',
    section: '4 DELETE /customfields/{customFieldNameId}; 7',
    requirement: 'R19',
    caughtBy: ['errors.unknown-field', 'writes.field-delete'],
    answer: (answer, request) =>
      on(request, 'DELETE', /^\/customfields\/[^/]+$/) && answer.status === 404
        ? emptyAnswer(204)
        : answer,
  }),
  drift({
    id: 'errors.reserved-case-sensitive',
    description: 'Reserved names are refused only in their exact case: "emailaddress" is created.',
    section: '8 Reserved custom field names (case-insensitive); 7',
    requirement: 'R20',
    caughtBy: ['errors.reserved-name'],
    request: (request) => {
      const name = decodeURIComponent(request.apiPath.split('/')[2] ?? '');
      return on(request, 'POST', CREATE_FIELD) &&
        /^(emailaddress|contactid|id)$/i.test(name) &&
        !['EmailAddress', 'ContactId', 'Id'].includes(name)
        ? madeUpField(request)
        : request;
    },
  }),
  drift({
    id: 'errors.reserved-message-json',
    description: 'The reserved-name 409 message is worded differently (JSON).',
    section: '7 (409 messages, exact wording)',
    requirement: 'R20',
    caughtBy: ['errors.reserved-name'],
    answer: message('json', 'system reserved', 'reserved by the system'),
  }),
  drift({
    id: 'errors.reserved-message-xml',
    description: 'The reserved-name 409 message is worded differently (XML).',
    section: '7 (409 messages, exact wording)',
    requirement: 'R20',
    caughtBy: ['errors.reserved-name'],
    answer: message('xml', 'system reserved', 'reserved by the system'),
  }),
  drift({
    id: 'errors.reserved-status-400',
    description: 'A reserved name gets 400 instead of 409.',
    section: '7 (409: custom field creation failed)',
    requirement: 'R20',
    caughtBy: ['errors.reserved-name'],
    answer: (answer) =>
      answer.status === 409 && answer.body.includes('system reserved')
        ? { ...answer, status: 400 }
        : answer,
  }),
  drift({
    id: 'errors.too-long-accepted',
    description: 'A custom field name of 51 characters is created.',
    section: '8 Custom field name length; 7',
    requirement: 'R21',
    caughtBy: ['errors.name-too-long'],
    request: (request) =>
      on(request, 'POST', CREATE_FIELD) && (request.apiPath.split('/')[2] ?? '').length > 50
        ? madeUpField(request)
        : request,
  }),
  drift({
    id: 'errors.too-long-message-xml',
    description: 'The name-too-long 409 message is worded differently (XML).',
    section: '7 (409 messages, exact wording)',
    requirement: 'R21',
    caughtBy: ['errors.name-too-long'],
    answer: message('xml', 'maximum length of 50', 'maximum length of fifty'),
  }),
  drift({
    id: 'errors.too-long-message-json',
    description: 'The name-too-long 409 message is worded differently (JSON).',
    section: '7 (409 messages, exact wording)',
    requirement: 'R21',
    caughtBy: ['errors.name-too-long'],
    answer: message('json', 'The field Name must be', 'Name must be'),
  }),
  drift({
    id: 'errors.html-name-accepted',
    description: 'A custom field name holding an HTML tag is created.',
    section: '8 Forbidden name content',
    requirement: 'R22',
    caughtBy: ['errors.forbidden-characters'],
    request: (request) =>
      on(request, 'POST', CREATE_FIELD) && /%3C|</i.test(request.apiPath)
        ? madeUpField(request)
        : request,
  }),
];
