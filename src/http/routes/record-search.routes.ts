/**
 * Search (CONTRACT C11.3): POST /api/v1/leads/search, /identities/search and
 * /companies/search. The answer is the list envelope with the exact total; a
 * `Link: <…?cursor=…>; rel="next"` while more rows follow, its cursor bound
 * (HMAC, as every list cursor: C8.3) to the workspace, the route, the filter
 * and the sort, so that it only continues the search it came from.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SearchResource } from '../../services/tenant/record-search/search-fields.js';
import type { SearchItems } from '../../services/tenant/record-search/record-search.service.js';
import { parseSearch } from '../../services/tenant/record-search/search-query.js';
import { HttpError } from '../errors.js';
import { workspaceOf } from '../request-context.js';
import { errorResponses } from '../schemas/common.js';
import { CompanyListEnvelope } from '../schemas/companies.schemas.js';
import { COMPANY_EXAMPLE, IDENTITY_EXAMPLE, LEAD_EXAMPLE, page, withExample } from '../schemas/examples.js';
import { IdentityListEnvelope } from '../schemas/identities.schemas.js';
import { LeadListEnvelope } from '../schemas/leads.schemas.js';
import { SearchBody, SearchQueryString } from '../schemas/record-search.schemas.js';
import { leadListEnvelope, leadSerializers } from '../serializers/lead.serializer.js';

const SEARCH_EXAMPLE = {
  filter: {
    any: [
      { all: [{ field: 'source', op: 'eq', value: 'pricing-page' }, { field: 'summary.score', op: 'gte', value: 70 }] },
      { all: [{ field: 'properties.plan', op: 'in', value: ['team', 'enterprise'] }] },
    ],
  },
  sort: [{ field: 'created_at', order: 'desc' }],
  limit: 50,
};

function invalidCursor(): HttpError {
  const message = 'cursor is invalid, or was made for another workspace, endpoint, filter or sort';
  return new HttpError('invalid_request', message, { fields: { cursor: message } });
}

async function search<R extends SearchResource>(resource: R, request: FastifyRequest, reply: FastifyReply) {
  const query = parseSearch(resource, request.body, (request.query as { cursor?: string }).cursor);
  const binding = {
    workspaceId: workspaceOf(request).id,
    endpoint: `${request.routeOptions.url ?? ''} search`,
    filters: JSON.stringify({ groups: query.groups, sort: query.sort }),
  };
  const cursors = request.server.cursors;
  const after = query.cursor === undefined ? undefined : await cursors.decode(query.cursor, binding);
  if (query.cursor !== undefined && after === undefined) throw invalidCursor();
  const result = await workspaceOf(request).recordSearch.search(resource, query, after);
  const items = result.items.slice(0, query.limit);
  const last = result.positions[items.length - 1];
  if (result.items.length > query.limit && last !== undefined) {
    const path = request.url.split('?', 1)[0] ?? '';
    const cursor = await cursors.encode(last, binding);
    reply.header('link', `<${request.protocol}://${request.host}${path}?cursor=${encodeURIComponent(cursor)}>; rel="next"`);
  }
  return { data: items as SearchItems[R][], pagination: { limit: query.limit, offset: 0, total: result.total } };
}

const DESCRIPTION =
  'Rows matching any of the filter groups (each group: all of its conditions, at most 5 groups of 10), in the sort, with the exact `pagination.total`. Operators: eq, neq (also matches rows without the value), in, contains (case-insensitive text), gt, gte, lt, lte (numbers, text, dates), exists. A JSON path compares values of the type given (a number matches numbers only). While more rows follow, `Link: <…?cursor=…>; rel="next"`: POST the same body to that URL (or put the cursor in the body). A problem is 400 naming it in `details.fields`, such as `filter.any[1].all[2].op`.';

export const recordSearchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/leads/search',
    {
      attachValidation: true,
      config: { readOnly: true },
      serializerCompiler: leadSerializers(leadListEnvelope),
      schema: {
        operationId: 'searchLeads',
        tags: ['leads'],
        summary: 'Search leads',
        description: `${DESCRIPTION} Fields: id, visitor_id, code, source, created_at, updated_at, identity_id, session_id, company_id, properties.<path>, location.<path>, summary.<path>.`,
        querystring: SearchQueryString,
        body: withExample(SearchBody, SEARCH_EXAMPLE),
        response: { 200: withExample(LeadListEnvelope, page(LEAD_EXAMPLE), 'A page of the leads found'), ...errorResponses(400, 413, 415) },
      },
    },
    async (request, reply) => search('leads', request, reply),
  );

  app.post(
    '/identities/search',
    {
      attachValidation: true,
      config: { readOnly: true },
      schema: {
        operationId: 'searchIdentities',
        tags: ['identities'],
        summary: 'Search identities',
        description: `${DESCRIPTION} Fields: id, visitor_id, email, name, first_seen, last_seen, ip, city, country, is_favorite, created_at, traits.<path>.`,
        querystring: SearchQueryString,
        body: withExample(SearchBody, { filter: { any: [{ all: [{ field: 'traits.plan', op: 'eq', value: 'team' }] }] }, sort: [{ field: 'last_seen', order: 'desc' }] }),
        response: { 200: withExample(IdentityListEnvelope, page(IDENTITY_EXAMPLE), 'A page of the identities found'), ...errorResponses(400, 413, 415) },
      },
    },
    async (request, reply) => search('identities', request, reply),
  );

  app.post(
    '/companies/search',
    {
      attachValidation: true,
      config: { readOnly: true },
      schema: {
        operationId: 'searchCompanies',
        tags: ['companies'],
        summary: 'Search companies',
        description: `${DESCRIPTION} Fields: id, name, domain, description, employees, main_industry, created_at.`,
        querystring: SearchQueryString,
        body: withExample(SearchBody, { filter: { any: [{ all: [{ field: 'main_industry', op: 'contains', value: 'software' }] }] }, sort: [{ field: 'name' }] }),
        response: { 200: withExample(CompanyListEnvelope, page(COMPANY_EXAMPLE), 'A page of the companies found'), ...errorResponses(400, 413, 415) },
      },
    },
    async (request, reply) => search('companies', request, reply),
  );
};
