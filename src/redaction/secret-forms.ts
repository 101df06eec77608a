/**
 * The forms of a secret (escaped, inside base64), the index that finds many of them at once, and
 * the replacement that takes them out; secret-set.ts keeps them for a changing set of secrets.
 */

/** What a secret becomes wherever it was found. */
export const REDACTED = '<redacted>';
/**
 * Secrets shorter than this are left alone: such a key is guessable anyway, and replacing every
 * occurrence of a few letters would garble every entry (and defeat the journal's body filters).
 */
export const MIN_SECRET_LENGTH = 6;
/** Base64 (and base64url) characters; padding only ends a run. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/;
const BASE64_END = /[A-Za-z0-9+/_=-]/;

/** The forms of every secret, in one domain of strings (wire bytes as latin1, or text). */
export interface Patterns {
  /** Any form, anywhere: the one test run on every string. */
  readonly any: { test(value: string): boolean };
  /** The same, to find every place: global, or the index itself past a few dozen forms. */
  readonly each: RegExp | Anchors;
  /** Forms found inside base64: the whole base64 run around them goes. */
  readonly base64: { has(form: string): boolean };
  /**
   * Some secret holds a `+`, which a form or query decoder reads as a space: a decoded text
   * can then spell it with spaces (secret-encodings.ts reads `+` and space alike).
   */
  readonly plus: boolean;
  /**
   * Whether a string may hold a secret spelt with some characters percent-escaped: it holds the
   * longest run of URL-safe characters of one (escapes of those are always decoded first).
   */
  readonly mixed: { test(value: string): boolean };
}

export interface Compiled {
  /** Strings as bytes arrive: header values, the URL, bodies read as latin1. */
  readonly wire: Patterns;
  /** Decoded strings: query values, the bodies the fake sends. */
  readonly text: Patterns;
  /** Longest form, in wire characters: how far past the kept body a secret can start. */
  readonly longest: number;
}

export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
export const asWire = (text: string) => Buffer.from(text).toString('latin1');

/**
 * The parts of base64 that encode nothing but `secret`, at each of the three alignments it can
 * have inside a longer value (`id:key`, `key:id`, the key alone): found in any base64 text that
 * holds the secret, whatever surrounds it.
 */
export function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(
      Math.ceil((8 * offset) / 6),
      Math.floor((8 * (offset + bytes.length)) / 6),
    );
    cores.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return cores;
}

/** How XML (and HTML) spell an apostrophe: the named entity and the usual character references. */
const APOSTROPHES = ['&apos;', '&#39;', '&#x27;', '&#X27;'];

/**
 * The ways a client plausibly sends a secret: as is, lower-cased, URL-, form-, JSON- (`/` as is
 * or as `\/`, which JSON allows and PHP's encoder writes) or XML-escaped (an apostrophe as any
 * of {@link APOSTROPHES}).
 */
