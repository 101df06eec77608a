import {
  CONTENTS_RESPONSE,
  CUSTOM_FIELD_RESPONSE,
  CUSTOM_FIELDS_RESPONSE,
  EMPTY_RESPONSE,
  LISTS_RESPONSE,
  MEMBERSHIP_RESPONSE,
  responses,
} from './schemas.js';

/**
 * Each route's schema: the `response` part serializes answers, and the rest (summary, request
 * body, errors) documents the route. The OpenAPI document is built from these very objects, as
 * the routes register, so the two cannot drift apart. `x-body` describes a request body without
 * validating it (bodies are read case-insensitively, which JSON Schema cannot express).
 */

const EMAIL = { type: 'string', format: 'email', maxLength: 254 } as const;

const ADD_BY_EMAIL_BODY = {
  type: 'object',
  description: 'Property names match case-insensitively (`EmailAddress`, `CustomFields` too).',
  required: ['emailAddress'],
  additionalProperties: false,
  properties: {
    emailAddress: EMAIL,
    customFields: {
      type: 'array',
      items: {
        type: 'object',
        required: ['Name'],
        additionalProperties: false,
        properties: { Name: { type: 'string' }, Value: { type: ['string', 'null'] } },
      },
    },
    firstName: {
      type: ['string', 'null'],
      description: 'Only for a new contact; needs a FirstName field.',
    },
    lastName: {
      type: ['string', 'null'],
      description: 'Only for a new contact; needs a LastName field.',
    },
  },
} as const;

const EMAIL_BODY = {
  type: 'object',
  required: ['emailAddress'],
  additionalProperties: false,
  properties: { emailAddress: EMAIL },
} as const;

export const ROUTE_DOCS = {
  getLists: { summary: "The server's contact lists.", tags: ['lists'], response: LISTS_RESPONSE },
  addById: {
    summary: 'Adds an existing contact to a list (re-adding is not an error).',
    tags: ['lists'],
    'x-errors': [404],
    response: MEMBERSHIP_RESPONSE,
  },
  addByEmail: {
    summary: 'Adds a contact by email address to a list, creating it when new.',
    tags: ['lists'],
    'x-body': ADD_BY_EMAIL_BODY,
    'x-errors': [400, 403, 404, 413, 415],
    response: MEMBERSHIP_RESPONSE,
  },
  removeById: {
    summary: 'Removes a contact from one list; it stays on its other lists.',
    tags: ['lists'],
    'x-errors': [404],
    response: EMPTY_RESPONSE,
  },
  removeByEmail: {
    summary: 'Removes the contact with this email address from one list.',
    tags: ['lists'],
    'x-query': { emailAddress: EMAIL },
    'x-errors': [400, 404],
    response: EMPTY_RESPONSE,
  },
  unsubscribeById: {
    summary: 'Unsubscribes a contact from the whole server.',
    tags: ['contacts'],
    'x-errors': [404],
    response: responses({ type: 'null' }),
  },
  unsubscribeByEmail: {
    summary: 'Unsubscribes the contact with this email address from the whole server.',
    tags: ['contacts'],
    'x-body': EMAIL_BODY,
    'x-errors': [400, 404, 413, 415],
    response: responses({ type: 'null' }),
  },
  getCustomFields: {
    summary: "The server's custom fields.",
    tags: ['custom fields'],
    response: CUSTOM_FIELDS_RESPONSE,
  },
  createCustomField: {
    summary:
      'Creates a custom field (at most 20; 1 to 50 characters; not EmailAddress, ContactId or Id).',
    tags: ['custom fields'],
    'x-errors': [400, 409],
    response: CUSTOM_FIELD_RESPONSE,
  },
  deleteCustomField: {
    summary: 'Deletes a custom field and every value stored under it.',
    tags: ['custom fields'],
    'x-errors': [404],
    response: EMPTY_RESPONSE,
  },
  getContent: {
    summary: 'Email content, with thumbnail URLs valid for an hour.',
    tags: ['content'],
    response: CONTENTS_RESPONSE,
  },
} as const;
