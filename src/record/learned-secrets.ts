import type { KeyChange } from '../domain/key-ledger.js';
import { parseServerId } from '../domain/rules.js';
import type { Headers } from '../journal/journal-entry.js';
import type { SecretSource } from '../redaction/redact.js';
import { cookiePairs, setCookiePairs } from './cookie-lines.js';

/**
 * The most secrets a recorder keeps of those it learned (a few per distinct `Authorization`
 * header): the most recently seen. Each one kept costs memory and is searched for in every later
 * exchange, so a recording of many distinct keys would slow down and grow without end.
 */
export const MAX_LEARNED_SECRETS = 1000;
/** Changes kept for the redactor, which reads them after each exchange; further behind, it reads all. */
const KEPT_CHANGES = 2 * MAX_LEARNED_SECRETS;

/**
 * The keys a recorder has seen go by. A recording proxy stands in front of a service whose keys
 * it is never told, so it learns them from the traffic: the key half of every Basic
 * `Authorization` header (both halves when the first is not a server id: a client that swapped
 * them), read as leniently as a server reads them. The journal's redactor then takes each one
 * out wherever it appears, in this exchange and later ones: another header, the query string,
 * either body. With a bound (`max`), the least recently seen learned secret goes past it; the
 * secrets given at the start stay.
 */
export class LearnedSecrets implements SecretSource {
  private readonly given = new Set<string>();
  /** The learned secrets, the least recently seen first. */
  private readonly learned = new Set<string>();
  private readonly changes: KeyChange[] = [];
  /** The number of the first change kept in {@link changes}. */
  private firstChange = 0;

  /** `known`: secrets to redact before any request taught them, never forgotten. */
  constructor(
    known: Iterable<string> = [],
    private readonly max = Number.POSITIVE_INFINITY,
  ) {
    for (const secret of known) if (secret.length > 0) this.given.add(secret);
  }

  /**
   * Learns the secrets of one exchange's credential headers: the request's, and the cookies its
   * answer sets. Call it before redacting the exchange.
   */
  learn(headers: Headers, answerHeaders: Headers = {}): void {
    for (const name of ['authorization', 'proxy-authorization']) {
      for (const one of valuesOf(headers[name])) this.learnCredentials(one);
    }
    // A session's cookies are its credentials: the HAR keeps their names only, and an answer
    // that echoes one (a debug page, an error quoting the request) must not keep its value.
    for (const one of valuesOf(headers.cookie)) {
      for (const pair of cookiePairs(one)) this.learnCookiePieces(pair);
    }
    // A cookie the answer sets is the session's next credential: a login answer may quote it in
    // its own body, and a client may send it back later outside a Cookie header.
    for (const one of valuesOf(answerHeaders['set-cookie'])) {
      for (const pair of setCookiePairs(one)) this.learnCookiePieces(pair);
    }
  }

  revision(): number {
    return this.position;
  }

  secrets(): Iterable<string> {
    return [...this.given, ...this.learned];
  }

  /** What came or went since `position`: the redactor's work is in the changes, not the secrets. */
  keyChanges(position: number | undefined): {
    readonly position: number;
    readonly changes: Iterable<KeyChange> | undefined;
  } {
    const known =
      position !== undefined && position >= this.firstChange && position <= this.position;
    return {
      position: this.position,
      changes: known ? this.changes.slice(position - this.firstChange) : undefined,
    };
  }

  private get position(): number {
    return this.firstChange + this.changes.length;
  }

