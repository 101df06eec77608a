import { ROUTES } from '../http/routes/table.js';
import type { Redactor } from '../redaction/redact.js';

/** The literal segments of the service's paths (`marketing`, `v1`, `lists`, ...). */
const API_WORDS: ReadonlySet<string> = new Set(
  ROUTES.filter((route) => route.auth === 'basic').flatMap((route) =>
    route.path.split('/').filter((segment) => segment !== '' && !segment.startsWith(':')),
  ),
);

/**
 * A request's path and query without secrets, each path segment on its own: a segment that is a
 * word of the API's paths is kept, so that a learned value that is one (or spans several) cannot
 * take the API's path out of the URL.
 */
export function urlWithoutSecrets(target: string, redactor: Redactor): string {
  const at = target.indexOf('?');
  const path = at === -1 ? target : target.slice(0, at);
  const query = at === -1 ? '' : redactor.url(target.slice(at));
  const segments = path
    .split('/')
    .map((segment) => (API_WORDS.has(segment) ? segment : redactor.url(segment)));
  return `${segments.join('/')}${query}`;
}
