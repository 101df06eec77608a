import { parseServerId } from '../domain/rules.js';
import type { Headers } from './journal.js';
import { basicUsername } from './request-match.js';

/** What a secret becomes wherever it was found. */
export const REDACTED = '<redacted>';
/**
 * Secrets shorter than this are left alone: such a key is guessable anyway, and replacing every
 * occurrence of a few letters would garble every entry (and defeat the journal's body filters).
 */
export const MIN_SECRET_LENGTH = 6;

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
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);
/** Base64 (and base64url) characters; padding only ends a run. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;
const BASE64_END = /[A-Za-z0-9+/_=-]/;

/** The forms of every secret, in one domain of strings (wire bytes as latin1, or text). */
interface Patterns {
  /** Any form, anywhere: the one test run on every string. */
  readonly any: { test(value: string): boolean };
  /** The same, global, to replace. */
  readonly each: RegExp;
  /** Forms found inside base64: the whole base64 run around them goes. */
  readonly base64: ReadonlySet<string>;
}

interface Compiled {
  /** Strings as bytes arrive: header values, the URL, bodies read as latin1. */
  readonly wire: Patterns;
  /** Decoded strings: query values, the bodies the fake sends. */
  readonly text: Patterns;
  /** Longest form, in wire characters: how far past the kept body a secret can start. */
  readonly longest: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const asWire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * The parts of base64 that encode nothing but `secret`, at each of the three alignments it can
 * have inside a longer value (`id:key`, `key:id`, the key alone): found in any base64 text that
 * holds the secret, whatever surrounds it.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6),
    );
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** The ways a client plausibly sends a secret: as is, lower-cased, URL-, form-, JSON- or XML-escaped. */
function escapedForms(secret: string): string[] {
  const url = encodeURIComponent(secret);
  return [
    secret,
    // Header names arrive lower-cased.
    secret.toLowerCase(),
    url,
    url.replace(/%20/g, '+'),
    url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    JSON.stringify(secret).slice(1, -1),
    secret
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;'),
  ];
}

/**
 * Up to this many forms, one regular expression tests a string fastest; past it (many servers),
 * V8 tries every alternative at every position, and an index of the forms' first characters
 * keeps the test linear in the string whatever the number of keys.
 */
const MAX_ALTERNATIVES = 48;

function patterns(plain: Iterable<string>, base64: Iterable<string>): Patterns {
  const forms = [...new Set([...plain, ...base64])].sort((a, b) => b.length - a.length);
  const source = forms.map(escapeRegExp).join('|');
  const each = new RegExp(source, 'g');
  const any = forms.length <= MAX_ALTERNATIVES ? new RegExp(source) : new Anchors(forms);
  return { any, each, base64: new Set(base64) };
}

/** Every form is at least this long (MIN_SECRET_LENGTH; a base64 core of one is longer). */
const ANCHOR = MIN_SECRET_LENGTH;
const BASE = 31;
const TOP = BASE ** (ANCHOR - 1);

/** A rolling hash of `ANCHOR` UTF-16 units, 32 bits. */
function anchorHash(value: string, from: number): number {
  let hash = 0;
  for (let index = from; index < from + ANCHOR; index += 1) {
    hash = (Math.imul(hash, BASE) + value.charCodeAt(index)) | 0;
  }
  return hash;
}

/** Forms indexed by a hash of their first characters: one pass over a string tests them all. */
class Anchors {
  private readonly byHash = new Map<number, string[]>();

  constructor(forms: readonly string[]) {
    for (const form of forms) {
      const hash = anchorHash(form, 0);
      const same = this.byHash.get(hash);
      if (same) same.push(form);
      else this.byHash.set(hash, [form]);
    }
  }

  test(value: string): boolean {
    if (value.length < ANCHOR) return false;
    let hash = anchorHash(value, 0);
    for (let start = 0; ; start += 1) {
      const forms = this.byHash.get(hash);
      if (forms?.some((form) => value.startsWith(form, start))) return true;
      const next = start + ANCHOR;
      if (next >= value.length) return false;
      const out = Math.imul(value.charCodeAt(start), TOP);
      hash = (Math.imul(hash - out, BASE) + value.charCodeAt(next)) | 0;
    }
  }
}

/**
 * Takes every known secret (the keys of all servers, live, and the admin token) out of what the
 * journal records, when it records it: headers (names and values; `Authorization` keeps the
 * Basic username only), the URL and query, and the bodies, in the forms a client would send them
 * (as is, URL-, form-, JSON- or XML-escaped, inside base64). Nothing secret is kept, so no reader
 * (journal, HAR, inspector, logs) can show one. The common case costs one regular-expression test
 * per string; only a hit builds a copy.
 */
