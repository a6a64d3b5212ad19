/**
 * The filters of the lead list (CONTRACT C3.11) as SQL, shared by the page
 * and its exact total. Every statement is a compiled template per shape
 * (which filters are present), with placeholders for the values.
 */
import type { SelectQueryBuilder } from 'kysely';
import { param } from '../../db/query-templates.js';
import type { Schema } from '../../db/schema.js';
import type { TenantScope } from '../scope/tenant-scope.js';

export interface LeadFilters {
  source?: string;
  code?: string;
  /** exclusive lower bound, canonical instant text */
  createdAfter?: string;
  /** exclusive upper bound, canonical instant text */
  createdBefore?: string;
}

/** Which filters a query has: each shape is one template. */
export function shapeOf(filters: LeadFilters): string {
  return [
    filters.source === undefined ? '' : 's',
    filters.code === undefined ? '' : 'c',
    filters.createdAfter === undefined ? '' : 'a',
    filters.createdBefore === undefined ? '' : 'b',
  ].join('');
}

/** The values of the placeholders of `matching`. */
export function filterValues(filters: LeadFilters): Record<string, unknown> {
  return { source: filters.source, code: filters.code, after: filters.createdAfter, before: filters.createdBefore };
}

/** The workspace's leads matching `filters`, with param() placeholders for the values. */
export function matching(scope: TenantScope, filters: LeadFilters): SelectQueryBuilder<Schema, 'leads', object> {
  let query = scope.selectFrom('leads');
  if (filters.source !== undefined) query = query.where('source', '=', param('source'));
  if (filters.code !== undefined) query = query.where('code', '=', param('code'));
  if (filters.createdAfter !== undefined) query = query.where('created_at', '>', param('after'));
  if (filters.createdBefore !== undefined) query = query.where('created_at', '<', param('before'));
  return query;
}
