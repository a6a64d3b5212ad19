/**
 * Deprecated routes (CONTRACT C11.6): a route whose `config.deprecation`
 * says since when (and, when known, until when) answers every request with
 * `Deprecation: @<epoch seconds>` (RFC 9745), `Sunset: <HTTP date>` (RFC 8594)
 * and a `Link` to the changelog entry (`rel="deprecation"`, and
 * `rel="sunset"` with a sunset), and is marked `deprecated` in the OpenAPI
 * document. The policy is in docs/changelog.md.
 */
import fp from 'fastify-plugin';
import type { FastifyReply } from 'fastify';

export interface RouteDeprecation {
  /** when it was deprecated (ISO 8601) */
  since: string;
  /** when it stops answering (ISO 8601), at least 6 months after `since` */
  sunset?: string;
  /** where the change is described (the changelog entry) */
  link: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** C11.6: this route is deprecated */
    deprecation?: RouteDeprecation;
  }
}

/** The headers of a deprecated route's answers. */
export function deprecationHeaders(deprecation: RouteDeprecation): Record<string, string> {
  const since = Date.parse(deprecation.since);
  if (Number.isNaN(since)) throw new Error(`deprecation.since is not a date: ${deprecation.since}`);
  const headers: Record<string, string> = { deprecation: `@${Math.floor(since / 1000)}` };
  const links = [`<${deprecation.link}>; rel="deprecation"; type="text/html"`];
  if (deprecation.sunset !== undefined) {
    const sunset = Date.parse(deprecation.sunset);
    if (Number.isNaN(sunset)) throw new Error(`deprecation.sunset is not a date: ${deprecation.sunset}`);
    headers.sunset = new Date(sunset).toUTCString();
    links.push(`<${deprecation.link}>; rel="sunset"; type="text/html"`);
  }
  headers.link = links.join(', ');
  return headers;
}

function addHeaders(reply: FastifyReply, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    const present = reply.getHeader(name);
    reply.header(name, name === 'link' && present !== undefined ? `${String(present)}, ${value}` : value);
  }
}

export const deprecation = fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      const config = route.config as { deprecation?: RouteDeprecation } | undefined;
      if (config?.deprecation === undefined) return;
      const headers = deprecationHeaders(config.deprecation);
      if (route.schema !== undefined) (route.schema as { deprecated?: boolean }).deprecated = true;
      const hooks = route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend];
      route.onSend = [
        ...hooks,
        async (_request, reply, payload) => {
          addHeaders(reply, headers);
          return payload;
        },
      ];
    });
  },
  { name: 'deprecation' },
);
