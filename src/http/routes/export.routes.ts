/**
 * Exports (CONTRACT C11.5): GET /api/v1/leads/export, /identities/export and
 * /companies/export take the list's filters and `format=ndjson|csv`, and
 * stream every matching row, newest first, at constant memory
 * (export-stream.ts). One request, so one request of the rate limit.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Company, Identity, Lead } from '../../schemas/resources.js';
import { COMPANY_EXAMPLE, withExample } from '../schemas/examples.js';
import { csvCell, EXPORT_MEDIA_TYPES, exportStream, type ExportFormat, type ExportShape } from '../export-stream.js';
import { workspaceOf } from '../request-context.js';
import { createdRange, errorResponses } from '../schemas/common.js';
import { CompanyListQuery } from '../schemas/companies.schemas.js';
import { IdentityListQuery } from '../schemas/identities.schemas.js';
import { LeadListQuery } from '../schemas/leads.schemas.js';
import { leadJson } from '../serializers/lead.serializer.js';

const Format = Type.Optional(
  Type.Union([Type.Literal('ndjson'), Type.Literal('csv')], { description: 'ndjson (default): one JSON object a line; csv: UTF-8 with a header row' }),
);

/** A list's query without its paging, and the format. */
const PAGING = ['limit', 'offset', 'cursor'] as const;
const LeadExportQuery = Type.Object({ ...Type.Omit(LeadListQuery, PAGING).properties, format: Format }, { additionalProperties: true });
const IdentityExportQuery = Type.Object({ ...Type.Omit(IdentityListQuery, PAGING).properties, format: Format }, { additionalProperties: true });
const CompanyExportQuery = Type.Object({ ...Type.Omit(CompanyListQuery, PAGING).properties, format: Format }, { additionalProperties: true });

const LEAD_SHAPE: ExportShape<Lead> = {
  columns: ['id', 'visitor_id', 'workspace_id', 'code', 'source', 'created_at', 'updated_at', 'properties', 'location', 'identity_id', 'session_id', 'summary', 'company_id'],
  json: leadJson,
};
const IDENTITY_SHAPE: ExportShape<Identity> = {
  columns: ['id', 'workspace_id', 'visitor_id', 'email', 'name', 'traits', 'first_seen', 'last_seen', 'ip', 'city', 'country', 'is_favorite', 'created_at'],
  json: (identity) => JSON.stringify(identity),
};
const COMPANY_SHAPE: ExportShape<Company> = {
  columns: ['id', 'name', 'domain', 'description', 'employees', 'main_industry', 'created_at'],
  json: (company) => JSON.stringify(company),
};

const EXPORT_RESPONSE = {
  description: 'Every matching row, streamed',
  content: {
    'application/x-ndjson': {
      schema: withExample(Type.String({ description: 'one JSON object a line, each as the list shows it' }), `${JSON.stringify(COMPANY_EXAMPLE)}\n`),
    },
    'text/csv': {
      schema: withExample(
        Type.String({ description: 'a header row of the fields, then a row per item; JSON fields as JSON text, null as an empty cell' }),
        `id,name,domain,description,employees,main_industry,created_at\r\n${COMPANY_SHAPE.columns.map((column) => csvCell(COMPANY_EXAMPLE[column])).join(',')}\r\n`,
      ),
    },
  },
};

function send(reply: FastifyReply, resource: string, format: ExportFormat, body: Readable) {
  reply.header('content-type', EXPORT_MEDIA_TYPES[format]);
  reply.header('content-disposition', `attachment; filename="${resource}.${format}"`);
  reply.header('cache-control', 'no-store');
  return reply.send(body);
}

const DESCRIPTION =
  'Every row the list would show with these filters, newest first, in one streamed answer (no pages): NDJSON, or CSV with a header row (RFC 4180 quoting; a cell starting with = + - @ is prefixed with a quote, so that spreadsheets do not run it). Counts as one request of the rate limit. Rows written while the export runs may or may not be in it.';

type Query = Record<string, unknown> & { format?: ExportFormat };

/** The export answers, shared with the dashboard's Export CSV (routes/dashboard/export.routes.ts): the same service and format. */
export const EXPORTS = {
  leads: (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Query & { source?: string; code?: string; created_after?: string; created_before?: string };
    const format = query.format ?? 'ndjson';
    const chunks = workspaceOf(request).exports.leads({ source: query.source, code: query.code, ...createdRange(query) });
    return send(reply, 'leads', format, exportStream(chunks, format, LEAD_SHAPE));
  },
  identities: (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Query & { email?: string; visitor_id?: string; is_favorite?: boolean; created_after?: string; created_before?: string };
    const format = query.format ?? 'ndjson';
    const filters = { email: query.email, visitorId: query.visitor_id?.toLowerCase(), isFavorite: query.is_favorite, ...createdRange(query) };
    return send(reply, 'identities', format, exportStream(workspaceOf(request).exports.identities(filters), format, IDENTITY_SHAPE));
  },
  companies: (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Query & { name?: string; domain?: string };
    const format = query.format ?? 'ndjson';
    return send(reply, 'companies', format, exportStream(workspaceOf(request).exports.companies({ name: query.name, domain: query.domain }), format, COMPANY_SHAPE));
  },
};

export { CompanyExportQuery, IdentityExportQuery, LeadExportQuery };

export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/leads/export',
    {
      schema: {
        operationId: 'exportLeads',
        tags: ['leads'],
        summary: 'Export leads',
        description: DESCRIPTION,
        querystring: LeadExportQuery,
        response: { 200: EXPORT_RESPONSE, ...errorResponses(400) },
      },
    },
    async (request, reply) => EXPORTS.leads(request, reply),
  );

  app.get(
    '/identities/export',
    {
      schema: {
        operationId: 'exportIdentities',
        tags: ['identities'],
        summary: 'Export identities',
        description: DESCRIPTION,
        querystring: IdentityExportQuery,
        response: { 200: EXPORT_RESPONSE, ...errorResponses(400) },
      },
    },
    async (request, reply) => EXPORTS.identities(request, reply),
  );

  app.get(
    '/companies/export',
    {
      schema: {
        operationId: 'exportCompanies',
        tags: ['companies'],
        summary: 'Export companies',
        description: DESCRIPTION,
        querystring: CompanyExportQuery,
        response: { 200: EXPORT_RESPONSE, ...errorResponses(400) },
      },
    },
    async (request, reply) => EXPORTS.companies(request, reply),
  );
};
