/**
 * /dashboard/api/companies/:id/engagement and /activity: a company as an
 * account (CONTRACT C6.9, C9.4) for the dashboard's company page, through
 * the same service as their /api/v1 twins, bound to the session's
 * workspace; the engagement adds sessions per day (visits per day). Any
 * member reads them (viewer and up).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import {
  CompanyActivityEnvelope,
  CompanyActivityQuery,
  CompanyEngagementQuery,
  DashboardEngagementEnvelope,
  DEFAULT_ENGAGEMENT_DAYS,
} from '../../schemas/companies.schemas.js';

export const accountsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/companies/:id/engagement',
    {
      config: { dashboardAccess: 'viewer' },
      schema: { params: IdParams, querystring: CompanyEngagementQuery, response: { 200: DashboardEngagementEnvelope, ...errorResponses(400, 404) } },
    },
    async (request) => ({ data: await workspaceOf(request).companies.engagement(request.params.id, request.query.days ?? DEFAULT_ENGAGEMENT_DAYS) }),
  );

  app.get(
    '/companies/:id/activity',
    {
      config: { dashboardAccess: 'viewer' },
      schema: { params: IdParams, querystring: CompanyActivityQuery, response: { 200: CompanyActivityEnvelope, ...errorResponses(400, 404) } },
    },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).companies.activity(request.params.id, page), page);
    },
  );
};
