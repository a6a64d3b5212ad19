/**
 * /api/v1/companies: list and read companies, the identities linked to one
 * (C6.1), and a company as an account: its engagement and its activity (C6.9).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { workspaceOf } from '../request-context.js';
import { cursorPage } from '../pagination.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { ACTIVITY_EXAMPLE, COMPANY_EXAMPLE, ENGAGEMENT_EXAMPLE, IDENTITY_EXAMPLE, page, withExample } from '../schemas/examples.js';
import {
  CompanyActivityEnvelope,
  CompanyActivityQuery,
  CompanyEngagementEnvelope,
  CompanyEngagementQuery,
  CompanyEnvelope,
  CompanyIdentitiesEnvelope,
  CompanyIdentitiesQuery,
  CompanyListEnvelope,
  CompanyListQuery,
  DEFAULT_ENGAGEMENT_DAYS,
} from '../schemas/companies.schemas.js';

export const companiesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/companies',
    {
      schema: {
        operationId: 'listCompanies',
        tags: ['companies'],
        summary: 'List companies',
        description:
          'The companies of your workspace, newest first. `name` matches a case-insensitive substring (`%` and `_` are literal), `domain` exactly, ignoring case.',
        querystring: CompanyListQuery,
        response: { 200: withExample(CompanyListEnvelope, page(COMPANY_EXAMPLE), 'A page of companies'), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const filters = { name: query.name, domain: query.domain };
      const paging = await cursorPage(request, filters);
      return paging.finish(await workspaceOf(request).companies.list(filters, paging.page), reply);
    },
  );

  app.get(
    '/companies/:id',
    {
      schema: {
        operationId: 'getCompany',
        tags: ['companies'],
        summary: 'Get a company',
        description: 'One company of your workspace by id.',
        params: IdParams,
        response: { 200: withExample(CompanyEnvelope, { data: COMPANY_EXAMPLE }, 'The company'), ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await workspaceOf(request).companies.get(request.params.id) }),
  );

  app.get(
    '/companies/:id/identities',
    {
      schema: {
        operationId: 'listCompanyIdentities',
        tags: ['companies'],
        summary: 'List the identities linked to a company',
        description: 'Identities whose business email (or network) names the company (CONTRACT C6.1), newest first.',
        params: IdParams,
        querystring: CompanyIdentitiesQuery,
        response: { 200: withExample(CompanyIdentitiesEnvelope, page(IDENTITY_EXAMPLE), 'A page of the company\'s identities'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).companies.identities(request.params.id, paging.page), reply);
    },
  );

  app.get(
    '/companies/:id/engagement',
    {
      schema: {
        operationId: 'getCompanyEngagement',
        tags: ['companies'],
        summary: 'Get a company\'s engagement',
        description:
          'The company as an account (CONTRACT C6.9): every visitor whose visits name it (its identities\' visitors, and anonymous visitors whose network names it), identified or not, seen in the last `days` UTC days (today included); their sessions and page views in that window, its most viewed paths, its latest visit, and its account score (0–100: the best fit of its people plus the engagement of all of them over the last 30 days, documented in docs/intelligence.md) with the reasons behind it.',
        params: IdParams,
        querystring: CompanyEngagementQuery,
        response: { 200: withExample(CompanyEngagementEnvelope, { data: ENGAGEMENT_EXAMPLE }, 'The company\'s engagement'), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const { days: _days, ...engagement } = await workspaceOf(request).companies.engagement(request.params.id, request.query.days ?? DEFAULT_ENGAGEMENT_DAYS);
      return { data: engagement };
    },
  );

  app.get(
    '/companies/:id/activity',
    {
      schema: {
        operationId: 'listCompanyActivity',
        tags: ['companies'],
        summary: 'List the activity of a company',
        description:
          'What its people did (the activity entries of the identities linked to it) and the page views of its anonymous visitors (`who` is `Anonymous visitor`), newest first, in the shape of an identity\'s activity entries (CONTRACT C6.9), a page at a time.',
        params: IdParams,
        querystring: CompanyActivityQuery,
        response: { 200: withExample(CompanyActivityEnvelope, page(ACTIVITY_EXAMPLE), 'A page of the company\'s activity'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const paging = await cursorPage(request, {});
      return paging.finish(await workspaceOf(request).companies.activity(request.params.id, paging.page), reply);
    },
  );
};
