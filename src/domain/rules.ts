/** The service's limits and naming rules, shared by the API and by seed validation. */

/** Custom fields one server may hold. */
export const MAX_CUSTOM_FIELDS = 20;
/** Longest custom field name, in characters. */
export const MAX_FIELD_NAME_LENGTH = 50;
/** Longest email address accepted (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
/** Names no custom field may take, compared case-insensitively. */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([
  'emailaddress',
  'contactid',
  'id',
]);
/**
 * Largest id of a list, contact, custom field or content item. The service documents its ids as
 * integers; as an ASP.NET API its ids are `int`, 32-bit signed, so they stop at 2^31 - 1. Ids past
 * it are refused in seeds, and an add that would need one is refused: ids stay exact integers
 * (past 2^53 two contacts got the same id) and every id the fake gives, a real client can hold.
 */
export const MAX_ID = 2_147_483_647;
/** Longest server key (the Basic-auth password) a seed or addServer() may set. */
export const MAX_KEY_LENGTH = 200;

/**
 * What no key may hold: C0 and C1 control characters and DEL (RFC 7617 forbids controls in
 * Basic credentials), U+2028 and U+2029 (Basic-auth parsers read the password as one line), and
 * lone surrogates (they have no UTF-8 form, so no client could send them).
 */
const UNSENDABLE_IN_KEY =
  /[\x00-\x1f\x7f-\x9f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * A server key: 1 to {@link MAX_KEY_LENGTH} characters (UTF-16 code units), each one a client
 * can send in Basic credentials as UTF-8 and the fake matches: every accepted key authenticates.
 */
export function isServerKey(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length >= 1 &&
    value.length <= MAX_KEY_LENGTH &&
    !UNSENDABLE_IN_KEY.test(value)
  );
}

/** Why {@link isServerKey} refuses a key, for messages. */
export const SERVER_KEY_RULE = `1 to ${MAX_KEY_LENGTH} characters without control characters (C0, DEL, C1), U+2028, U+2029 or lone surrogates`;

/**
 * An admin token travels in an `Authorization: Bearer` header (or the inspector's `?token=`): only
 * printable ASCII can be sent there as it is, so a token with a line break or a space, which no
 * client could send, would lock the control API for good.
 */
export function isAdminToken(value: unknown): value is string {
  return typeof value === 'string' && /^[\x21-\x7e]{1,1024}$/.test(value);
}

/** Why {@link isAdminToken} refuses a token, for messages. */
export const ADMIN_TOKEN_RULE =
  'adminToken must be 1 to 1024 printable ASCII characters, without spaces or control characters (it is sent in an Authorization header)';

/** Default contact cap of a server whose seed sets none. */
export const DEFAULT_MAX_CONTACTS = 10_000;

export type ContactStatus = 'Active' | 'Unsubscribed';
export const CONTACT_STATUSES: readonly ContactStatus[] = ['Active', 'Unsubscribed'];

// One "@", a non-empty local part, a dotted domain with non-empty labels, and no white space or
// control characters anywhere: strict enough to catch typos, loose enough for real addresses.
const EMAIL_PATTERN =
  /^[^\s@\x00-\x1f\x7f-\x9f]+@[^\s@.\x00-\x1f\x7f-\x9f]+(?:\.[^\s@.\x00-\x1f\x7f-\x9f]+)+$/;

export function isValidEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(value);
}

/** Case-insensitive key for email addresses and custom field names. */
export function foldCase(value: string): string {
  return value.toLowerCase();
}

export type FieldNameProblem = 'length' | 'characters' | 'reserved';

/**
 * The first problem with a custom field name, in the order the contract fixes: length, then
 * forbidden characters, then reserved names. Existence and the 20-field limit need the server.
 */
export function fieldNameProblem(name: unknown): FieldNameProblem | undefined {
  if (typeof name !== 'string' || name.length < 1 || name.length > MAX_FIELD_NAME_LENGTH) {
    return 'length';
  }
  if (name.includes('<') || name.includes('>')) return 'characters';
  if (RESERVED_FIELD_NAMES.has(foldCase(name))) return 'reserved';
  return undefined;
}

/** A whole number of 0 or more (caps, journal sizes, limits). */
export function isWholeNumber(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** A server id: the Basic-auth username, a 4- or 5-digit number. */
export function isServerId(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1000 && (value as number) <= 99999;
}

/** {@link isServerId} for text (a username, a path segment): digits only, no sign or exponent. */
export function parseServerId(text: string): number | undefined {
  return /^\d{4,5}$/.test(text) ? Number(text) : undefined;
}

/** An ISO 8601 UTC timestamp with `Z`, as every timestamp of the service and the fake is shown. */
export function isoTime(epochMs: number): string {
  return new Date(epochMs).toISOString();
}
