import picomatch from 'picomatch';

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

/** What matching needs to know of a request. */
export interface RequestFacts {
  readonly method: string;
  /** The whole path, without the query string. */
  readonly path: string;
  readonly serverId: number | undefined;
}

const VERSION_PREFIX = /^\/marketing\/(?:v1|beta)(?=\/|$)/;

/** The path as fault rules see it: after `/marketing/v1` or `/marketing/beta`. */
export function apiPath(path: string): string {
  return path.replace(VERSION_PREFIX, '') || '/';
}

export type Matcher = (request: RequestFacts) => boolean;

/** Compiles a match once; globs go through picomatch (`*` stays within one segment, `**` spans). */
export function compileMatch(match: RequestMatch | undefined): Matcher {
  if (!match) return () => true;
  const method = match.method?.toUpperCase();
  const { serverId } = match;
  const glob = match.path;
  const whole = glob?.startsWith('/marketing/') ?? false;
  const isMatch = glob === undefined ? undefined : picomatch(glob, { dot: true });
  return (request) => {
    if (method !== undefined && request.method !== method) return false;
    if (serverId !== undefined && request.serverId !== serverId) return false;
    if (!isMatch) return true;
    const path = whole ? request.path : apiPath(request.path);
    // `/lists/` and `/lists` are the same route, so they match the same globs.
    return isMatch(path) || (path.length > 1 && path.endsWith('/') && isMatch(path.slice(0, -1)));
  };
}
