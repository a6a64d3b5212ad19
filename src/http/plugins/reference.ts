/**
 * GET /docs (CONTRACT C8.1): the interactive reference of the OpenAPI
 * document, rendered by Scalar (@scalar/fastify-api-reference), without a
 * key. Everything is served from this process: the page, its script
 * (/docs/js/scalar.js, bundled in the package) and the document
 * (/docs/openapi.json, the same as /api/v1/openapi.json); the settings below
 * turn off what would reach the Internet (web fonts, telemetry, the hosted
 * AI agent and MCP features, the "open in Scalar's client" button), so the
 * reference works on a machine without network access.
 */
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyPluginAsync } from 'fastify';

export const DOCS_PATH = '/docs';

export const referenceRoutes: FastifyPluginAsync = async (app) => {
  await app.register(apiReference, {
    routePrefix: DOCS_PATH,
    logLevel: 'warn',
    configuration: {
      pageTitle: 'Leadlight API reference',
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      agent: { disabled: true },
      mcp: { disabled: true },
      defaultOpenAllTags: false,
      persistAuth: false,
      metaData: { title: 'Leadlight API reference' },
    },
  });
};
