/**
 * GET /dashboard/api/openapi.json: the dashboard's own API described
 * (CONTRACT C9.10), the document the dashboard's types are generated from.
 * Public like /api/v1/openapi.json: it describes shapes, never data.
 */
import type { FastifyPluginAsync } from 'fastify';

export const dashboardOpenapiRoutes: FastifyPluginAsync = async (app) => {
  app.get('/openapi.json', { config: { dashboardAccess: 'public' }, schema: { hide: true } }, async () => app.openapiDocuments.dashboard());
};
