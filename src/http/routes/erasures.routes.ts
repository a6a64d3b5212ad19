/**
 * POST /api/v1/erasures (CONTRACT C8.4): erase a person by email or visitor
 * id, atomically, answering the counts erased. Each erasure writes one audit
 * line to the log (`audit: "erasure"`, with the workspace, the key, which
 * kind of subject, the counts, and the copies scrubbed: webhook deliveries
 * and stored idempotent answers; never the email or visitor id itself).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LIMITS, Uuid } from '../../schemas/fields.js';
import { workspaceOf } from '../request-context.js';
import { errorResponses } from '../schemas/common.js';
import { withExample } from '../schemas/examples.js';

const ErasureBody = Type.Object(
  {
    email: Type.Optional(Type.String({ format: 'email', maxLength: LIMITS.email, description: 'erase the identities with this email (case-insensitive)' })),
    visitor_id: Type.Optional(Uuid({ description: 'erase this visitor and the identities it is or is linked to' })),
  },
  { additionalProperties: false, description: 'exactly one of email and visitor_id' },
);

const Count = Type.Integer({ minimum: 0 });
const ErasureEnvelope = Type.Object(
  {
    data: Type.Object(
      {
        identities: Count,
        activity: Count,
        personalities: Count,
        events: Count,
        list_memberships: Count,
        leads: Count,
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const erasuresRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/erasures',
    {
      schema: {
        operationId: 'createErasure',
        tags: ['erasures'],
        summary: 'Erase a person',
        description:
          'Removes, in one transaction, the identities of a person (by email, or by a visitor id), their activity, personalities, tracked events, list memberships and leads. Lead totals stay exact. Answers the counts erased.',
        body: withExample(ErasureBody, { email: 'ada@acme.example' }),
        response: {
          200: withExample(
            ErasureEnvelope,
            { data: { identities: 1, activity: 42, personalities: 3, events: 180, list_memberships: 2, leads: 1 } },
            'What was erased, counted',
          ),
          ...errorResponses(400, 413, 415),
        },
      },
    },
    async (request) => {
      const workspace = workspaceOf(request);
      const { person: _person, scrubbed, ...counts } = await workspace.erasure.erase(request.body);
      request.log.info(
        {
          audit: 'erasure',
          workspace_id: workspace.id,
          key_id: request.apiKey?.id,
          subject: request.body.email !== undefined ? 'email' : 'visitor_id',
          erased: counts,
          scrubbed,
        },
        'audit: person erased',
      );
      return { data: counts };
    },
  );
};