  /**
   * Read leniently, as a server would take them: any whitespace around and between the scheme and
   * the credentials, and each credential of a list (`Bearer A, Bearer B`). Besides the whole
   * token of another scheme, each `name=value` parameter's value (`Token token=KEY`). A Basic
   * secret that is not UTF-8 is taken as Latin-1 bytes.
   */
  private learnCredentials(value: string): void {
    const match = /^(\S+)\s+([\s\S]+)$/.exec(value.trim());
    if (!match) {
      this.learnBare(value.trim());
      return;
    }
    const [, scheme, token] = match as unknown as [string, string, string];
    // Each further credential of a list: a piece after a comma that starts with a word followed
    // by no `=` (`, Bearer B`, `, B`), where a parameter (`, realm="x"`, `, realm = x`) is.
    for (const piece of listItems(token).slice(1)) {
      if (/^\s*[^\s=]+(?:\s+[^\s=]|\s*$)/.test(piece)) this.learnCredentials(piece);
    }
    // The first word alone too: a server that reads `split(' ')[1]` takes it as the credentials,
    // whatever follows (`Bearer KEY extra`, `Basic X, Basic Y`, `Bearer KEY;nonce=1`).
    const [first = ''] = token.split(/[\s,;]/, 1);
    if (scheme.toLowerCase() !== 'basic') {
      this.add(token);
      this.add(first);
      this.add(unquoted(first));
      this.learnParameters(token);
      return;
    }
    this.learnBasic(token.replace(/\s+/g, ''));
    // Only when that word alone holds credentials: base64 split by white space is one (above).
    if (first !== token && /:[\s\S]/.test(Buffer.from(first, 'base64').toString('latin1')))
      this.learnBasic(first);
  }

  /**
   * A value of one word: no scheme, the credential itself (`Authorization: KEY`, as some APIs
   * take it), a parameter (`key=KEY`), or Basic's base64 without its scheme. A scheme's name
   * alone (`Bearer`, a client whose token was empty) holds none: learned, it would be taken out
   * of every later header that names its scheme.
   */
  private learnBare(word: string): void {
    if (word === '' || SCHEMES.has(word.toLowerCase())) return;
    // A scheme joined to its credentials by a colon or a semicolon (`Bearer:KEY`).
    const joined = /^([\w-]+)[:;]([\s\S]+)$/.exec(word);
    if (joined && SCHEMES.has(joined[1]!.toLowerCase())) this.learnBare(joined[2]!);
    this.add(word);
    this.add(unquoted(word));
    this.learnParameters(word);
    const decoded = Buffer.from(word, 'base64').toString('utf8');
    // Base64 of text holding a colon, as Basic's `id:key`; random bytes are rarely such text.
    if (/^[^\x00-\x1f\x7f\uFFFD]*:[^\x00-\x1f\x7f\uFFFD]+$/.test(decoded)) this.learnBasic(word);
  }

