/**
 * /dashboard/api: the workspace's leads, identities (with activity and
 * personalities), companies and lists, and the overview, for the
 * dashboard's views (an identity with its company named, C9.4). Each calls
 * the same service as its /api/v1 twin, bound to the session's workspace
 * by the session gate; a member (not a viewer)
 * edits a lead's properties and summary and an identity's name, traits and
 * favourite (CONTRACT C7.4, C7.6).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../../request-context.js';
import { leadEnvelope, leadListWithLabelsEnvelope, leadSerializers } from '../../serializers/lead.serializer.js';
import { createdRange, errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import { AccountListEnvelope, AccountListQuery, CompanyEnvelope } from '../../schemas/companies.schemas.js';
import { DashboardIdentityEnvelope, DashboardLeadListEnvelope, DashboardLeadUpdateBody, TrackingStatusEnvelope } from '../../schemas/dashboard.schemas.js';
import {
  ActivityListEnvelope,
  ActivityQuery,
  IdentityEnvelope,
  IdentityListEnvelope,
  IdentityListQuery,
  IdentityUpdateBody,
  PersonalityListEnvelope,
} from '../../schemas/identities.schemas.js';
import { LeadEnvelope, LeadListQuery } from '../../schemas/leads.schemas.js';
import { VisitorListQuery } from '../../schemas/lists.schemas.js';
import { CountedListListEnvelope } from '../../schemas/segments.schemas.js';
import { TrafficEnvelope, TrafficQuery } from '../../schemas/traffic.schemas.js';
import { trafficRange } from '../../traffic-range.js';

export const recordsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // the overview's figures, comparison and breakdowns (C9.5)
  app.get(
    '/overview/traffic',
    { schema: { querystring: TrafficQuery, response: { 200: TrafficEnvelope, ...errorResponses(400) } } },
    async (request) => ({ data: await workspaceOf(request).traffic.traffic(trafficRange(request.query), request.query.site?.toLowerCase()) }),
  );

  // polled by the first-run page (C9.8) until the workspace's first event arrives
  app.get('/tracking-status', { schema: { response: { 200: TrackingStatusEnvelope, ...errorResponses() } } }, async (request) => ({
    data: await workspaceOf(request).overview.trackingStatus(),
  }));

  app.get(
    '/leads',
    {
      serializerCompiler: leadSerializers(leadListWithLabelsEnvelope),
      schema: { querystring: LeadListQuery, response: { 200: DashboardLeadListEnvelope, ...errorResponses(400) } },
    },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const filters = { source: query.source, code: query.code, ...createdRange(query) };
      const leads = workspaceOf(request).leads;
      const body = listBody(await leads.list(filters, page, query.sort), page);
      return { ...body, ...(await leads.labels(body.data)) };
    },
  );

  app.get(
    '/leads/:id',
    {
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: { params: IdParams, response: { 200: LeadEnvelope, ...errorResponses(404) } },
    },
    async (request) => ({ data: await workspaceOf(request).leads.get(request.params.id) }),
  );

  app.patch(
    '/leads/:id',
    {
      config: { dashboardAccess: 'member' },
      serializerCompiler: leadSerializers(leadEnvelope),
      schema: {
        params: IdParams,
        body: DashboardLeadUpdateBody,
        response: { 200: LeadEnvelope, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).leads.update(request.params.id, request.body, request.mergePatch ? 'merge' : 'replace') }),
  );

  app.get(
    '/identities',
    { schema: { querystring: IdentityListQuery, response: { 200: IdentityListEnvelope, ...errorResponses(400) } } },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const filters = { email: query.email, visitorId: query.visitor_id?.toLowerCase(), isFavorite: query.is_favorite, ...createdRange(query) };
      return listBody(await workspaceOf(request).identities.list(filters, page), page);
    },
  );

  app.get(
    '/identities/:id',
    { schema: { params: IdParams, response: { 200: DashboardIdentityEnvelope, ...errorResponses(404) } } },
    async (request) => ({ data: await workspaceOf(request).identities.getWithCompany(request.params.id) }),
  );

  app.patch(
    '/identities/:id',
    {
      config: { dashboardAccess: 'member' },
      schema: {
        params: IdParams,
        body: IdentityUpdateBody,
        response: { 200: IdentityEnvelope, ...errorResponses(400, 403, 404, 413, 415) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).identities.update(request.params.id, request.body, request.mergePatch ? 'merge' : 'replace') }),
  );

  app.get(
    '/identities/:id/activity',
    {
      schema: { params: IdParams, querystring: ActivityQuery, response: { 200: ActivityListEnvelope, ...errorResponses(400, 404) } },
    },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).identities.activity(request.params.id, page), page);
    },
  );

  app.get(
    '/identities/:id/personalities',
    { schema: { params: IdParams, response: { 200: PersonalityListEnvelope, ...errorResponses(404) } } },
    async (request) => ({ data: await workspaceOf(request).identities.personalities(request.params.id) }),
  );

  app.get(
    '/companies',
    { schema: { querystring: AccountListQuery, response: { 200: AccountListEnvelope, ...errorResponses(400) } } },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      // as accounts (C9.4): with people and visitors, sorted by last visit or account score on request
      return listBody(await workspaceOf(request).companies.listAccounts({ name: query.name, domain: query.domain }, query.sort ?? '-created_at', page), page);
    },
  );

  app.get(
    '/companies/:id',
    { schema: { params: IdParams, response: { 200: CompanyEnvelope, ...errorResponses(404) } } },
    async (request) => ({ data: await workspaceOf(request).companies.get(request.params.id) }),
  );

  app.get(
    '/lists',
    { schema: { querystring: VisitorListQuery, response: { 200: CountedListListEnvelope, ...errorResponses(400) } } },
    async (request) => {
      const page = pageOf(request.query);
      // with member counts (C9.6): an index-only count per page of lists (docs/segments.md)
      return listBody(await workspaceOf(request).lists.listWithCounts(page), page);
    },
  );
};
