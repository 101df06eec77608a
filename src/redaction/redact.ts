// Redaction: no key of any server, nor the admin token, is kept in the journal or shown in a
// report, in any spelling a client may send it (secret-forms.ts: percent, JSON, base64 and other
// encodings, secret-encodings.ts), as a fake of many tenants' keys changes (secret-set.ts). This
// file is the journal's redactor; hide-secrets.ts is the same mechanism for the tools' reports.
import { Buffer } from 'node:buffer';
import type { KeyChange } from '../domain/key-ledger.js';
import { parseServerId } from '../domain/rules.js';
import type { Headers } from '../journal/journal-entry.js';
import { basicUsername } from '../match/request-match.js';
import { LastRedaction } from './last-redaction.js';
import { MAX_ESCAPE_WIDTH, redactForms } from './secret-encodings.js';
import { type Compiled, REDACTED } from './secret-forms.js';
import { SecretSet } from './secret-set.js';

export { MIN_SECRET_LENGTH, REDACTED } from './secret-forms.js';

/** What the journal records of a request besides its body: what may hold a secret. */
export interface RecordedFacts {
  readonly url: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly requestHeaders: Headers;
}

/** Where the redactor learns the secrets: the live keys, and when they last changed. */
export interface SecretSource {
  /** Changes whenever a key may have (seed, addServer, regenerateKey, reset). */
  revision(): number;
  /** Every key of the store, and the admin token. */
  secrets(): Iterable<string>;
  /**
   * The keys that came or went since `position`, and the position after them; undefined when
   * they are not known (the redactor then reads every secret). Without it, every change reads
   * every secret.
   */
  keyChanges?(position: number | undefined): {
    readonly position: number;
    readonly changes: Iterable<KeyChange> | undefined;
  };
}

/** The longest clean string body remembered (UTF-16 units): one answer held, never a large one. */
const REMEMBERED_TEXT = 64 * 1024;

/**
 * The longest clean Buffer body remembered (bytes): a copy is taken of each one found clean, so
 * only a small request body sent again and again (the usual call) is worth it.
 */
const REMEMBERED_BYTES = 4096;

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);

/**
 * Takes every known secret (the keys of all servers, live, and the admin token) out of what the
 * journal records, when it records it: headers (names and values; `Authorization` keeps the
 * Basic username only), the URL and query, and the bodies, in the forms a client would send them
 * (as is, URL-, form-, JSON- or XML-escaped, inside base64), and behind escapes of any of its
 * characters (percent, JSON `\u`, character references: secret-encodings.ts). Nothing secret is
 * kept, so no reader (journal, HAR, inspector, logs) can show one. The common case costs two
 * regular-expression tests per string; only a hit builds a copy.
 */
export class Redactor {
  private compiled: Compiled | undefined;
  private compiledAt = Number.NaN;
  /** The secrets' forms, updated by the keys that came or went since the last change. */
  private readonly secrets = new SecretSet();
  /** Where the source's changes were last read up to. */
  private position: number | undefined;
  /** A client sends the same credentials on every call: the last one is redacted once. */
  private readonly lastCredentials = new LastRedaction<string, string>(sameText);
  /**
   * The last bodies found to hold no secret, and under which secrets: a string as it is (it cannot
   * change), a Buffer as a copy of its bytes (the caller's can change in place after the scan).
   * One of each: the request's body is a Buffer, the answer's a string, and they alternate.
   */
  private readonly lastCleanText = new LastRedaction<string, true>(sameText);
  private readonly lastCleanBytes = new LastRedaction<Buffer, true>(sameBytes);
  /**
   * The last request headers redacted, by their raw list (names and values in order), and what
   * they became: a client sends the same headers on every call. Handing out the same copy again
   * also lets the journal keep one old object instead of a young one per request, which the
   * garbage collector would copy while the entry lives.
   */
  private readonly lastHeaders = new LastRedaction<readonly string[], Headers>(sameStrings);
  /** The last URL redacted, and what it became: the same path is asked again and again. */
  private readonly lastUrl = new LastRedaction<string, string>(sameText);

  constructor(
    private readonly source: SecretSource,
    /** Bytes of a body the journal keeps: a secret starting past them is never kept anyway. */
    private readonly bodyLimit: number,
  ) {}

