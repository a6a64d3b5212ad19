/**
 * Batches (CONTRACT C11.4): POST /api/v1/leads/batch and
 * /api/v1/identities/batch, all or nothing, answered with one result per
 * operation in order. The body is checked by the service, operation by
 * operation (the route schema documents it; its own verdict is not used), so
 * a problem names its operation: `operations[3].body.code`.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseIdentityBatch } from '../../services/tenant/identity-batch.js';
import { parseLeadBatch } from '../../services/tenant/lead-batch.js';
import { leadJson, leadSerializers } from '../serializers/lead.serializer.js';
import { workspaceOf } from '../request-context.js';
import { errorResponses } from '../schemas/common.js';
import { EXAMPLE_IDS, IDENTITY_CREATE_EXAMPLE, IDENTITY_EXAMPLE, LEAD_CREATE_EXAMPLE, LEAD_EXAMPLE, LEAD_UPDATE_EXAMPLE, withExample } from '../schemas/examples.js';
import { IdentityBatchBody, IdentityBatchEnvelope, LeadBatchBody, LeadBatchEnvelope } from '../schemas/batch.schemas.js';
import type { LeadOutcome } from '../../services/tenant/lead-batch.js';

function leadBatchJson(payload: { data: LeadOutcome[] }): string {
  return `{"data":[${payload.data.map((item) => `{"outcome":"${item.outcome}","data":${leadJson(item.data)}}`).join(',')}]}`;
}

export const batchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/leads/batch',
    {
      attachValidation: true,
      serializerCompiler: leadSerializers(leadBatchJson),
      schema: {
        operationId: 'batchLeads',
        tags: ['leads'],
        summary: 'Create and update leads in one batch',
        description:
          '1 to 100 operations, run in order in one transaction: all are applied or none. Each follows the rules of the single write (POST /leads, PATCH /leads/{id} with application/json) and fires the same webhook events. The first bad operation answers 400 naming it in `details.fields` (`operations[3].body.code`, `operations[0].id` for an unknown lead) and nothing is written. Answers 200 with one result per operation, in order.',
        body: withExample(LeadBatchBody, {
          operations: [
            { op: 'create', body: LEAD_CREATE_EXAMPLE },
            { op: 'update', id: EXAMPLE_IDS.lead, body: LEAD_UPDATE_EXAMPLE },
          ],
        }),
        response: {
          200: withExample(
            LeadBatchEnvelope,
            { data: [{ outcome: 'created', data: LEAD_EXAMPLE }, { outcome: 'updated', data: LEAD_EXAMPLE }] },
            'The result of each operation, in order',
          ),
          ...errorResponses(400, 413, 415),
        },
      },
    },
    async (request) => ({ data: await workspaceOf(request).leads.batch(parseLeadBatch(request.body)) }),
  );

  app.post(
    '/identities/batch',
    {
      attachValidation: true,
      schema: {
        operationId: 'batchIdentities',
        tags: ['identities'],
        summary: 'Upsert identities by email in one batch',
        description:
          '1 to 100 identities, run in order in one transaction: all are applied or none. An identity whose email (case-insensitive) is already in your workspace is updated: `name` when given, `traits` merged as RFC 7396 (a null member removes that key); otherwise one is created. Fires identity.created or identity.updated for each. A bad item answers 400 naming it (`identities[2].email`) and nothing is written.',
        body: withExample(IdentityBatchBody, { identities: [IDENTITY_CREATE_EXAMPLE] }),
        response: {
          200: withExample(IdentityBatchEnvelope, { data: [{ outcome: 'created', data: IDENTITY_EXAMPLE }] }, 'The result of each identity, in order'),
          ...errorResponses(400, 413, 415),
        },
      },
    },
    async (request) => ({ data: await workspaceOf(request).identities.batch(parseIdentityBatch(request.body)) }),
  );
};
