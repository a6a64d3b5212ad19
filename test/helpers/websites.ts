/**
 * Local stand-ins for the internet of company enrichment (CONTRACT C6.7):
 * one HTTP server on loopback that answers for many host names (by the
 * Host header), so that tests can serve companies' websites, redirects
 * between hosts and a data provider; and a resolver that answers those
 * names with the loopback address, as DNS would answer a site's name.
 * Every request is recorded, so tests count fetches.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import type { Resolve } from '../../src/services/webhooks/targets.js';

export interface SeenRequest {
  host: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface Websites {
  port: number;
  /** every request received, in order */
  seen: SeenRequest[];
  /** how many requests reached `host` (and `path`, when given) */
  hits(host: string, path?: string): number;
  /** answers requests for `host` and `path` ('*' for every path) */
  route(host: string, path: string, handler: Handler): void;
  /** an HTML page for `host` at `path` */
  page(host: string, path: string, html: string, headers?: http.OutgoingHttpHeaders): void;
  /** a redirect from `host` + `path` to `location` */
  redirect(host: string, path: string, location: string, status?: number): void;
  /** names the resolver answers with 127.0.0.1 (every name a route was added for, and these) */
  known: Set<string>;
  resolve: Resolve;
  close(): Promise<void>;
}

export async function startWebsites(): Promise<Websites> {
  const routes = new Map<string, Handler>();
  const seen: SeenRequest[] = [];
  const known = new Set<string>();
  const open = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const path = request.url ?? '/';
    seen.push({ host, path, headers: request.headers });
    open.add(response);
    response.on('close', () => open.delete(response));
    const handler = routes.get(`${host} ${path}`) ?? routes.get(`${host} *`);
    if (handler === undefined) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const route = (host: string, path: string, handler: Handler) => {
    known.add(host);
    routes.set(`${host} ${path}`, handler);
  };
  return {
    port,
    seen,
    known,
    hits: (host, path) => seen.filter((entry) => entry.host === host && (path === undefined || entry.path === path)).length,
    route,
    page(host, path, html, headers = {}) {
      route(host, path, (_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(html));
    },
    redirect(host, path, location, status = 301) {
      route(host, path, (_request, response) => response.writeHead(status, { location }).end());
    },
    resolve(hostname, _options, callback) {
      const name = hostname.toLowerCase();
      if (known.has(name)) {
        callback(null, [{ address: '127.0.0.1', family: 4 } satisfies LookupAddress]);
        return;
      }
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, []);
    },
    async close() {
      for (const response of open) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
