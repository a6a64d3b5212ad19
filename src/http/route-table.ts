/**
 * The methods each route path answers, collected as routes are added, so the
 * not-found handler can tell an unknown path (404) from a known path asked
 * with another method (405 with Allow).
 */

interface Entry {
  pattern: RegExp;
  methods: Set<string>;
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
