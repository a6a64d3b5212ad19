/**
 * /dashboard/api: lead intelligence in the dashboard (CONTRACT C6.2, C6.4,
 * C7.5): the workspace's ideal customer (everyone reads it, admins set it,
 * through the same IntelligenceSettingsService as the CLI's `workspace
 * settings`; a PUT replaces it whole), and a list's page: its details with its rule and member count, and its members
 * (the identities of the list, paged), as /api/v1/lists answers them.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { workspaceOf } from '../../request-context.js';
import { errorResponses, IdParams, listBody, pageOf } from '../../schemas/common.js';
import { ListIdentitiesEnvelope, VisitorListQuery } from '../../schemas/lists.schemas.js';
import { ListDetailEnvelope } from '../../schemas/segments.schemas.js';

const Names = (maxItems: number) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems });
const IdealCustomer = Type.Object(
  { industries: Names(100), employee_ranges: Names(100), countries: Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), { maxItems: 250 }) },
  { additionalProperties: false },
);
const IdealCustomerEnvelope = Type.Object({ data: IdealCustomer }, { additionalProperties: false });

export const intelligenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const idealCustomer = (settings: { ideal_customer?: { industries?: string[]; employee_ranges?: string[]; countries?: string[] } }) => ({
    industries: settings.ideal_customer?.industries ?? [],
    employee_ranges: settings.ideal_customer?.employee_ranges ?? [],
    countries: settings.ideal_customer?.countries ?? [],
  });

  app.get('/ideal-customer', { schema: { response: { 200: IdealCustomerEnvelope, ...errorResponses() } } }, async (request) => ({
    data: await idealCustomer(await workspaceOf(request).intelligenceSettings.get()),
  }));

  app.put(
    '/ideal-customer',
    {
      config: { dashboardAccess: 'admin' },
      schema: { body: IdealCustomer, response: { 200: IdealCustomerEnvelope, ...errorResponses(400, 403) } },
    },
    async (request) => ({ data: await idealCustomer(await workspaceOf(request).intelligenceSettings.set({ ideal_customer: request.body })) }),
  );

  app.get('/lists/:id', { schema: { params: IdParams, response: { 200: ListDetailEnvelope, ...errorResponses(404) } } }, async (request) => {
    return { data: await workspaceOf(request).lists.detail(request.params.id) };
  });

  app.get(
    '/lists/:id/identities',
    { schema: { params: IdParams, querystring: VisitorListQuery, response: { 200: ListIdentitiesEnvelope, ...errorResponses(400, 404) } } },
    async (request) => {
      const page = pageOf(request.query);
      return listBody(await workspaceOf(request).lists.identities(request.params.id, page), page);
    },
  );
};