export class Redactor {
  private compiled: Compiled | undefined;
  private compiledAt = Number.NaN;
  /** A client sends the same credentials on every call: the last one is redacted once. */
  private lastCredentials = { value: '', redacted: '', at: Number.NaN };

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
    const secrets = this.current();
    const requestHeaders = this.headers(record.requestHeaders, secrets);
    if (!secrets && requestHeaders === record.requestHeaders) return record;
    const url = secrets ? this.wire(record.url, secrets) : record.url;
    const query = secrets ? this.query(record.query, secrets) : record.query;
    if (requestHeaders === record.requestHeaders && url === record.url && query === record.query) {
      return record;
    }
    return { ...record, requestHeaders, url, query };
  }

  /**
   * A body (as received, or as sent: an answer can echo what the client sent) without secrets;
   * the same one when it holds none. Only the part the journal keeps is scanned, and a secret's
   * length more, for one cut in two.
   */
  body<B extends string | Buffer | undefined>(body: B): B {
    const secrets = this.current();
    return secrets ? this.bodyWith(body, secrets) : body;
  }

  /** A request URL (or any text as it came off the wire) without secrets: for logs. */
  url(url: string): string {
    const secrets = this.current();
    return secrets ? this.wire(url, secrets) : url;
  }

  private current(): Compiled | undefined {
    const revision = this.source.revision();
    if (revision !== this.compiledAt) {
      this.compiled = compile(this.source.secrets());
      this.compiledAt = revision;
    }
    return this.compiled;
  }

  private headers(headers: Headers, secrets: Compiled | undefined): Headers {
    let copy: Headers | undefined;
    for (const name in headers) {
      const value = headers[name];
      if (value === undefined || typeof value === 'number') continue;
      let kept: string | string[] = value;
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
    const last = this.lastCredentials;
    if (last.value === value && last.at === this.compiledAt) return last.redacted;
    const redacted = this.credentialsOf(value, secrets);
    this.lastCredentials = { value, redacted, at: this.compiledAt };
    return redacted;
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
    return secrets.wire.any.test(value) ? replaceAll(value, secrets.wire) : value;
  }

  private query(query: RecordedFacts['query'], secrets: Compiled): RecordedFacts['query'] {
    let copy: Record<string, string | string[]> | undefined;
    for (const name in query) {
      const value = query[name]!;
      const { any } = secrets.text;
      if (
        !any.test(name) &&
        !(Array.isArray(value) ? value.some((one) => any.test(one)) : any.test(value))
      )
        continue;
      copy ??= { ...query };
      delete copy[name];
      copy[replaceAll(name, secrets.text)] = mapValue(value, (one) =>
        replaceAll(one, secrets.text),
      );
    }
    return copy ?? query;
  }

  private bodyWith<T extends string | Buffer | undefined>(body: T, secrets: Compiled): T {
    if (body === undefined || body.length === 0) return body;
    const end = this.bodyLimit + secrets.longest;
    if (typeof body === 'string') {
      const head = body.length > end ? body.slice(0, end) : body;
      if (!secrets.text.any.test(head)) return body;
      return (replaceAll(head, secrets.text) + body.slice(head.length)) as T;
    }
    const head = (body as Buffer).subarray(0, end);
    const text = head.toString('latin1');
    if (!secrets.wire.any.test(text)) return body;
    const redacted = Buffer.from(replaceAll(text, secrets.wire), 'latin1');
    return (
      head.length === body.length
        ? redacted
        : Buffer.concat([redacted, (body as Buffer).subarray(head.length)])
    ) as T;
  }
}

function compile(source: Iterable<string>): Compiled | undefined {
  const secrets = [...new Set(source)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  if (secrets.length === 0) return undefined;
  const plain = secrets.flatMap(escapedForms);
  const base64 = secrets.flatMap(base64Cores);
  const text = patterns(plain, base64);
  const wire = patterns(plain.map(asWire), base64);
  const longest = Math.max(...[...plain.map(asWire), ...base64].map((form) => form.length));
  return { wire, text, longest };
}

/**
 * Every form replaced by `<redacted>`; a form found inside base64 takes the whole base64 run with
 * it, as the characters around it encode parts of the secret too. Linear: one pass of the
 * regular expression, and each run is widened by a scan.
 */
function replaceAll(value: string, { each, base64 }: Patterns): string {
  let result = '';
  let copied = 0;
  each.lastIndex = 0;
  for (let match = each.exec(value); match !== null; match = each.exec(value)) {
    let start = match.index;
    let end = start + match[0].length;
    if (base64.has(match[0])) {
      while (start > copied && BASE64_CHAR.test(value[start - 1]!)) start -= 1;
      while (end < value.length && BASE64_END.test(value[end]!)) end += 1;
      each.lastIndex = end;
    }
    result += value.slice(copied, start) + REDACTED;
    copied = end;
  }
  return result + value.slice(copied);
}

function mapValue(value: string | string[], map: (one: string) => string): string | string[] {
  if (!Array.isArray(value)) return map(value);
  const mapped = value.map(map);
  return mapped.every((one, index) => one === value[index]) ? value : mapped;
}
