/**
 * The body of the search routes (CONTRACT C11.3), as the document shows it.
 * The service checks it again against the resource's fields
 * (services/tenant/record-search/search-query.ts), so that a problem names the
 * offending condition (`filter.any[1].all[2].op`).
 */
import { Type } from '@sinclair/typebox';
import { MAX_CONDITIONS, MAX_GROUPS, MAX_IN_VALUES, MAX_SEARCH_LIMIT, SEARCH_OPERATORS } from '../../services/tenant/record-search/search-query.js';

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

const Condition = Type.Object(
  {
    field: Type.String({ description: 'a field of the resource, or `properties.<path>`, `location.<path>`, `summary.<path>` (leads), `traits.<path>` (identities): keys of letters, digits, _ and -, joined by dots' }),
    op: Type.Union(SEARCH_OPERATORS.map((op) => Type.Literal(op))),
    value: Type.Union([Scalar, Type.Array(Scalar, { minItems: 1, maxItems: MAX_IN_VALUES })], {
      description: 'a string, number or boolean; an array for `in`; true or false for `exists`',
    }),
  },
  { additionalProperties: false },
);

export const SearchBody = Type.Object(
  {
    filter: Type.Optional(
      Type.Object(
        {
          any: Type.Array(
            Type.Object({ all: Type.Array(Condition, { minItems: 1, maxItems: MAX_CONDITIONS }) }, { additionalProperties: false }),
            { minItems: 1, maxItems: MAX_GROUPS },
          ),
        },
        { additionalProperties: false, description: 'rows matching any group, a group matching all its conditions; absent: every row' },
      ),
    ),
    sort: Type.Optional(
      Type.Array(
        Type.Object(
          { field: Type.String(), order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])) },
          { additionalProperties: false },
        ),
        { maxItems: 1, description: 'one text or date field; ties are broken by id in the same order; default created_at descending' },
      ),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_LIMIT, description: 'default 50' })),
    cursor: Type.Optional(Type.String({ description: "the cursor of the previous answer's Link rel=next" })),
  },
  { additionalProperties: false },
);

export const SearchQueryString = Type.Object(
  { cursor: Type.Optional(Type.String({ description: "the next page: the URL of the answer's Link rel=next, with the same body" })) },
  { additionalProperties: false },
);
