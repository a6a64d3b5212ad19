/**
 * GET /api/v1/openapi.json: the API description, served without a key.
 */
import type { FastifyPluginAsync } from 'fastify';

export const openapiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.openapiDocuments.api());
};