export function escapedForms(secret: string): string[] {
  const url = urlForm(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  const xml = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // XML text (a quote is escaped in attributes only) and attributes.
  const xmls = [xml, xml.replace(/"/g, '&quot;')];
  return [
    secret,
    // Header names arrive lower-cased.
    secret.toLowerCase(),
    ...(url === undefined
      ? []
      : [url, url.replace(/%20/g, '+'), url.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase())]),
    // Spaces as a form writes them, the rest as is: how secret-encodings.ts reads a mixed spelling.
    secret.replace(/ /g, '+'),
    json,
    json.replace(/\//g, '\\/'),
    ...xmls,
    // The same forms for a secret without an apostrophe: the Set in patterns() keeps one.
    ...xmls.flatMap((form) => APOSTROPHES.map((apostrophe) => form.replace(/'/g, apostrophe))),
  ];
}

/**
 * The secret URL-encoded; undefined when it has none: `encodeURIComponent` throws on a lone
 * surrogate, and a redactor that throws would stop the journal (a form it cannot build is skipped).
 */
function urlForm(secret: string): string | undefined {
  try {
    return encodeURIComponent(secret);
  } catch {
    // A lone surrogate: no URL form (undefined).
  }
}

/**
 * Up to this many forms, one regular expression tests a string fastest; past it (many servers),
 * V8 tries every alternative at every position, and an index of the forms' first characters
 * keeps the test linear in the string whatever the number of keys.
 */
export const MAX_ALTERNATIVES = 48;
/**
 * Up to this many characters of forms in all, one regular expression; past it, the index. V8
 * refuses a regular expression whose compiled code is too large ("Regular expression too large",
 * thrown at its first use, its message holding the whole source: every key in clear): one key of
 * 9,000 to 25,000 characters was enough (measured on Node 20: from about 50,000 characters of
 * source for letters, 75,000 for non-ASCII text). No real key comes near this bound (a few dozen
 * characters, some twenty forms each).
 */
export const MAX_PATTERN_CHARS = 8_192;

/** What `encodeURIComponent` never escapes, and the escapes decodeEscapes always decodes. */
export const NOT_URL_SAFE = /[^A-Za-z0-9\-_.!~*'()]+/;
/**
 * A shorter run proves too little to be worth a test (and would keep many keys off the index of
 * {@link Anchors}): with one, every string with an escape is read loosely.
 */
export const MIN_RUN = MIN_SECRET_LENGTH;

/** Every form is at least this long (MIN_SECRET_LENGTH; a base64 core of one is longer). */
export const ANCHOR = MIN_SECRET_LENGTH;
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

/** The hash of each `ANCHOR` units of `value`, in order: `calls(hash, start)`. */
function eachAnchor(value: string, calls: (hash: number, start: number) => boolean | undefined) {
  // Stryker disable next-line ConditionalExpression: a shorter string hashes its missing units as NaN, and no form fits in it
  if (value.length < ANCHOR) return;
  let hash = anchorHash(value, 0);
  for (let start = 0; ; start += 1) {
    if (calls(hash, start) === true) return;
    const next = start + ANCHOR;
    // Stryker disable next-line EqualityOperator: one place more hashes a missing unit, and no form fits there
    if (next >= value.length) return;
    const out = Math.imul(value.charCodeAt(start), TOP);
    hash = (Math.imul(hash - out, BASE) + value.charCodeAt(next)) | 0;
  }
}

/** Up to this many forms may share an anchor before another place in a form is tried. */
const FEW_SHARING = 4;

/**
 * For each form, the first index at which it differs from every other form: one past the longest
 * prefix it shares with its neighbours in sorted order (the forms sharing the most with it).
 */
function whereEachDiffers(forms: readonly string[]): Map<string, number> {
  const sorted = [...forms].sort();
  const shared = (a: string | undefined, b: string) => {
    if (a === undefined) return 0;
    let index = 0;
    // Past the end of either, charCodeAt is NaN, which equals nothing: the loop ends there.
    while (a.charCodeAt(index) === b.charCodeAt(index)) index += 1;
    return index;
  };
  const differs = new Map<string, number>();
  sorted.forEach((form, index) => {
    differs.set(form, Math.max(shared(sorted[index - 1], form), shared(sorted[index + 1], form)));
  });
  return differs;
}

/** A form, and where in it the characters it is indexed by start. */
interface Anchored {
  readonly form: string;
  readonly offset: number;
}

/**
 * Forms indexed by `ANCHOR` of their characters, chosen where each differs from the others: one
 * pass over a string tests them all, and at each place it looks only at the forms anchored by the
 * characters found there. An index of the forms' first characters was not enough: keys that share
 * a prefix (`tenant-key-1`, `tenant-key-2`...) all sat under one entry, and a string of that
 * prefix repeated was compared with every key at every place, a second or more per request with
 * a few hundred servers, from one anonymous request.
 */
export class Anchors {
  private readonly byHash = new Map<number, Anchored[]>();
  /** Where each form is filed, to take it out again. */
  private readonly filed = new Map<string, { hash: number; anchored: Anchored }>();
  /**
   * Forms shorter than `ANCHOR` (a short key verify must hide among others), which no anchor
   * holds: each is looked for by a scan of its own. There are never more than a few.
   */
  private readonly short = new Set<string>();
  /** Forms compared with a string so far: the work the index saves, which tests bound. */
  comparisons = 0;

  /** The index of `forms` at once: each anchored where it differs from its nearest neighbours. */
  constructor(forms: readonly string[] = []) {
    const anchored = forms.filter((form) => form.length >= ANCHOR);
    for (const form of forms) if (form.length < ANCHOR) this.short.add(form);
    const differs = whereEachDiffers(anchored);
    for (const form of anchored) this.file(form, differs.get(form)!);
  }

  /** Files one more form (a new key's), anchored at the emptiest of a few of its places. */
  add(form: string): void {
    if (form.length < ANCHOR) this.short.add(form);
    else if (!this.filed.has(form)) this.file(form, form.length - ANCHOR);
  }

  /** Takes a form out (a key that went). */
  remove(form: string): void {
    if (this.short.delete(form)) return;
    const filed = this.filed.get(form);
    if (!filed) return;
    this.filed.delete(form);
    const same = this.byHash.get(filed.hash)!;
    same.splice(same.indexOf(filed.anchored), 1);
    if (same.length === 0) this.byHash.delete(filed.hash);
  }

  private file(form: string, differs: number): void {
    const last = form.length - ANCHOR;
    // Where it differs from the forms nearest to it first; else, the emptiest of a few places.
    const places = [Math.min(differs, last), last, 0, last >> 1, last >> 2];
    let best = { hash: 0, offset: 0, shared: Number.POSITIVE_INFINITY };
    for (const offset of places) {
      const hash = anchorHash(form, offset);
      const shared = this.byHash.get(hash)?.length ?? 0;
      if (shared < best.shared) best = { hash, offset, shared };
      if (shared < FEW_SHARING) break;
    }
    const anchored = { form, offset: best.offset };
    const same = this.byHash.get(best.hash);
    if (same) same.push(anchored);
    else this.byHash.set(best.hash, [anchored]);
    this.filed.set(form, { hash: best.hash, anchored });
  }

  /** Whether any form is anywhere in `value`. */
  test(value: string): boolean {
    for (const form of this.short) if (value.includes(form)) return true;
    let found = false;
    eachAnchor(value, (hash, at) => {
      found = this.byHash.get(hash)?.some((one) => this.startsAt(value, one, at)) ?? false;
      return found;
    });
    return found;
  }

  /**
   * Every place a form is in `value`, as `[start, end]` pairs ordered as a regular expression of
   * the forms (longest first) would meet them: by start, the longest first at one start.
   */
  matches(value: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    eachAnchor(value, (hash, at) => {
      // Stryker disable next-line ArrayDeclaration: a string's characters are no forms; startsAt refuses them
      for (const one of this.byHash.get(hash) ?? []) {
        if (this.startsAt(value, one, at)) {
          found.push([at - one.offset, at - one.offset + one.form.length]);
        }
      }
      return undefined;
    });
    for (const form of this.short) {
      for (let at = value.indexOf(form); at !== -1; at = value.indexOf(form, at + 1)) {
        found.push([at, at + form.length]);
      }
    }
    return found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  }

  /** Whether `value` holds the form where its anchor is found at `at`. */
  private startsAt(value: string, { form, offset }: Anchored, at: number): boolean {
    this.comparisons += 1;
    return at >= offset && value.startsWith(form, at - offset);
  }
}

/**
 * Every form replaced by `<redacted>`; a form found inside base64 takes the whole base64 run with
 * it, as the characters around it encode parts of the secret too. Linear: one pass of the
 * regular expression, and each run is widened by a scan.
 */
export function replaceAll(value: string, patterns: Patterns): string {
  return replaceSpans(value, findSpans(value, patterns));
}

/**
 * Where {@link replaceAll} would put `<redacted>`: start and end of each span, in order, as one
 * flat list (`[start, end, start, end, ...]`).
 */
export function findSpans(value: string, { each, base64 }: Patterns): number[] {
  if (each instanceof Anchors) return anchoredSpans(value, each, base64);
  const spans: number[] = [];
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
    spans.push(start, end);
    copied = end;
  }
  return spans;
}

/**
 * {@link findSpans} by the index: its matches taken as the regular expression would take them
 * (the first by start, the longest there; none that starts inside a span taken).
 */
function anchoredSpans(value: string, anchors: Anchors, base64: Patterns['base64']): number[] {
  const spans: number[] = [];
  let copied = 0;
  for (const [from, to] of anchors.matches(value)) {
    if (from < copied) continue;
    let start = from;
    let end = to;
    if (base64.has(value.slice(from, to))) {
      while (start > copied && BASE64_CHAR.test(value[start - 1]!)) start -= 1;
      while (end < value.length && BASE64_END.test(value[end]!)) end += 1;
    }
    spans.push(start, end);
    copied = end;
  }
  return spans;
}

/** `value` with each span of {@link findSpans}'s list replaced by `<redacted>`. */
export function replaceSpans(value: string, spans: readonly number[]): string {
  let result = '';
  let copied = 0;
  for (let index = 0; index < spans.length; index += 2) {
    result += value.slice(copied, spans[index]) + REDACTED;
    copied = spans[index + 1]!;
  }
  return result + value.slice(copied);
}
