/**
 * Serves the dashboard's single-page app (CONTRACT C7.1), built by
 * `npm run build` into dist/dashboard: GET / answers its index.html, and so
 * does any other GET of a browser (Accept: text/html) for a path the server
 * does not know outside /api/ and /dashboard/api/, so client-side routes
 * (/leads/…, /settings) survive a reload. The HTML is never cached (it names
 * the current assets) and carries a strict Content-Security-Policy; the
 * assets under /assets/ have content hashes in their names, are cached for
 * a year, immutable, and are sent Brotli- or gzip-compressed as the build
 * wrote them when the browser accepts it.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { sendError } from './error-handler.js';

/** the build's output, from src/http/plugins or dist/http/plugins alike */
export const DEFAULT_DASHBOARD_DIRECTORY = path.resolve(import.meta.dirname, '..', '..', '..', 'dist', 'dashboard');

const YEAR_SECONDS = 31_536_000;

const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; " +
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
};

const NOT_APP = /^\/(?:api|dashboard\/api|assets)(?:\/|$)/;

export interface DashboardAppOptions {
  directory?: string;
}

/** Registers the app's routes; returns the fallback the not-found handler tries first. */
export async function registerDashboardApp(
  app: FastifyInstance,
  options: DashboardAppOptions = {},
): Promise<(request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined> {
  const directory = options.directory ?? DEFAULT_DASHBOARD_DIRECTORY;
  const indexFile = path.join(directory, 'index.html');

  function sendIndex(reply: FastifyReply): FastifyReply {
    let html: string;
    try {
      html = fs.readFileSync(indexFile, 'utf8');
    } catch {
      return sendError(reply, new HttpError('service_unavailable', 'The dashboard is not built; run npm run build'));
    }
    return reply.headers(HTML_HEADERS).send(html);
  }

  await app.register(fastifyStatic, {
    root: path.join(directory, 'assets'),
    prefix: '/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: YEAR_SECONDS * 1000,
    index: false,
    // the build writes .br and .gz copies (dashboard/precompress.ts)
    preCompressed: true,
    schemaHide: true,
  });
  app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));

  return (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const pathname = request.url.split('?')[0] ?? '/';
    if (NOT_APP.test(pathname) || !(request.headers.accept ?? '').includes('text/html')) return undefined;
    return sendIndex(reply);
  };
}
