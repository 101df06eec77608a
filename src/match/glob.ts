/**
 * Path globs for fault rules, journal filters, waits and HAR exports, matched in linear time.
 *
 * A glob compiled to a regular expression backtracks: `/a*a*a*a*b` against a long path takes
 * seconds, and a few more stars take forever. Here a glob is split at `/` into segment patterns,
 * each segment pattern into the pieces between its stars, and every piece is placed at the
 * leftmost position where it fits, never moved again: placing a piece as early as possible leaves
 * the most room for the next, so this finds a match whenever one exists. The same holds one level
 * up, for `**` between whole segments. Each leftmost place is found in one pass (indexOf for plain
 * text, Shift-And otherwise), so the work is about the path's length times the glob's length over
 * 32, whatever the number of stars: a millisecond or so at the limits (16 KiB, 256 characters).
 *
 * Syntax: `*` matches any run of characters within one segment (a segment that is only stars
 * needs at least one), `**` as a whole segment matches any number of segments (none included),
 * `?` one character, `[abc]`, `[a-z]`, `[!a]` (or `[^a]`) one character of a set, `{a,b}` either
 * alternative, `\` makes the next character literal. This file imports nothing, so that a test can
 * run it alone in a worker and stop it if it ever hangs.
 */

/** The longest glob accepted, in characters: our routes' globs are a few dozen. */
export const MAX_GLOB_LENGTH = 256;
/** The most alternatives that `{...}` in one glob may expand to. */
export const MAX_GLOB_ALTERNATIVES = 32;

type Token = string | ((char: string) => boolean);
/** A run of tokens between stars; `text` is set when every token is a literal character. */
interface Piece {
  readonly tokens: readonly Token[];
  readonly text: string | undefined;
  /** For a piece with `?` or `[...]`: which of its tokens accept a character, by character. */
  readonly masks: Map<string, Uint32Array>;
}
/** Segment patterns between two `**` (or an end), each pattern tested once per distinct segment. */
interface Group {
  readonly patterns: readonly Segment[];
  /** Each distinct pattern, with the positions in `patterns` where it stands. */
  readonly distinct: readonly { readonly pattern: Segment; readonly bits: Uint32Array }[];
  /** Which patterns accept a path segment, by segment. */
  readonly masks: Map<string, Uint32Array>;
}
/**
 * Masks kept per piece or group, then cleared: more than the characters a path on the wire can
 * hold (its bytes), so per-character masks are each made once; a hostile path cannot grow this.
 */
const MAX_MASKS = 512;
/** Pieces separated by stars: one piece when the segment has no star. */
type Segment = readonly Piece[];
const GLOBSTAR = '**';

/** Tests a whole path (starting with `/`, no query string) against a compiled glob. */
export type GlobMatcher = (path: string) => boolean;

/** What is wrong with a glob (too long, too many alternatives), or undefined when it is usable. */
export function globProblem(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH) {
    return `is ${glob.length} characters long; a glob may have at most ${MAX_GLOB_LENGTH}.`;
  }
  if (expand(glob, MAX_GLOB_ALTERNATIVES + 1).length > MAX_GLOB_ALTERNATIVES) {
    return `expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives with {...}.`;
  }
  return undefined;
}