  /**
   * The value of each `name=value` parameter of a token, without its quotes, parameters parted by
   * commas or semicolons. Not those the protocols define as public (a Digest answer's `uri` and
   * `realm`, OAuth's `scope`), nor a user name that is a server id, as with Basic: learned, their
   * values (an API path, `application`) would be taken out of every later exchange.
   */
  private learnParameters(token: string): void {
    const params = /(?:^|[\s,;])([!#$%&'*+.^_`|~\w-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,;]+)/g;
    for (const [, name, value] of token.matchAll(params) as Iterable<[string, string, string]>) {
      const key = name.toLowerCase();
      if (PUBLIC_PARAMETERS.has(key)) continue;
      const bare = unquoted(value);
      if (key === 'username' && parseServerId(bare) !== undefined) continue;
      this.add(bare);
    }
  }

  /** Basic credentials: the base64 as sent, and the key (and a username that is no server id). */
  private learnBasic(base64: string): void {
    // The credentials as sent, too: an echo of them is found even when the key's bytes are not
    // UTF-8 (the redactor looks for a key's UTF-8 bytes inside base64).
    this.add(base64);
    const bytes = Buffer.from(base64, 'base64');
    let decoded = bytes.toString('utf8');
    if (decoded.includes('\uFFFD')) decoded = bytes.toString('latin1');
    const colon = decoded.indexOf(':');
    if (colon === -1) {
      this.add(decoded);
      return;
    }
    const username = decoded.slice(0, colon);
    if (parseServerId(username) === undefined) this.add(username);
    this.add(decoded.slice(colon + 1));
  }

  /**
   * One `name=value` pair (all value without `=`), in each form a server may quote it: as sent
   * (without the quotes a cookie value may have, RFC 6265 §4.1.1), and percent-decoded, as most
   * frameworks hand it to the application.
   */
  private learnCookie(pair: string): void {
    const value = pair.slice(pair.indexOf('=') + 1).trim();
    // A quoted value is learned without its quotes only: redacted, the quoted form would take a
    // JSON string's own quotes with it (`"name":<redacted>`), and the unquoted one is inside it.
    const bare = unquoted(value);
    const decoded = percentDecoded(bare);
    if (isLocation(bare) || isLocation(decoded)) return;
    this.add(bare);
    this.add(decoded);
  }

  /**
   * A pair, and each `name=value` of it joined by commas (RFC 2965's form, or a header folded on
   * the way), as a server that splits on them reads each.
   */
  private learnCookiePieces(pair: string): void {
    this.learnCookie(pair);
    if (pair.includes(','))
      for (const piece of pair.split(',')) if (piece.includes('=')) this.learnCookie(piece);
  }

  private add(secret: string): void {
    if (secret.length === 0 || this.given.has(secret)) return;
    // Seen again: the most recent now, and nothing to redact changes.
    if (this.learned.delete(secret)) {
      this.learned.add(secret);
      return;
    }
    this.learned.add(secret);
    this.changed(secret, true);
    if (this.learned.size > this.max) {
      const oldest = this.learned.values().next().value as string;
      this.learned.delete(oldest);
      this.changed(oldest, false);
    }
  }

  private changed(key: string, added: boolean): void {
    this.changes.push({ key, added });
    if (this.changes.length > KEPT_CHANGES) {
      const dropped = this.changes.length - KEPT_CHANGES / 2;
      this.changes.splice(0, dropped);
      this.firstChange += dropped;
    }
  }
}

/**
 * HTTP authentication schemes (the IANA registry's, and the common `Token`): a header holding only
 * one of these names holds no credential.
 */
const SCHEMES = new Set([
  'basic',
  'bearer',
  'concealed',
  'digest',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'scram-sha-1',
  'scram-sha-256',
  'token',
  'vapid',
]);

/**
 * Parameters of authentication schemes that hold no secret: Digest's (RFC 7616) but its
 * `response`, `cnonce` and `username` (its `opaque` the server chose and gets back as it was); Bearer's challenge (RFC 6750); AWS Signature V4's list of
 * signed headers.
 */
const PUBLIC_PARAMETERS = new Set([
  'algorithm',
  'charset',
  'domain',
  'error',
  'error_description',
  'error_uri',
  'nc',
  'opaque',
  'qop',
  'realm',
  'scope',
  'signedheaders',
  'stale',
  'uri',
  'userhash',
]);

/** A value percent-decoded; as it is when it is no percent-encoding (a lone `%`). */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A value without the double quotes around it, if it has them. */
function unquoted(value: string): string {
  return /^"([\s\S]*)"$/.exec(value)?.[1] ?? value;
}

/**
 * A cookie value that is a URL, or a path of two or more segments (`/marketing/v1/lists`): where
 * a cookie sends the user back to (`returnTo=/lists/1`), no session. Learned, it would be taken
 * out of every later request's URL, and replay could read none of them.
 */
function isLocation(value: string): boolean {
  return /^(?:https?:\/\/[^\s/]+|\/[\w.~%-]+)(?:\/[\w.~%-]+)+\/?$/i.test(value);
}

/** The items of a comma-separated list, a comma inside a quoted string (`"a, b"`) kept. */
function listItems(text: string): string[] {
  const items: string[] = [];
  let quoted = false;
  let from = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quoted && char === '\\') at += 1;
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      items.push(text.slice(from, at));
      from = at + 1;
    }
  }
  items.push(text.slice(from));
  return items;
}

/** A header's values, one per field line: Node gives a repeated header as an array. */
function valuesOf(value: Headers[string]): string[] {
  if (Array.isArray(value)) return value.filter((one): one is string => typeof one === 'string');
  return typeof value === 'string' ? [value] : [];
}
