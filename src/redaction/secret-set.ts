/**
 * The secrets to take out of what the journal records, kept up to date one secret at a time: a new
 * server's key adds its forms, a removed one takes them out, and nothing else is rebuilt. A fake
 * with thousands of tenants made and closed in a parallel suite then pays for each key once, where
 * compiling every key again on each change cost time in the number of keys (137 ms with 1,000), on
 * the first request after every tenant's creation or close.
 */
import {
  Anchors,
  asWire,
  base64Cores,
  type Compiled,
  escapedForms,
  escapeRegExp,
  MAX_ALTERNATIVES,
  MAX_PATTERN_CHARS,
  MIN_RUN,
  MIN_SECRET_LENGTH,
  NOT_URL_SAFE,
  type Patterns,
} from './secret-forms.js';

/** What one secret adds: computed once, taken out again as it was put in. */
interface SecretForms {
  readonly text: readonly string[];
  readonly wire: readonly string[];
  /** Its base64 cores long enough to search for. */
  readonly base64: readonly string[];
  /** The longest run of URL-safe characters of the secret and of each core (Patterns.mixed). */
  readonly runs: readonly string[];
  readonly plus: boolean;
  readonly longest: number;
}

function formsOf(secret: string): SecretForms {
  const text = escapedForms(secret);
  const wire = text.map(asWire);
  const base64 = base64Cores(secret).filter((core) => core.length >= MIN_SECRET_LENGTH);
  const runs = [secret, ...base64].map((form) =>
    form
      .split(NOT_URL_SAFE)
      .reduce((longest, run) => (run.length > longest.length ? run : longest)),
  );
  const longest = Math.max(
    ...wire.map((form) => form.length),
    ...base64.map((form) => form.length),
  );
  return { text, wire, base64, runs, plus: secret.includes('+'), longest };
}

/** A multiset of strings: added as often as removed before it goes. */
class Counted {
  readonly counts = new Map<string, number>();

  /** True when `value` is new. */
  add(value: string): boolean {
    const count = this.counts.get(value) ?? 0;
    this.counts.set(value, count + 1);
    return count === 0;
  }

  /** True when `value` is gone. */
  remove(value: string): boolean {
    const count = this.counts.get(value);
    if (count === undefined) return false;
    if (count > 1) {
      this.counts.set(value, count - 1);
      return false;
    }
    this.counts.delete(value);
    return true;
  }
}

/**
 * Strings to find, anywhere: up to {@link MAX_ALTERNATIVES} of them, {@link MAX_PATTERN_CHARS}
 * characters in all, one regular expression (the fastest test for a few, rebuilt when they
 * change); past either, the index of {@link Anchors}, which takes one string in or out at a time,
 * keeps a test linear in the value whatever their number, and has no bound on their length (a
 * regular expression of a very long key is one V8 refuses).
 */
class Finder {
  private readonly strings = new Counted();
  private anchors: Anchors | undefined;
  /** Characters of the strings held. */
  private chars = 0;
  private regex: { any: RegExp; each: RegExp } | undefined;

  add(value: string): void {
    if (!this.strings.add(value)) return;
    this.chars += value.length;
    this.regex = undefined;
    this.anchors?.add(value);
  }

  remove(value: string): void {
    if (!this.strings.remove(value)) return;
    this.chars -= value.length;
    this.regex = undefined;
    this.anchors?.remove(value);
  }

  get size(): number {
    return this.strings.counts.size;
  }

  /** The test and the finder of every place, as Patterns takes them. */
  finders(): { any: RegExp | Anchors; each: RegExp | Anchors } {
    if (!this.anchors && (this.size > MAX_ALTERNATIVES || this.chars > MAX_PATTERN_CHARS)) {
      this.anchors = new Anchors([...this.strings.counts.keys()]);
    }
    if (this.anchors) return { any: this.anchors, each: this.anchors };
    if (!this.regex) {
      // Longest first: at one start, a regular expression takes the first alternative that fits.
      const sorted = [...this.strings.counts.keys()].sort((a, b) => b.length - a.length);
      const source = sorted.map(escapeRegExp).join('|');
      this.regex = { any: new RegExp(source), each: new RegExp(source, 'g') };
    }
    return this.regex;
  }
}

