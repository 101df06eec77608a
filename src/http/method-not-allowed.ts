import type { FastifyInstance, RouteOptions } from 'fastify';

interface Shape {
  readonly pattern: RegExp;
  readonly methods: Set<string>;
}

/**
 * Remembers the shape of every route under `prefix`, so that the not-found handler can tell a
 * known path with a wrong method (405, with `Allow`) from an unknown path (404). Doing this in
 * the not-found handler keeps the router small: no extra route per missing method.
 */
export function recordRouteShapes(app: FastifyInstance, prefix: string) {
  const shapes = new Map<string, Shape>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(prefix)) return;
    // `/customfields/:name` and `/customfields/:customFieldNameId` are one path to the router.
    const source = route.url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    const shape = shapes.get(source) ?? {
      pattern: new RegExp(`^${source}/?$`),
      methods: new Set(),
    };
    for (const method of [route.method].flat()) shape.methods.add(method);
    shapes.set(source, shape);
  });

  /** The methods a path answers to, sorted, or undefined for a path no route has. */
  return function allowedMethods(path: string): string | undefined {
    for (const { pattern, methods } of shapes.values()) {
      if (pattern.test(path)) return [...methods].sort().join(', ');
    }
    return undefined;
  };
}
