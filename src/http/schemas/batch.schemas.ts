/**
 * Request and response schemas of the batch routes (CONTRACT C11.4). The
 * document shows the exact shapes; the service checks them again, operation
 * by operation, so that a problem names its operation
 * (services/tenant/lead-batch.ts, identity-batch.ts).
 */
import { Type } from '@sinclair/typebox';
import { Ref, Uuid } from '../../schemas/fields.js';
import { LeadCreateInput, LeadUpdateInput } from '../../schemas/inputs.js';
import { IdentitySchema, LeadSchema } from '../../schemas/resources.js';
import { IdentityUpsertInput } from '../../services/tenant/identity-batch.js';
import { MAX_BATCH } from '../../services/tenant/lead-batch.js';

const CreateOperation = Type.Object(
  { op: Type.Literal('create'), body: LeadCreateInput },
  { additionalProperties: false, description: 'creates a lead, as POST /leads does' },
);
const UpdateOperation = Type.Object(
  { op: Type.Literal('update'), id: Uuid({ description: 'a lead of your workspace' }), body: LeadUpdateInput },
  { additionalProperties: false, description: 'updates a lead, as PATCH /leads/{id} with application/json does' },
);

export const LeadBatchBody = Type.Object(
  { operations: Type.Array(Type.Union([CreateOperation, UpdateOperation]), { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

const Outcome = Type.Union([Type.Literal('created'), Type.Literal('updated')]);

export const LeadBatchEnvelope = Type.Object(
  { data: Type.Array(Type.Object({ outcome: Outcome, data: Ref(LeadSchema) }, { additionalProperties: false })) },
  { additionalProperties: false },
);

export const IdentityBatchBody = Type.Object(
  { identities: Type.Array(IdentityUpsertInput, { minItems: 1, maxItems: MAX_BATCH }) },
  { additionalProperties: false },
);

export const IdentityBatchEnvelope = Type.Object(
  { data: Type.Array(Type.Object({ outcome: Outcome, data: Ref(IdentitySchema) }, { additionalProperties: false })) },
  { additionalProperties: false },
);
