import { ApiError } from '../domain/errors.js';
import type { AddByEmailRequest, FieldValue } from '../domain/model.js';

/**
 * Request bodies arrive as parsed JSON of any shape. These readers accept property names in any
 * case (`emailAddress` = `EmailAddress`), treat `null` as omitted (many clients serialize unset
 * properties as null), and reject anything else with a 400 that says what is wrong.
 */

function invalid(detail: string): never {
  throw new ApiError('INVALID_BODY', { detail });
}

/** The body's properties by lower-cased name, restricted to `allowed` (lower-case names). */
function properties(body: unknown, allowed: readonly string[], what: string): Map<string, unknown> {
  if (body === undefined || body === null) return new Map();
  if (typeof body !== 'object' || Array.isArray(body)) {
    invalid(`The request body must be a JSON object (${what}).`);
  }
  const found = new Map<string, unknown>();
  for (const [name, value] of Object.entries(body)) {
    const folded = name.toLowerCase();
    if (!allowed.includes(folded)) {
      invalid(`Unknown property '${name}'; expected ${what}.`);
    }
    if (found.has(folded))
      invalid(`Property '${name}' is given twice (names are case-insensitive).`);
    if (value !== null) found.set(folded, value);
  }
  return found;
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return invalid(`'${name}' must be a string.`);
}

const EMAIL = { type: 'string', format: 'email', maxLength: 254 } as const;

/** The add-by-email body as the docs show it; {@link readAddByEmail} reads it. */
export const ADD_BY_EMAIL_BODY = {
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

/** The unsubscribe-by-email body as the docs show it; {@link readEmailAddress} reads it. */
export const EMAIL_BODY = {
  type: 'object',
  required: ['emailAddress'],
  additionalProperties: false,
  properties: { emailAddress: EMAIL },
} as const;

/** The remove-by-email query as the docs show it; {@link queryEmailAddress} reads it. */
export const EMAIL_QUERY = { emailAddress: EMAIL } as const;

const ADD_BY_EMAIL = ['emailaddress', 'customfields', 'firstname', 'lastname'];
const ADD_BY_EMAIL_WHAT = 'emailAddress, customFields, firstName, lastName';

/** PUT /lists/{listId}/contacts */
export function readAddByEmail(body: unknown): AddByEmailRequest {
  const found = properties(body, ADD_BY_EMAIL, ADD_BY_EMAIL_WHAT);
  return {
    emailAddress: found.get('emailaddress'),
    customFields: readFieldValues(found.get('customfields')),
    firstName: optionalString(found.get('firstname'), 'firstName'),
    lastName: optionalString(found.get('lastname'), 'lastName'),
  };
}

function readFieldValues(value: unknown): FieldValue[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) invalid("'customFields' must be an array of { Name, Value } objects.");
  return value.map((item, index) => {
    const where = `customFields[${index}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      invalid(`'${where}' must be an object with Name and Value.`);
    }
    const pair = properties(item, ['name', 'value'], 'Name, Value');
    const name = pair.get('name');
    if (typeof name !== 'string') invalid(`'${where}.Name' must be a string.`);
    return { name, value: optionalString(pair.get('value'), `${where}.Value`) ?? '' };
  });
}

/** POST /contacts/unsubscribe: the address itself is checked by the domain (400 or 404). */
export function readEmailAddress(body: unknown): unknown {
  return properties(body, ['emailaddress'], 'emailAddress').get('emailaddress');
}

/** `?emailAddress=` in any case, as the vendor's sample client sends it. */
export function queryEmailAddress(query: unknown): unknown {
  if (typeof query !== 'object' || query === null) return undefined;
  for (const [name, value] of Object.entries(query)) {
    if (name.toLowerCase() === 'emailaddress') return value;
  }
  return undefined;
}
