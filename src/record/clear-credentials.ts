import type { NameValue } from '../journal/har.js';
import { REDACTED } from '../redaction/secret-forms.js';
import { cookiePairs, isHiddenPair, setCookiePairs } from './cookie-lines.js';

/**
 * What the recorder writes of a credential, and nothing more: the one reading that both the
 * recorder (before it writes an entry) and a continued recording (before it keeps one) apply, so
 * that the recorder never writes an entry it would refuse to continue.
 */

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
]);

/** The first credential header of HAR `headers` in clear (`authorization header`), or undefined. */
export function clearCredential(headers: unknown): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  for (const header of headers as ({ name?: unknown; value?: unknown } | null)[]) {
    const name = String(header?.name ?? '').toLowerCase();
    if (holdsClear(name, String(header?.value ?? ''))) return `${name} header`;
  }
  return undefined;
}

/**
 * Whether a header's value holds a credential in clear: more than the recorder writes of one. A
 * `<redacted>` beside a credential in clear (`Bearer <redacted> KEY`, `sid=<redacted>; other=KEY`)
 * is in clear too. Any other header holds none.
 */
export function holdsClear(name: string, text: string): boolean {
  if (!CREDENTIAL_HEADERS.has(name)) return false;
  const value = text.trim();
  if (name === 'cookie') return !cookiePairs(value).every(isHiddenPair);
  if (name === 'set-cookie') return !setCookiePairs(value).every(isHiddenPair);
  // A scheme, then what the recorder leaves of credentials: `12345:<redacted>` (a server id),
  // `token=<redacted>`; a scheme alone (`Bearer`) holds none.
  const rest = value.replace(/^\S+/, '');
  return (
    rest
      .replaceAll('<redacted>', '')
      .replace(/\b\d{1,9}:/g, '')
      .replace(/[!#$%&'*+.^_`|~\w-]+\s*=/g, '')
      .replace(/[\s,"]/g, '') !== ''
  );
}

/** A HAR `cookies` item with a value in clear (`cookie sid`), or undefined. */
export function clearCookie(cookies: unknown): string | undefined {
  if (!Array.isArray(cookies)) return undefined;
  for (const cookie of cookies as ({ name?: unknown; value?: unknown } | null)[]) {
    const value = String(cookie?.value ?? '');
    if (value !== '' && value !== '<redacted>')
      return `cookie ${JSON.stringify(String(cookie?.name ?? '')).slice(0, 60)}`;
  }
  return undefined;
}

/**
 * A learned secret can be a word the recorder writes itself (`expires`, `redacted`): taken out
 * of a credential header, it leaves a line that reads as holding a credential in clear, and the
 * next run would refuse to continue the file. Such a line is written `<redacted>` whole.
 */
export function hiddenWhole(headers: NameValue[]): NameValue[] {
  return headers.map((header) =>
    holdsClear(header.name.toLowerCase(), header.value) ? { ...header, value: REDACTED } : header,
  );
}
