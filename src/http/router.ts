import type { PathParam, Route } from './route.js';

/** What the table says of a method and a path. */
export type Lookup =
  | { readonly route: Route; readonly params: Readonly<Record<string, unknown>> }
  /** The path has routes, none for this method. */
  | { readonly allow: string }
  /** A route matches, but a parameter is not of its kind (`/lists/abc/contacts`). */
  | { readonly route: Route; readonly badParam: { readonly name: string; readonly text: string } }
  | undefined;

interface Shape {
  readonly pattern: RegExp;
  readonly byMethod: Map<string, Route>;
  readonly allow: string;
}

/** The parameter texts of a path without parameters. */
const NO_TEXTS: readonly string[] = [];

const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/**
 * The route table compiled once per process: a map for paths without parameters, and one pattern
 * per parametric path shape. Routes that differ only in parameter names (`/customfields/:name`
 * and `/customfields/:customFieldNameId`) are one shape, so `Allow` lists both methods.
 */
export class Router {
  private readonly fixed = new Map<string, Shape>();
  private readonly parametric: Shape[] = [];
  private readonly paramNames = new Map<Route, readonly string[]>();
  /** The answer for each route without parameters, made once: looked up on every request. */
  private readonly plain = new Map<Route, Lookup>();

  constructor(routes: readonly Route[]) {
    const shapes = new Map<string, { byMethod: Map<string, Route> }>();
    for (const route of routes) {
      const source = route.path
        .split('/')
        .map((part) => (part.startsWith(':') ? '([^/]+)' : part.replace(ESCAPE, '\\$&')))
        .join('/');
      const shape = shapes.get(source) ?? { byMethod: new Map() };
      if (shape.byMethod.has(route.method)) {
        throw new Error(`Two routes for ${route.method} ${route.path}`);
      }
      shape.byMethod.set(route.method, route);
      shapes.set(source, shape);
      this.paramNames.set(route, route.path.match(/:\w+/g)?.map((name) => name.slice(1)) ?? []);
    }
    for (const [source, { byMethod }] of shapes) {
      const compiled: Shape = {
        pattern: new RegExp(`^${source}$`),
        byMethod,
        allow: [...byMethod.keys()].sort().join(', '),
      };
      if (source.includes('([^/]+)')) this.parametric.push(compiled);
      else this.fixed.set(source.replace(/\\(.)/g, '$1'), compiled);
      for (const route of byMethod.values()) {
        if (this.paramNames.get(route)!.length === 0) {
          this.plain.set(route, Object.freeze({ route, params: Object.freeze({}) }));
        }
      }
    }
  }

  /** Every path also answers with one trailing slash: the vendor's own sample client sends one. */
  lookup(method: string, path: string): Lookup {
    const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const fixed = this.fixed.get(bare);
    if (fixed) return this.choose(fixed, method, NO_TEXTS);
    for (const shape of this.parametric) {
      const match = shape.pattern.exec(bare);
      if (match) return this.choose(shape, method, match.slice(1));
    }
    return undefined;
  }

  private choose(shape: Shape, method: string, texts: readonly string[]): Lookup {
    const route = shape.byMethod.get(method);
    if (!route) return { allow: shape.allow };
    if (texts.length === 0) return this.plain.get(route);
    const names = this.paramNames.get(route)!;
    const kinds = (route.params ?? {}) as Record<string, PathParam<unknown>>;
    const params: Record<string, unknown> = {};
    for (const [index, name] of names.entries()) {
      const text = decode(texts[index]!);
      const value = text === undefined ? undefined : kinds[name]!.parse(text);
      if (value === undefined) return { route, badParam: { name, text: texts[index]! } };
      params[name] = value;
    }
    return { route, params };
  }
}

function decode(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
