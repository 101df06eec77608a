// Matching requests: the one way a fault rule, a journal filter and a wait say which requests
// they mean (method, path glob, server, operation), compiled once (glob.ts matches path globs in
// linear time, whatever the pattern).
import { PUBLIC_PREFIX } from '../paths.js';
import { compileGlob, globProblem } from './glob.js';

/** The largest server id a Basic username of 1 to 9 digits can name. */
const MAX_MATCHED_ID = 999_999_999;

/** Which requests a fault rule or a journal filter applies to; every part is optional. */
export interface RequestMatch {
  /** HTTP method, any case. */
  method?: string;
  /**
   * A glob on the path after `/marketing/v1` (or `/marketing/beta`), e.g. `/lists/*\/contacts`;
   * a glob that starts with `/marketing/` is matched against the whole path instead.
   */
  path?: string;
  /** The Basic-auth username (server id). */
  serverId?: number;
}

/**
 * The username of a `Basic` Authorization header, decoded, without checking anything else; the
 * key after the colon is never returned. Undefined for other schemes and malformed headers.
 */
export function basicUsername(authorization: string | undefined): string | undefined {
  if (typeof authorization !== 'string' || authorization.slice(0, 6).toLowerCase() !== 'basic ') {
    return undefined;
  }
  const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}

/**
 * The server id a Basic Authorization header claims (its username, when it is a number of 1 to 9
 * digits), without checking the key: any number, not only valid server ids, since a fault rule
 * may target a username the fake does not know, and the journal shows what was claimed.
 */
export function claimedServerId(authorization: string | undefined): number | undefined {
  const username = basicUsername(authorization);
  return username !== undefined && /^\d{1,9}$/.test(username) ? Number(username) : undefined;
}

/** What matching needs to know of a request. */
export interface RequestFacts {
  readonly method: string;
  /** The whole path, without the query string. */
  readonly path: string;
  readonly serverId?: number | undefined;
}

const VERSIONS = ['/marketing/v1', '/marketing/beta'];

/** The path as fault rules see it: after `/marketing/v1` or `/marketing/beta`. */
export function apiPath(path: string): string {
  // String tests, not a regular expression: this runs for every rule or wait, on every request.
  for (const prefix of VERSIONS) {
    if (path.startsWith(prefix) && (path.length === prefix.length || path[prefix.length] === '/')) {
      return path.length === prefix.length ? '/' : path.slice(prefix.length);
    }
  }
  return path || '/';
}

export type Matcher = (request: RequestFacts) => boolean;

/** Compiles a match once; see `glob.ts` for the glob syntax (`*` within a segment, `**` spans). */
export function compileMatch(match: RequestMatch | undefined): Matcher {
  if (!match) return () => true;
  const method = match.method?.toUpperCase();
  const { serverId } = match;
  const glob = match.path;
  const whole = glob?.startsWith(PUBLIC_PREFIX) ?? false;
  const isMatch = glob === undefined ? undefined : compileGlob(glob);
  return (request) => {
    if (method !== undefined && request.method !== method) return false;
    if (serverId !== undefined && request.serverId !== serverId) return false;
    if (!isMatch) return true;
    const path = whole ? request.path : apiPath(request.path);
    // `/lists/` and `/lists` are the same route, so they match the same globs.
    return isMatch(path) || (path.length > 1 && path.endsWith('/') && isMatch(path.slice(0, -1)));
  };
}

/** Checks `{ method?, path?, serverId? }`; shared by fault rules and journal filters. */
export function parseRequestMatch(
  input: Record<string, unknown>,
  where: string,
  fail: (message: string) => never,
): RequestMatch {
  const match: RequestMatch = {};
  const { method, path, serverId } = input;
  if (method !== undefined) {
    if (typeof method !== 'string' || !/^[A-Za-z]+$/.test(method))
      fail(`${where}method must be an HTTP method such as "GET".`);
    match.method = method.toUpperCase();
  }
  if (path !== undefined) {
    if (typeof path !== 'string' || !path.startsWith('/')) {
      fail(`${where}path must be a glob that starts with "/", such as "/lists/*/contacts".`);
    }
    const problem = globProblem(path);
    if (problem !== undefined) fail(`${where}path ${problem}`);
    match.path = path;
  }
  if (serverId !== undefined) {
    // The Basic username is matched when it is 1 to 9 digits (a fault may target a server the
    // fake does not hold): any other number could never match.
    if (
      !Number.isInteger(serverId) ||
      (serverId as number) < 0 ||
      (serverId as number) > MAX_MATCHED_ID
    ) {
      fail(`${where}serverId must be a whole number from 0 to ${MAX_MATCHED_ID}.`);
    }
    match.serverId = serverId as number;
  }
  return match;
}
