/**
 * GET /docs (CONTRACT C8.1, C9.9): the interactive reference of the OpenAPI
 * document, rendered by Scalar (@scalar/fastify-api-reference), without a
 * key. Everything is served from this process: the page, its script
 * (content-addressed, compressed and cached for a year: reference-script.ts)
 * and the document (/docs/openapi.json, the same as /api/v1/openapi.json).
 * The settings below turn off what would reach the Internet or belongs to
 * Scalar's hosted service (web fonts, telemetry, the AI agent and MCP, the
 * "open in Scalar's client" button, the developer tools with their Share →
 * Upload document and Deploy menus), so the reference works on a machine
 * without network access. The page says its language, carries a
 * Content-Security-Policy that allows its own inline script by hash and
 * nothing from elsewhere, and its theme's colours meet WCAG AA contrast.
 */
import { createHash } from 'node:crypto';
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyPluginAsync } from 'fastify';
import { HttpError } from '../errors.js';
import { REFERENCE_CSS } from './reference-theme.js';
import { encodedScript, prepareScript, scriptAddress } from './reference-script.js';

export const DOCS_PATH = '/docs';

const YEAR_SECONDS = 31_536_000;

/** the page's own inline scripts (the one that starts Scalar with its configuration) */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** The page's policy: its inline scripts by hash, everything else from this origin; styles inline (Scalar injects its own). */
export function referencePolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map((match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const referenceRoutes: FastifyPluginAsync = async (app) => {
  const scriptPath = `js/scalar.${scriptAddress()}.js`;
  const pagePath = `${DOCS_PATH}/`;

  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.url !== pagePath || typeof payload !== 'string') return payload;
    // the script is read and compressed while the browser parses the page
    prepareScript();
    // an empty icon: without one every browser asks for /favicon.ico and logs its 404
    const html = payload.replace(/<html>/, '<html lang="en">').replace(/<head>/, '<head>\n    <link rel="icon" href="data:," />');
    reply.header('content-security-policy', referencePolicy(html));
    reply.header('referrer-policy', 'same-origin');
    return html;
  });

  // one route for the script whatever its address (the route table stays the same across versions); any other name is 404
  app.get<{ Params: { file: string } }>(`${DOCS_PATH}/js/:file`, { schema: { hide: true } }, async (request, reply) => {
    if (`js/${request.params.file}` !== scriptPath) throw new HttpError('not_found', 'no such file');
    const { encoding, body } = await encodedScript(request.headers['accept-encoding']);
    reply.header('content-type', 'application/javascript; charset=utf-8');
    reply.header('cache-control', `public, max-age=${YEAR_SECONDS}, immutable`);
    reply.header('vary', 'accept-encoding');
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(body);
  });

  await app.register(apiReference, {
    routePrefix: DOCS_PATH,
    logLevel: 'warn',
    hooks: {
      // the package's own, uncompressed and uncached, address of the script: sent to the content-addressed one
      onRequest: async (request, reply) => {
        if (request.routeOptions.url === `${DOCS_PATH}/js/scalar.js`) return reply.redirect(`${DOCS_PATH}/${scriptPath}`, 302);
      },
    },
    configuration: {
      content: () => app.openapiDocuments.api(),
      pageTitle: 'Leadlight API reference',
      cdn: scriptPath,
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
      documentDownloadType: 'json',
      defaultOpenAllTags: false,
      persistAuth: false,
      metaData: { title: 'Leadlight API reference' },
      customCss: REFERENCE_CSS,
    },
  });
};
