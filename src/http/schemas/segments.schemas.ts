/**
 * Schemas of the dashboard's segment builder routes (CONTRACT C9.6): a
 * draft rule's match count, the values a condition may choose from, and
 * lists as the dashboard shows them, with their member counts. The rule is
 * a JSON object here; its grammar is checked by the service against the
 * rule's own schema (src/intelligence/segments), which names what is wrong.
 */
import { Type } from '@sinclair/typebox';
import { JsonObjectSchema, Nullable } from '../../schemas/fields.js';
import { VisitorListSchema } from '../../schemas/resources.js';
import { COMPANY_FIELDS } from '../../intelligence/segments/grammar.js';
import { DataEnvelope, ListEnvelope } from './common.js';

const Rule = Type.Object({}, { additionalProperties: true, description: 'a segment rule (docs/intelligence.md, "Segments")' });

export const DraftCountBody = Type.Object({ rule: Rule }, { additionalProperties: false });
export const DraftCountEnvelope = DataEnvelope(
  Type.Object(
    {
      count: Type.Integer({ minimum: 0, description: 'people the rule matches among those looked at' }),
      examined: Type.Integer({ minimum: 0, description: 'people looked at, newest first (bounded: docs/segments.md)' }),
      complete: Type.Boolean({ description: 'whether every person of the workspace was looked at' }),
    },
    { additionalProperties: false },
  ),
);

export const SuggestionQuery = Type.Object(
  {
    of: Type.Union(
      [
        Type.Literal('traits'),
        Type.Literal('country'),
        Type.Literal('city'),
        ...COMPANY_FIELDS.map((field) => Type.Literal(field)),
        Type.String({ pattern: '^trait\\.[^\\s]{1,100}$' }),
      ],
      { description: 'traits (the trait keys), trait.<key>, country, city or company.<field>' },
    ),
  },
  { additionalProperties: false },
);
export const SuggestionEnvelope = DataEnvelope(
  Type.Array(Type.Object({ value: Type.String(), count: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }), { maxItems: 20 }),
);

const members = { members: Type.Integer({ minimum: 0, description: 'how many identities the list holds' }) };
export const CountedListListEnvelope = ListEnvelope(Type.Object({ ...VisitorListSchema.properties, ...members }, { additionalProperties: false }));
export const ListDetailEnvelope = DataEnvelope(
  Type.Object({ ...VisitorListSchema.properties, rule: Nullable(JsonObjectSchema()), ...members }, { additionalProperties: false }),
);
