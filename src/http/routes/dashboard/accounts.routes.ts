/**
 * /dashboard/api/companies/:id/engagement, /activity, /identities and
 * /leads: a company as an account (CONTRACT C6.9, C9.4) for the
 * dashboard's company page, through the same service as their /api/v1
 * twins, bound to the session's workspace. The engagement adds sessions
 * per day (visits per day) and the window's anonymous visitors; the leads
 * come with the people they name, as the Leads page's do. Any member reads
 * them (viewer and up).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import {
  CompanyActivityEnvelope,
  CompanyActivityQuery,
  CompanyEngagementQuery,
  CompanyIdentitiesEnvelope,
  CompanyIdentitiesQuery,
  CompanyLeadsQuery,
  DashboardEngagementEnvelope,
  DEFAULT_ENGAGEMENT_DAYS,
} from '../../schemas/companies.schemas.js';
import { DashboardLeadListEnvelope } from '../../schemas/dashboard.schemas.js';
import { leadListWithLabelsEnvelope, leadSerializers } from '../../serializers/lead.serializer.js';

export const accountsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/companies/:id/engagement',
    {
      config: { dashboardAccess: 'viewer' },
      schema: { params: IdParams, querystring: CompanyEngagementQuery, response: { 200: DashboardEngagementEnvelope, ...errorResponses(400, 404) } },
    },
    async (request) => ({ data: await workspaceOf(request).companies.accountView(request.params.id, request.query.days ?? DEFAULT_ENGAGEMENT_DAYS) }),
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

  // its people (C9.4): the identities linked to it, newest first
  app.get(
    '/companies/:id/identities',
    {
      config: { dashboardAccess: 'viewer' },
      schema: { params: IdParams, querystring: CompanyIdentitiesQuery, response: { 200: CompanyIdentitiesEnvelope, ...errorResponses(400, 404) } },
    },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).companies.identities(request.params.id, page), page);
    },
  );

  // its leads (C9.4), newest first, with the people they name
  app.get(
    '/companies/:id/leads',
    {
      config: { dashboardAccess: 'viewer' },
      serializerCompiler: leadSerializers(leadListWithLabelsEnvelope),
      schema: { params: IdParams, querystring: CompanyLeadsQuery, response: { 200: DashboardLeadListEnvelope, ...errorResponses(400, 404) } },
    },
    async (request) => {
      const page = pageOf(request.query);
      const workspace = workspaceOf(request);
      const body = listBody(await workspace.companies.leads(request.params.id, page), page);
      return { ...body, ...(await workspace.leads.labels(body.data)) };
    },
  );
};
