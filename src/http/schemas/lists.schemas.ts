/**
 * Request and response schemas of the visitor list routes (CONTRACT C6.4).
 * A rule is a JSON object here; its grammar is checked by the service
 * against the rule's own JSON Schema (src/intelligence/segments/rule.ts),
 * which names what is wrong in the 400.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Ref, Uuid } from '../../schemas/fields.js';
import { IdentitySchema, VisitorListSchema } from '../../schemas/resources.js';
import { DataEnvelope, ListEnvelope, PageQuery } from './common.js';

export const VisitorListQuery = Type.Object({ ...PageQuery }, { additionalProperties: true });
export const VisitorListListEnvelope = ListEnvelope(Ref(VisitorListSchema));
export const VisitorListEnvelope = DataEnvelope(Ref(VisitorListSchema));
export const ListIdentitiesEnvelope = ListEnvelope(Ref(IdentitySchema));

const Rule = Type.Object({}, { additionalProperties: true, description: 'a segment rule (docs/intelligence.md, "Segments"); absent or null for a static list' });
const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  color: Type.Optional(Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB; absent on creation or null: a color of the fixed palette (README, "API notes")' }))),
  rule: Type.Optional(Nullable(Rule)),
};

export const ListCreateBody = Type.Object(fields, { additionalProperties: false });
export const ListUpdateBody = Type.Object({ ...fields, name: Type.Optional(fields.name) }, { additionalProperties: false });
export const ListRuleEnvelope = Type.Object({ data: Nullable(Rule) }, { additionalProperties: false });

export const ListMembersBody = Type.Object(
  { identity_ids: Type.Array(Uuid({ description: 'UUID of an identity of the workspace' }), { minItems: 1, maxItems: 100 }) },
  { additionalProperties: false },
);
export const ListMembersAddedEnvelope = Type.Object({ data: Type.Object({ added: Type.Integer() }, { additionalProperties: false }) }, { additionalProperties: false });
export const ListMemberParams = Type.Object({ id: Type.String(), identity_id: Type.String() });