/** Compiles a glob that {@link globProblem} accepts. */
export function compileGlob(glob: string): GlobMatcher {
  const alternatives = expand(glob, MAX_GLOB_ALTERNATIVES).map(compileGroups);
  if (alternatives.length === 1) {
    const [only] = alternatives as [Group[]];
    // A cheap first test, as a glob is tried against every entry and on every request: what comes
    // before the last `/` ahead of the first special character is in every path that matches.
    const special = glob.search(/[*?[{\\]/);
    const prefix = special === -1 ? '' : glob.slice(0, glob.lastIndexOf('/', special));
    return (path) => path.startsWith(prefix) && matchGroups(only, path.split('/'));
  }
  return (path) => {
    const segments = path.split('/');
    return alternatives.some((groups) => matchGroups(groups, segments));
  };
}

/** `{a,b}` expanded into whole globs, outermost first; stops once past `limit`. */
function expand(glob: string, limit: number): string[] {
  const brace = findBrace(glob);
  if (!brace) return [glob];
  const { start, end, commas } = brace;
  const results: string[] = [];
  let from = start + 1;
  for (const comma of [...commas, end]) {
    const candidate = glob.slice(0, start) + glob.slice(from, comma) + glob.slice(end + 1);
    for (const one of expand(candidate, limit - results.length)) {
      results.push(one);
      if (results.length >= limit) return results;
    }
    from = comma + 1;
  }
  return results;
}

/** The first `{...}` with a top-level comma; braces without one stay literal. */
function findBrace(glob: string): { start: number; end: number; commas: number[] } | undefined {
  const open: { start: number; commas: number[] }[] = [];
  for (let i = 0; i < glob.length; i += 1) {
    const char = glob[i];
    if (char === '\\') i += 1;
    else if (char === '{') open.push({ start: i, commas: [] });
    else if (char === ',' && open.length > 0) open[open.length - 1]?.commas.push(i);
    else if (char === '}' && open.length > 0) {
      const brace = open.pop() as { start: number; commas: number[] };
      if (open.length === 0 && brace.commas.length > 0) return { ...brace, end: i };
    }
  }
  return undefined;
}

/** The glob's segment patterns, split at each `**`: one group when there is none. */
function compileGroups(glob: string): Group[] {
  const sources: string[][] = [[]];
  for (const text of splitUnescaped(glob, '/')) {
    if (text === GLOBSTAR) sources.push([]);
    else sources[sources.length - 1]?.push(text);
  }
  return sources.map((texts) => {
    const distinct = new Map<string, { pattern: Segment; bits: Uint32Array }>();
    const patterns = texts.map((text, index) => {
      let one = distinct.get(text);
      if (!one) {
        one = { pattern: segment(text), bits: new Uint32Array(wordsFor(texts.length)) };
        distinct.set(text, one);
      }
      setBit(one.bits, index);
      return one.pattern;
    });
    return { patterns, distinct: [...distinct.values()], masks: new Map() };
  });
}

const wordsFor = (length: number) => (length + 31) >>> 5;
const setBit = (bits: Uint32Array, index: number) => {
  bits[index >>> 5] = (bits[index >>> 5] as number) | (1 << (index & 31));
};

function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === separator) {
      parts.push(text.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts;
}

function segment(text: string): Segment {
  const pieces: Token[][] = [[]];
  let afterStar = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    const current = pieces[pieces.length - 1] as Token[];
    const star = char === '*';
    if (star) {
      // A run of stars is one star.
      if (!afterStar) pieces.push([]);
    } else if (char === '?') {
      current.push(anyChar);
    } else if (char === '\\' && i + 1 < text.length) {
      i += 1;
      current.push(text[i] as string);
    } else if (char === '[') {
      const end = text.indexOf(']', i + 2);
      if (end === -1) current.push(char);
      else {
        current.push(charClass(text.slice(i + 1, end)));
        i = end;
      }
    } else {
      current.push(char);
    }
    afterStar = star;
  }
  return pieces.map((tokens) => ({
    tokens,
    text: tokens.every((token) => typeof token === 'string') ? tokens.join('') : undefined,
    masks: new Map(),
  }));
}

function anyChar(): boolean {
  return true;
}

/** `abc`, `a-z`, with `!` or `^` first to negate. */
function charClass(body: string): (char: string) => boolean {
  const negated = body[0] === '!' || body[0] === '^';
  const set = negated ? body.slice(1) : body;
  const ranges: [string, string][] = [];
  for (let i = 0; i < set.length; i += 1) {
    const low = set[i] as string;
    if (set[i + 1] === '-' && i + 2 < set.length) {
      ranges.push([low, set[i + 2] as string]);
      i += 2;
    } else {
      ranges.push([low, low]);
    }
  }
  return (char) => ranges.some(([low, high]) => char >= low && char <= high) !== negated;
}

/** Groups against path segments: the first at the start, the last at the end, others leftmost. */
function matchGroups(groups: readonly Group[], segments: readonly string[]): boolean {
  const first = groups[0] as Group;
  if (groups.length === 1) {
    return first.patterns.length === segments.length && matchGroupAt(first, segments, 0);
  }
  const last = groups[groups.length - 1] as Group;
  const lastStart = segments.length - last.patterns.length;
  if (lastStart < first.patterns.length) return false;
  if (!matchGroupAt(first, segments, 0) || !matchGroupAt(last, segments, lastStart)) return false;
  let position = first.patterns.length;
  for (let index = 1; index < groups.length - 1; index += 1) {
    const group = groups[index] as Group;
    const found = shiftAnd(group.patterns.length, position, lastStart, (at) =>
      groupMask(group, segments[at] as string),
    );
    if (found === -1) return false;
    position = found + group.patterns.length;
  }
  return true;
}

function matchGroupAt(group: Group, segments: readonly string[], at: number): boolean {
  return group.patterns.every((pattern, index) =>
    matchSegment(pattern, segments[at + index] as string),
  );
}

function groupMask(group: Group, text: string): Uint32Array {
  return cached(group.masks, text, () => {
    const mask = new Uint32Array(wordsFor(group.patterns.length));
    for (const { pattern, bits } of group.distinct) {
      if (!matchSegment(pattern, text)) continue;
      bits.forEach((word, index) => {
        mask[index] = (mask[index] as number) | word;
      });
    }
    return mask;
  });
}

/** One segment: the first piece at the start, the last at the end, the others leftmost between. */
function matchSegment(pieces: Segment, text: string): boolean {
  const first = pieces[0] as Piece;
  if (pieces.length === 1) {
    return first.tokens.length === text.length && pieceAt(first, text, 0);
  }
  const last = pieces[pieces.length - 1] as Piece;
  const end = text.length - last.tokens.length;
  if (end < first.tokens.length) return false;
  // A segment of stars only stands for a segment, never for nothing (`/lists/*` is not `/lists/`).
  if (text.length === 0) return false;
  if (!pieceAt(first, text, 0) || !pieceAt(last, text, end)) return false;
  let position = first.tokens.length;
  for (let index = 1; index < pieces.length - 1; index += 1) {
    const piece = pieces[index] as Piece;
    const found = find(piece, text, position, end);
    if (found === -1) return false;
    position = found + piece.tokens.length;
  }
  return true;
}

/** The leftmost place in `text[from, to)` where the piece fits whole, or -1. */
function find(piece: Piece, text: string, from: number, to: number): number {
  const length = piece.tokens.length;
  if (piece.text !== undefined) {
    const found = text.indexOf(piece.text, from);
    return found !== -1 && found + length <= to ? found : -1;
  }
  return shiftAnd(length, from, to, (at) => pieceMask(piece, text[at] as string));
}

/**
 * The leftmost place in `[from, to)` where a run of `length` patterns matches, by Shift-And: bit i
 * of `state` says the first i + 1 patterns match the items ending here, and `maskAt` says which
 * patterns accept an item. One pass, a few words per item, however long the run: trying each
 * start in turn would cost the items times the run's length.
 */
function shiftAnd(
  length: number,
  from: number,
  to: number,
  maskAt: (at: number) => Uint32Array,
): number {
  if (length === 0) return from <= to ? from : -1;
  const words = wordsFor(length);
  const lastWord = (length - 1) >>> 5;
  const lastBit = 1 << ((length - 1) & 31);
  const state = new Uint32Array(words);
  for (let at = from; at < to; at += 1) {
    const mask = maskAt(at);
    let carry = 1;
    for (let word = 0; word < words; word += 1) {
      const value = state[word] as number;
      state[word] = ((value << 1) | carry) & (mask[word] as number);
      carry = value >>> 31;
    }
    if ((state[lastWord] as number) & lastBit) return at - length + 1;
  }
  return -1;
}

function pieceMask(piece: Piece, char: string): Uint32Array {
  return cached(piece.masks, char, () => {
    const mask = new Uint32Array(wordsFor(piece.tokens.length));
    piece.tokens.forEach((token, index) => {
      if (typeof token === 'string' ? token === char : token(char)) setBit(mask, index);
    });
    return mask;
  });
}

function cached(masks: Map<string, Uint32Array>, key: string, make: () => Uint32Array) {
  let mask = masks.get(key);
  if (!mask) {
    mask = make();
    if (masks.size >= MAX_MASKS) masks.clear();
    masks.set(key, mask);
  }
  return mask;
}

function pieceAt(piece: Piece, text: string, at: number): boolean {
  if (piece.text !== undefined) return text.startsWith(piece.text, at);
  return piece.tokens.every((token, index) => {
    const char = text[at + index];
    if (char === undefined) return false;
    return typeof token === 'string' ? token === char : token(char);
  });
}