/** Every secret's forms, updated to a new list of secrets by what changed. */
export class SecretSet {
  private readonly bySecret = new Map<string, SecretForms>();
  private readonly text = new Finder();
  private readonly wire = new Finder();
  private readonly base64 = new Counted();
  private readonly runs = new Finder();
  private shortRuns = 0;
  private pluses = 0;
  private longest = 0;
  private readonly minLength: number;
  /** Secrets whose forms were computed so far: the work an update does, which tests bound. */
  computed = 0;

  /** `minLength`: secrets shorter than this are left alone (see {@link MIN_SECRET_LENGTH}). */
  constructor(minLength = MIN_SECRET_LENGTH) {
    this.minLength = Math.max(1, minLength);
  }

  /**
   * The forms of exactly `secrets` (those long enough), compiled; undefined when there are none.
   * Only the secrets that came or went since the last call change anything.
   */
  update(secrets: Iterable<string>): Compiled | undefined {
    const wanted = new Set<string>();
    for (const secret of secrets) if (secret.length >= this.minLength) wanted.add(secret);
    for (const secret of this.bySecret.keys()) if (!wanted.has(secret)) this.remove(secret);
    for (const secret of wanted) if (!this.bySecret.has(secret)) this.add(secret);
    return this.compiled();
  }

  /**
   * Applies changes one by one (a key that came or went), and answers the forms compiled: the
   * work is in the changes, whatever the number of secrets held.
   */
  apply(
    changes: Iterable<{ readonly key: string; readonly added: boolean }>,
  ): Compiled | undefined {
    for (const { key, added } of changes) {
      if (key.length < this.minLength) continue;
      if (added && !this.bySecret.has(key)) this.add(key);
      else if (!added && this.bySecret.has(key)) this.remove(key);
    }
    return this.compiled();
  }

  private add(secret: string): void {
    const forms = formsOf(secret);
    this.computed += 1;
    this.bySecret.set(secret, forms);
    for (const form of forms.text) this.text.add(form);
    for (const form of forms.wire) this.wire.add(form);
    for (const core of forms.base64) {
      this.base64.add(core);
      this.text.add(core);
      this.wire.add(core);
    }
    for (const run of forms.runs) {
      if (run.length < MIN_RUN) this.shortRuns += 1;
      else this.runs.add(run);
    }
    if (forms.plus) this.pluses += 1;
    // Never lowered when a secret goes: a bound that is a little long only scans a little more.
    this.longest = Math.max(this.longest, forms.longest);
  }

  private remove(secret: string): void {
    const forms = this.bySecret.get(secret)!;
    this.bySecret.delete(secret);
    for (const form of forms.text) this.text.remove(form);
    for (const form of forms.wire) this.wire.remove(form);
    for (const core of forms.base64) {
      this.base64.remove(core);
      this.text.remove(core);
      this.wire.remove(core);
    }
    for (const run of forms.runs) {
      if (run.length < MIN_RUN) this.shortRuns -= 1;
      else this.runs.remove(run);
    }
    if (forms.plus) this.pluses -= 1;
  }

  private compiled(): Compiled | undefined {
    if (this.bySecret.size === 0) return undefined;
    // A view, not a copy: building a Set of every core on each change would cost in their number.
    const base64 = this.base64.counts;
    const mixes = {
      plus: this.pluses > 0,
      // A test finds any run whatever their order (only replacing needs the longest first).
      mixed: this.shortRuns > 0 ? { test: () => true } : this.runs.finders().any,
    };
    const patterns = (finder: Finder): Patterns => ({ ...finder.finders(), base64, ...mixes });
    return { text: patterns(this.text), wire: patterns(this.wire), longest: this.longest };
  }
}

/**
 * The forms of the secrets long enough to search for; undefined when there are none. `minLength`
 * lowers the bar for one secret the caller must hide whatever its length (verify's key, in its
 * own report); base64 runs shorter than MIN_SECRET_LENGTH are never searched for (they would
 * match any base64).
 */
export function compileSecrets(
  source: Iterable<string>,
  minLength = MIN_SECRET_LENGTH,
): Compiled | undefined {
  return new SecretSet(minLength).update(source);
}