  /**
   * The request's facts (headers, URL, query) with every secret replaced by `<redacted>`; the
   * same object when they hold none. Bodies go through {@link Redactor.body}.
   */
  record<T extends RecordedFacts>(record: T): T {
    const requestHeaders = this.requestHeaders(record.requestHeaders);
    const url = this.url(record.url);
    const query = this.query(record.query);
    if (requestHeaders === record.requestHeaders && url === record.url && query === record.query) {
      return record;
    }
    return { ...record, requestHeaders, url, query };
  }

  /**
   * Request headers without secrets (names and values; `Authorization` keeps the Basic username
   * only): the same object when they hold none, else a copy. Given `raw`, the headers as Node
   * received them (`rawHeaders`, from which it built `headers`), headers equal to the last ones
   * redacted give the same answer again, without scanning them.
   */
  requestHeaders(headers: Headers, raw?: readonly string[]): Headers {
    const secrets = this.current();
    if (raw === undefined) return this.headers(headers, secrets);
    return (
      this.lastHeaders.get(raw, this.compiledAt) ??
      this.lastHeaders.set(raw, this.compiledAt, this.headers(headers, secrets))
    );
  }

  /** Query parameters (names and values, decoded) without secrets: the same object when clean. */
  query(query: RecordedFacts['query']): RecordedFacts['query'] {
    const secrets = this.current();
    return secrets ? this.queryWith(query, secrets) : query;
  }

  /**
   * A body (as received, or as sent: an answer can echo what the client sent) without secrets;
   * the same one when it holds none. Only the part the journal keeps is scanned, and a secret's
   * length more, for one cut in two.
   */
  body<B extends string | Buffer | undefined>(body: B): B {
    if (body === undefined) return body;
    const secrets = this.current();
    if (!secrets) return body;
    // A client sends the same body again and again (an add by email in a loop), and the fake sends
    // the same answer: a body found clean under these secrets is clean again, and comparing it
    // costs less than scanning it.
    const at = this.compiledAt;
    if (typeof body === 'string') {
      if (this.lastCleanText.get(body, at)) return body;
      const redacted = this.bodyWith(body, secrets);
      if (redacted === body) {
        // Stryker disable next-line ConditionalExpression,EqualityOperator: the bound keeps memory small only: whichever clean strings are remembered (any length, one less, only long ones), each was found clean under the same secrets
        if (body.length <= REMEMBERED_TEXT) this.lastCleanText.set(body, at, true);
      }
      return redacted;
    }
    const bytes = body as Buffer;
    if (this.lastCleanBytes.get(bytes, at)) return body;
    const redacted = this.bodyWith(bytes, secrets);
    if (redacted === bytes && bytes.length <= REMEMBERED_BYTES) {
      this.lastCleanBytes.set(Buffer.from(bytes), at, true);
    }
    return redacted as B;
  }

  /**
   * A request URL (or any text as it came off the wire) without secrets. The same URL as the last
   * one gives the string given then: no scan, and the journal keeps one old string.
   */
  url(url: string): string {
    const secrets = this.current();
    return (
      this.lastUrl.get(url, this.compiledAt) ??
      this.lastUrl.set(url, this.compiledAt, secrets ? this.wire(url, secrets) : url)
    );
  }

  private current(): Compiled | undefined {
    const revision = this.source.revision();
    if (revision !== this.compiledAt) {
      const read = this.source.keyChanges?.(this.position);
      this.compiled =
        read?.changes === undefined
          ? this.secrets.update(this.source.secrets())
          : this.secrets.apply(read.changes);
      this.position = read?.position;
      this.compiledAt = revision;
    }
    return this.compiled;
  }

  private headers(headers: Headers, secrets: Compiled | undefined): Headers {
    let copy: Headers | undefined;
    for (const name in headers) {
      const value = headers[name];
      let kept = value;
      if (CREDENTIAL_HEADERS.has(name))
        kept = mapValue(value, (one) => this.credentials(one, secrets));
      else if (secrets) kept = mapValue(value, (one) => this.wire(one, secrets));
      const keptName = secrets ? this.wire(name, secrets) : name;
      if (kept === value && keptName === name) continue;
      copy ??= { ...headers };
      if (keptName !== name) delete copy[name];
      copy[keptName] = kept;
    }
    return copy ?? headers;
  }

