import { REDACTED } from '../redaction/secret-forms.js';

/**
 * Where the cookies of `Cookie` and `Set-Cookie` lines are, for the three that must agree on it:
 * the recorder hides their values, learns them as secrets, and, continuing a HAR, checks that
 * each is still hidden. A form that one of them read differently would be kept in clear, or
 * would make a HAR the recorder wrote look changed.
 */

/** A `Cookie` line's pairs: split by `;` only, as the recorder writes them back. */
export function cookiePairs(line: string): string[] {
  return line.split(';').map((pair) => pair.trim());
}

/**
 * `line` with each cookie pair of a `Set-Cookie` line replaced by `change(pair)`, its attributes
 * as they were. The pair is all before the first `;`. A server (or a gateway) may fold several
 * cookies into one line by commas: after a `;`, a comma starts another cookie, whose pair runs to
 * the next `;` (a pair without `=` too: a cookie with no name). The one comma an attribute holds
 * is the date's of `Expires=Wed, 21 Oct 2026 07:28:00 GMT`: after its day's name, before the
 * day's number (`Expires=Wed, z=KEY` folds a cookie after a date cut short).
 */
export function mapSetCookiePairs(line: string, change: (pair: string) => string): string {
  const [first = '', ...attributes] = line.split(';');
  const space = /^\s*/.exec(first)![0];
  const head = `${space}${change(first.trim())}`;
  const changed = attributes.map((segment) => {
    const pieces = segment.split(',');
    const dated =
      /^\s*expires\s*=\s*[a-z]+\s*$/i.test(pieces[0]!) && /^\s*\d/.test(pieces[1] ?? '') ? 2 : 1;
    const start = pieces.findIndex((piece, index) => index >= dated && piece.trim() !== '');
    if (start === -1) return segment;
    const pair = pieces.slice(start).join(',');
    const indent = /^\s*/.exec(pair)![0];
    return `${pieces.slice(0, start).join(',')},${indent}${change(pair.trim())}`;
  });
  return [head, ...changed].join(';');
}

/** The cookie pairs of a `Set-Cookie` line (see {@link mapSetCookiePairs}). */
export function setCookiePairs(line: string): string[] {
  const pairs: string[] = [];
  mapSetCookiePairs(line, (pair) => {
    pairs.push(pair);
    return pair;
  });
  return pairs;
}

/**
 * A pair as the recorder writes it: the name kept, the value `<redacted>`. A pair without `=` is
 * all value: a browser stores it as a cookie with no name, the text its value.
 */
export function hiddenPair(pair: string): string {
  const equals = pair.indexOf('=');
  if (equals !== -1) return `${pair.slice(0, equals)}=${REDACTED}`;
  return pair === '' ? pair : REDACTED;
}

/** Whether a pair holds no value in clear: `<redacted>`, `name=<redacted>`, or nothing. */
export function isHiddenPair(pair: string): boolean {
  const text = pair.trim();
  return text === '' || text === REDACTED || /^[^=]*=\s*<redacted>$/.test(text);
}
