/**
 * Schemas every route shares: the error body, the success envelopes, the
 * paging parameters (CONTRACT C3.9) and the error responses of the OpenAPI
 * document.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { Page, PageResult } from '../../repositories/page.js';
import { Ref } from '../../schemas/fields.js';
import { boundAfter, boundBefore } from '../../schemas/instants.js';
import { PaginationSchema, type Pagination } from '../../schemas/resources.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const ErrorSchema = Type.Object(
  {
    error: Type.String({ description: 'machine-readable code' }),
    message: Type.String({ description: 'human-readable text' }),
    details: Type.Optional(
      Type.Unsafe<Record<string, unknown>>(Type.Object(
        {
          fields: Type.Optional(
            Type.Record(Type.String(), Type.String(), {
              description: '400: each offending body field (`traits.plan`, `events[2].url`; `body` for the body as a whole) and what is wrong with it',
            }),
          ),
          parameters: Type.Optional(
            Type.Record(Type.String(), Type.String(), {
              description: '400: each offending query parameter (or header, such as `Idempotency-Key`) and what is wrong with it',
            }),
          ),
        },
        {
          additionalProperties: true,
          description:
            'extra context; a 400 names what it refuses under `fields` or `parameters` only; a 409 `conflict` names what conflicts under `conflict` (rule_exists, list_is_segment, last_admin, already_member, key_revoked) with the ids involved (`existing_id`, `list_id`, `user_id`, `key_id`) and the body fields under `fields`',
        },
      )),
    ),
  },
  { $id: 'Error', additionalProperties: false },
);

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request parameters or body (invalid_request)',
  401: 'Invalid or missing API key (unauthorized)',
  403: 'A referenced resource is not in your workspace (forbidden)',
  404: 'Not found, or not in your workspace (not_found)',
  413: 'Body larger than 1 MiB (payload_too_large)',
  409: "The resource's state forbids the change (conflict), or a request with this Idempotency-Key is still running; retry after Retry-After (idempotency_key_in_use)",
  415: 'Content-Type not accepted (unsupported_media_type)',
  422: 'This Idempotency-Key was used with another body or endpoint (idempotency_key_reused)',
  429: 'Rate limit exceeded (rate_limit_exceeded)',
  500: 'Internal error (internal_error)',
  503: 'Database unreachable (service_unavailable)',
};

/** What each error looks like, as the document shows it (CONTRACT C8.1; openapi.ts puts them in). */
export const ERROR_EXAMPLES: Record<number, Static<typeof ErrorSchema>> = {
  400: {
    error: 'invalid_request',
    message: 'query parameter limit must be at least 1',
    details: { parameters: { limit: 'must be at least 1' } },
  },
  401: { error: 'unauthorized', message: 'Invalid or missing API key' },
  403: { error: 'forbidden', message: 'access denied to requested resource', details: { field: 'company_id' } },
  404: { error: 'not_found', message: 'not found or does not belong to your workspace' },
  413: { error: 'payload_too_large', message: 'request body is larger than 1 MiB' },
  409: {
    error: 'idempotency_key_in_use',
    message: 'A request with this Idempotency-Key is still being processed; retry later',
    details: { retry_after: 1 },
  },
  415: { error: 'unsupported_media_type', message: 'Content-Type must be application/json' },
  422: { error: 'idempotency_key_reused', message: 'This Idempotency-Key was used with another request body or endpoint' },
  429: {
    error: 'rate_limit_exceeded',
    message: 'Rate limit of 1000 requests per minute exceeded; retry in 12 s',
    details: { retry_after: 12, limit: 1000, reset: 1772442860 },
  },
  500: { error: 'internal_error', message: 'Internal server error' },
  503: { error: 'service_unavailable', message: 'The database is unreachable; try again shortly' },
};

/** An error response of the OpenAPI document: the Error schema and what it means. */
export function errorResponse(status: number, description = ERROR_DESCRIPTIONS[status]): TSchema {
  return Type.Unsafe<Static<typeof ErrorSchema>>({ ...Ref(ErrorSchema), description });
}

/** Error responses for the OpenAPI document; every route can answer 401, 429, 500 and 503. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const responses: Record<number, TSchema> = {};
  for (const status of [...statuses, 401, 429, 500, 503]) responses[status] = errorResponse(status);
  return responses;
}

export function DataEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: item }, { additionalProperties: false });
}

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: Ref(PaginationSchema) }, { additionalProperties: false });
}

export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `page size, default ${DEFAULT_LIMIT}; above ${MAX_LIMIT} it is lowered to ${MAX_LIMIT}` }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'number of results to skip, default 0' }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'continue after the page that gave this cursor (from its Link rel="next" header); not with offset',
    }),
  ),
};

export function pageOf(query: { limit?: number; offset?: number }): Page {
  return { limit: Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT), offset: query.offset ?? 0 };
}

export function listBody<T>(result: PageResult<T>, page: Page): { data: T[]; pagination: Pagination } {
  return { data: result.items, pagination: { limit: page.limit, offset: page.offset, total: result.total } };
}

export const IdParams = Type.Object({ id: Type.String({ description: 'UUID of the resource' }) });

/** The strict created_at bounds of a list query, as canonical instants (CONTRACT C3.11). */
export function createdRange(query: { created_after?: string; created_before?: string }): {
  createdAfter?: string;
  createdBefore?: string;
} {
  return {
    createdAfter: query.created_after === undefined ? undefined : (boundAfter(query.created_after) ?? undefined),
    createdBefore: query.created_before === undefined ? undefined : (boundBefore(query.created_before) ?? undefined),
  };
}
