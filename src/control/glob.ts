/**
 * Path globs for fault rules, journal filters, waits and HAR exports, matched in linear time.
 *
 * A glob compiled to a regular expression backtracks: `/a*a*a*a*b` against a long path takes
 * seconds, and a few more stars take forever. Here a glob is split at `/` into segment patterns,
 * each segment pattern into the pieces between its stars, and every piece is placed at the
 * leftmost position where it fits, never moved again: placing a piece as early as possible leaves
 * the most room for the next, so this finds a match whenever one exists. The same holds one level
 * up, for `**` between whole segments. The work is bounded by the path's length times the length
 * of the longest piece, whatever the number of stars.
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
}
/** Pieces separated by stars: one piece when the segment has no star. */
type Segment = readonly Piece[];
const GLOBSTAR = '**';
type Part = Segment | typeof GLOBSTAR;

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
  const alternatives = expand(glob, MAX_GLOB_ALTERNATIVES).map(compileParts);
  if (alternatives.length === 1) {
    const [only] = alternatives as [Part[]];
    // A cheap first test, as a glob is tried against every entry and on every request: what comes
    // before the last `/` ahead of the first special character is in every path that matches.
    const special = glob.search(/[*?[{\\]/);
    const prefix = special === -1 ? '' : glob.slice(0, glob.lastIndexOf('/', special));
    return (path) => path.startsWith(prefix) && matchParts(only, path.split('/'));
  }
  return (path) => {
    const segments = path.split('/');
    return alternatives.some((parts) => matchParts(parts, segments));
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

function compileParts(glob: string): Part[] {
  return splitUnescaped(glob, '/').map((text) => (text === GLOBSTAR ? GLOBSTAR : segment(text)));
}

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

/** Glob parts against path segments: groups between `**` placed leftmost, the last at the end. */
function matchParts(parts: readonly Part[], segments: readonly string[]): boolean {
  const groups: Segment[][] = [[]];
  for (const part of parts) {
    if (part === GLOBSTAR) groups.push([]);
    else (groups[groups.length - 1] as Segment[]).push(part);
  }
  const first = groups[0] as Segment[];
  if (groups.length === 1) {
    return first.length === segments.length && matchGroupAt(first, segments, 0);
  }
  const last = groups[groups.length - 1] as Segment[];
  const lastStart = segments.length - last.length;
  if (lastStart < first.length) return false;
  if (!matchGroupAt(first, segments, 0) || !matchGroupAt(last, segments, lastStart)) return false;
  let position = first.length;
  for (const group of groups.slice(1, -1)) {
    let found = -1;
    for (let at = position; at + group.length <= lastStart; at += 1) {
      if (matchGroupAt(group, segments, at)) {
        found = at;
        break;
      }
    }
    if (found === -1) return false;
    position = found + group.length;
  }
  return true;
}

function matchGroupAt(group: readonly Segment[], segments: readonly string[], at: number): boolean {
  return group.every((pattern, index) => matchSegment(pattern, segments[at + index] as string));
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
  for (let at = from; at + length <= to; at += 1) {
    if (pieceAt(piece, text, at)) return at;
  }
  return -1;
}

function pieceAt(piece: Piece, text: string, at: number): boolean {
  if (piece.text !== undefined) return text.startsWith(piece.text, at);
  return piece.tokens.every((token, index) => {
    const char = text[at + index];
    if (char === undefined) return false;
    return typeof token === 'string' ? token === char : token(char);
  });
}
