/**
 * Every route of the application, collected as routes are added: the methods
 * each path answers, so the not-found handler can tell an unknown path (404)
 * from a known path asked with another method (405 with Allow), and the
 * routes themselves, so tests can walk all of them (the isolation matrix).
 */
import type { RouteOptions } from 'fastify';

interface Entry {
  pattern: RegExp;
  methods: Set<string>;
}

/** One route as it was registered. */
export interface RegisteredRoute {
  method: string;
  url: string;
  public: boolean;
  /** a dashboard route's declared least role, or public (config.dashboardAccess; unset means viewer) */
  dashboardAccess: string | undefined;
  schema: RouteOptions['schema'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** every route of this application (route-table.ts) */
    routeTable: RouteTable;
  }
}

function toPattern(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export class RouteTable {
  readonly #entries = new Map<string, Entry>();
  readonly #routes: RegisteredRoute[] = [];

  /** Records a route as Fastify's onRoute hook sees it. */
  addRoute(route: RouteOptions): void {
    this.add(route.method, route.url);
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      this.#routes.push({
        method: method.toUpperCase(),
        url: route.url,
        public: route.config?.public === true,
        dashboardAccess: route.config?.dashboardAccess,
        schema: route.schema,
      });
    }
  }

  /** Every route registered, HEAD included. */
  routes(): readonly RegisteredRoute[] {
    return this.#routes;
  }

  add(methods: string | string[], url: string): void {
    let entry = this.#entries.get(url);
    if (entry === undefined) {
      entry = { pattern: toPattern(url), methods: new Set() };
      this.#entries.set(url, entry);
    }
    for (const method of Array.isArray(methods) ? methods : [methods]) entry.methods.add(method.toUpperCase());
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const entry of this.#entries.values()) {
      if (entry.pattern.test(path)) for (const method of entry.methods) methods.add(method);
    }
    return [...methods].sort();
  }
}
