/**
 * Request and response schemas of the dashboard's search (CONTRACT C9.1):
 * `q` holds at least two characters besides surrounding spaces (one
 * character is a 400: it would match nearly everything and no index helps
 * it), and the answer is one list of people, companies and leads, each with
 * what the dashboard shows and the page it opens.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, Uuid } from '../../schemas/fields.js';

export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 100;

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: SEARCH_MIN_LENGTH,
      maxLength: SEARCH_MAX_LENGTH,
      description: 'the text to look for: at least two characters besides spaces, case-insensitive',
    }),
  },
  { additionalProperties: false },
);

const SearchHit = Type.Object(
  {
    type: Type.Union([Type.Literal('person'), Type.Literal('company'), Type.Literal('lead')]),
    id: Uuid(),
    label: Type.String({ description: 'what the result is called: a name, else an email; a company name; a lead code' }),
    detail: Nullable(Type.String({ description: 'what else matched or tells it apart: an email, a domain' })),
  },
  { additionalProperties: false },
);

export const SearchEnvelope = Type.Object({ data: Type.Array(SearchHit) }, { additionalProperties: false });