  /** `Basic <base64>` becomes `Basic 12345:<redacted>`; any other scheme `Bearer <redacted>`. */
  private credentials(value: string, secrets: Compiled | undefined): string {
    return (
      this.lastCredentials.get(value, this.compiledAt) ??
      this.lastCredentials.set(value, this.compiledAt, this.credentialsOf(value, secrets))
    );
  }

  private credentialsOf(value: string, secrets: Compiled | undefined): string {
    const space = value.indexOf(' ');
    const scheme = space === -1 ? value : value.slice(0, space);
    if (scheme.toLowerCase() !== 'basic') return space === -1 ? REDACTED : `${scheme} ${REDACTED}`;
    const decoded = basicUsername(value);
    // Only a server id is shown: a client that swaps id and key sends the key first.
    const shown =
      decoded !== undefined &&
      parseServerId(decoded) !== undefined &&
      !secrets?.text.any.test(decoded);
    return `${scheme} ${shown ? `${decoded}:` : ''}${REDACTED}`;
  }

  private wire(value: string, secrets: Compiled): string {
    return redactForms(value, secrets.wire, true);
  }

  private queryWith(query: RecordedFacts['query'], secrets: Compiled): RecordedFacts['query'] {
    const { text } = secrets;
    let found = false;
    for (const name in query) {
      const value = query[name]!;
      if (redactForms(name, text, false) !== name) found = true;
      else if (typeof value === 'string') found = redactForms(value, text, false) !== value;
      else found = value.some((one) => redactForms(one, text, false) !== one);
      if (found) break;
    }
    if (!found) return query;
    // Rebuilt in order, so that the HAR's queryString keeps the parameters' order.
    const copy: Record<string, string | string[]> = {};
    for (const name in query) {
      copy[redactForms(name, text, false)] = mapValue(query[name]!, (one) =>
        redactForms(one, text, false),
      );
    }
    return copy;
  }

  private bodyWith<T extends string | Buffer>(body: T, secrets: Compiled): T {
    if (body.length === 0) return body;
    // A secret spelt with escapes is longer than any of its fixed forms.
    const end = this.bodyLimit + secrets.longest * MAX_ESCAPE_WIDTH;
    let result: T;
    if (typeof body === 'string') {
      // A slice of the whole string is the string itself (V8 copies nothing): no length test.
      const head = body.slice(0, end);
      const redacted = redactForms(head, secrets.text, false);
      if (redacted === head) return body;
      result = (redacted + body.slice(head.length)) as T;
    } else {
      const head = (body as Buffer).subarray(0, end);
      const text = head.toString('latin1');
      const kept = redactForms(text, secrets.wire, true);
      if (kept === text) return body;
      const redacted = Buffer.from(kept, 'latin1');
      result = (
        head.length === body.length
          ? redacted
          : Buffer.concat([redacted, (body as Buffer).subarray(head.length)])
      ) as T;
    }
    // A secret replaced by the shorter `<redacted>` pulls bytes that were never scanned into the
    // part the journal keeps: scan again while the body shrinks (each pass needs a fresh hit). A body
    // the first pass read whole is read once more too: one scan more, and only after a hit.
    return result.length < body.length ? this.bodyWith(result, secrets) : result;
  }
}

const sameText = (one: string, other: string) => one === other;

const sameBytes = (one: Buffer, other: Buffer) => one.equals(other);

/** True when both lists hold the same strings in the same order. */
function sameStrings(one: readonly string[], other: readonly string[]): boolean {
  if (one.length !== other.length) return false;
  for (let index = 0; index < one.length; index++) {
    if (one[index] !== other[index]) return false;
  }
  return true;
}

/**
 * Each string of a header or query value mapped; the same value when nothing changed. Numbers and
 * `undefined` (which the Headers type allows, though Node never gives them) are kept as they are.
 */
function mapValue<V extends Headers[string]>(value: V, map: (one: string) => string): V;
function mapValue(value: Headers[string], map: (one: string) => string): Headers[string] {
  if (typeof value === 'string') return map(value);
  if (!Array.isArray(value)) return value;
  const mapped = value.map(map);
  return mapped.every((one, index) => one === value[index]) ? value : mapped;
}
