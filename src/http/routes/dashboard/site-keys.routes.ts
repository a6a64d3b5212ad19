/**
 * /dashboard/api/site-keys: the workspace's site keys in the settings
 * (CONTRACT C5.1, C7.5). Anyone who reads the workspace sees them (they are
 * publishable: every page that carries the tracker shows its key) with the
 * snippet that installs the tracker; admins create and revoke them (C7.4),
 * through the same SiteKeysService as the CLI, held to the session's
 * workspace (another workspace's key is 404, as an unknown one).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { installSnippet } from '../../../services/operator/install-snippet.js';
import { ownOrigin, sessionOf } from '../../dashboard/session-gate.js';
import { errorResponses, IdParams } from '../../schemas/common.js';
import { RevokedKeyEnvelope } from '../../schemas/dashboard.schemas.js';
import { CreatedSiteKeyEnvelope, SiteKeyCreateBody, SiteKeyListEnvelope } from '../../schemas/dashboard-site-keys.schemas.js';
import type { DashboardRouteOptions } from './session.routes.js';

export interface SiteKeyRouteOptions extends DashboardRouteOptions {
  /** where this installation serves the tracker (TRACKER_SCRIPT_PATH) */
  scriptPath: string;
}

export const siteKeyRoutes: FastifyPluginAsyncTypebox<SiteKeyRouteOptions> = async (app, { services, scriptPath }) => {
  // the tracker's address is the one the admin reaches the dashboard at: the same process serves it
  const snippetFor = (request: FastifyRequest, key: string) => installSnippet(ownOrigin(request), scriptPath, key);

  app.get('/site-keys', { schema: { response: { 200: SiteKeyListEnvelope, ...errorResponses() } } }, async (request) => {
    const keys = await services.siteKeys.listWithRevoked(sessionOf(request).workspaceId);
    return { data: keys.map((key) => ({ ...key, snippet: snippetFor(request, key.key) })) };
  });

  app.post(
    '/site-keys',
    {
      config: { dashboardAccess: 'admin' },
      schema: { body: SiteKeyCreateBody, response: { 201: CreatedSiteKeyEnvelope, ...errorResponses(400, 403) } },
    },
    async (request, reply) => {
      const name = request.body.name?.trim() ?? '';
      const created = await services.siteKeys.create(sessionOf(request).workspaceId, name === '' ? null : name, request.body.origins ?? []);
      reply.code(201);
      return { data: { ...created, snippet: snippetFor(request, created.key) } };
    },
  );

  app.post(
    '/site-keys/:id/revoke',
    {
      config: { dashboardAccess: 'admin' },
      schema: { params: IdParams, response: { 200: RevokedKeyEnvelope, ...errorResponses(403, 404) } },
    },
    async (request) => ({ data: await services.siteKeys.revoke(request.params.id, sessionOf(request).workspaceId) }),
  );
};
