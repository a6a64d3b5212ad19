/**
 * Request and response schemas of the lead routes (spec: Endpoints; CONTRACT
 * C4.1, C4.2).
 */
import { Type } from '@sinclair/typebox';
import { Ref } from '../../schemas/fields.js';
import { LeadCreateInput, LeadUpdateInput } from '../../schemas/inputs.js';
import { LeadSchema } from '../../schemas/resources.js';
import { INSTANT_FORMAT } from '../validation.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

export const CreatedAfter = Type.String({
  format: INSTANT_FORMAT,
  description: 'only items created strictly after this instant (ISO 8601; a date alone is 00:00Z)',
});
export const CreatedBefore = Type.String({
  format: INSTANT_FORMAT,
  description: 'only items created strictly before this instant (ISO 8601; a date alone is 00:00Z)',
});

export const LeadListQuery = Type.Object(
  {
    ...PageQuery,
    source: Type.Optional(Type.String({ description: 'exact source' })),
    code: Type.Optional(Type.String({ description: 'exact code' })),
    created_after: Type.Optional(CreatedAfter),
    created_before: Type.Optional(CreatedBefore),
    sort: Type.Optional(
      Type.Union([Type.Literal('-created_at'), Type.Literal('created_at'), Type.Literal('-score'), Type.Literal('score')], {
        description:
          'the order: `-created_at` newest first (default), `created_at` oldest first, `-score` highest `summary.score` first, `score` lowest first. Ties are broken by id in the same direction. Leads whose summary has no numeric `score` come after every scored lead, in both directions (then by id).',
      }),
    ),
  },
  { additionalProperties: true },
);

/** The body of POST /leads: schemas/inputs.ts, shared with the import. */
export const LeadCreateBody = LeadCreateInput;

export const LEAD_CREATE_READ_ONLY = ['id', 'workspace_id', 'created_at', 'updated_at'] as const;

export const LeadUpdateBody = LeadUpdateInput;

export const LEAD_UPDATE_READ_ONLY = [
  'id',
  'workspace_id',
  'visitor_id',
  'code',
  'source',
  'created_at',
  'updated_at',
  'identity_id',
  'session_id',
] as const;

export const LeadEnvelope = DataEnvelope(Ref(LeadSchema));
export const LeadListEnvelope = ListEnvelope(Ref(LeadSchema));
