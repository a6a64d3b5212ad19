/**
 * What a search (CONTRACT C11.3) may name, per resource: the columns a client
 * sees, with their kind (which operators and values fit them), and the JSON
 * columns whose inside is reached by `properties.<path>`, `traits.<path>` or
 * `summary.<path>`. Nothing else reaches SQL: a field is looked up here, and
 * a path's segments are checked against JSON_SEGMENT before they become a
 * bound parameter.
 */

import type { ColumnKind, SearchTable } from '../../../repositories/tenant/search-filter.js';

export type SearchResource = SearchTable;

export interface ColumnField {
  column: string;
  kind: ColumnKind;
  /** whether the column can be null (sorting reads null as the empty text) */
  nullable: boolean;
}

const text = (column: string, nullable = true): ColumnField => ({ column, kind: 'text', nullable });
const uuid = (column: string, nullable = true): ColumnField => ({ column, kind: 'uuid', nullable });
const instant = (column: string): ColumnField => ({ column, kind: 'instant', nullable: false });

export const COLUMN_FIELDS: Record<SearchResource, Record<string, ColumnField>> = {
  leads: {
    id: uuid('id', false),
    visitor_id: uuid('visitor_id', false),
    code: text('code'),
    source: text('source'),
    created_at: instant('created_at'),
    updated_at: instant('updated_at'),
    identity_id: uuid('identity_id'),
    session_id: uuid('session_id'),
    company_id: uuid('company_id'),
  },
  identities: {
    id: uuid('id', false),
    visitor_id: uuid('visitor_id', false),
    email: text('email'),
    name: text('name'),
    first_seen: instant('first_seen'),
    last_seen: instant('last_seen'),
    ip: text('ip'),
    city: text('city'),
    country: text('country'),
    is_favorite: { column: 'is_favorite', kind: 'bool', nullable: false },
    created_at: instant('created_at'),
  },
  companies: {
    id: uuid('id', false),
    name: text('name', false),
    domain: text('domain'),
    description: text('description'),
    employees: text('employees'),
    main_industry: text('main_industry'),
    created_at: instant('created_at'),
  },
};

/** The JSON columns of each resource, searched by path. */
export const JSON_FIELDS: Record<SearchResource, readonly string[]> = {
  leads: ['properties', 'location', 'summary'],
  identities: ['traits'],
  companies: [],
};

/** Fields a search may sort by: the columns that are text or instants (ids break ties). */
export function sortable(resource: SearchResource): string[] {
  return Object.entries(COLUMN_FIELDS[resource])
    .filter(([, field]) => field.kind === 'text' || field.kind === 'instant')
    .map(([name]) => name);
}

/** A key of a JSON path: letters, digits, `_` and `-`, at most 64; a path has at most 8. */
export const JSON_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_PATH_SEGMENTS = 8;
