/**
 * A search's conditions as SQL (CONTRACT C11.3): any of the groups, each all
 * of its conditions, on the columns and JSON paths a checked SearchQuery
 * names (services/tenant/record-search/search-query.ts checks them against
 * search-fields.ts). Values are bound parameters; JSON paths go through the
 * codec (SQLite json_type/json_extract, PostgreSQL jsonb #> and #>>). A
 * condition is never NULL, so `neq` also matches rows without the value.
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { Codec, JsonScalarType } from '../../db/codec.js';
import type { Schema } from '../../db/schema.js';
import { containsPattern } from '../page.js';

export type SearchTable = 'leads' | 'identities' | 'companies';
export type ColumnKind = 'text' | 'uuid' | 'instant' | 'bool';
export type Scalar = string | number | boolean;
export type SearchOperator = 'eq' | 'neq' | 'in' | 'contains' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';

/** What a condition compares: a column, or a path inside a JSON column. */
export type SearchTarget = { kind: 'column'; column: string; type: ColumnKind } | { kind: 'json'; column: string; path: readonly string[] };

export type SearchCondition =
  | { target: SearchTarget; op: 'exists'; value: boolean }
  | { target: SearchTarget; op: 'in'; value: Scalar[] }
  | { target: SearchTarget; op: Exclude<SearchOperator, 'exists' | 'in'>; value: Scalar };

export interface SearchSort {
  field: string;
  column: string;
  order: 'asc' | 'desc';
  /** null reads as the empty text */
  nullable: boolean;
}

type Builder = ExpressionBuilder<Schema, SearchTable>;
type Bool = Expression<SqlBool>;

const COMPARE = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function columnCondition(eb: Builder, codec: Codec, condition: SearchCondition, column: string, type: ColumnKind): Bool {
  const ref = sql.ref(column);
  const bind = (value: Scalar) => (type === 'bool' ? codec.bool(value as boolean) : value);
  switch (condition.op) {
    case 'exists':
      return condition.value ? sql<SqlBool>`${ref} is not null` : sql<SqlBool>`${ref} is null`;
    case 'in':
      return sql<SqlBool>`${ref} in (${sql.join(condition.value.map(bind))})`;
    case 'neq':
      return eb.or([sql<SqlBool>`${ref} is null`, sql<SqlBool>`${ref} <> ${bind(condition.value)}`]);
    case 'contains':
      return sql<SqlBool>`lower(${ref}) like ${containsPattern(String(condition.value).toLowerCase())} escape '\\'`;
    default:
      return sql<SqlBool>`${ref} ${sql.raw(COMPARE[condition.op])} ${bind(condition.value)}`;
  }
}

const scalarType = (value: Scalar): JsonScalarType => (typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string');

function jsonEquals(codec: Codec, column: string, path: readonly string[], value: Scalar): RawBuilder<SqlBool> {
  const bound = typeof value === 'boolean' ? codec.bool(value) : value;
  return sql<SqlBool>`coalesce(${codec.jsonScalar(column, path, scalarType(value))} = ${bound}, false)`;
}

function jsonCondition(eb: Builder, codec: Codec, condition: SearchCondition, column: string, path: readonly string[]): Bool {
  switch (condition.op) {
    case 'exists':
      return condition.value ? codec.jsonPresent(column, path) : sql<SqlBool>`not ${codec.jsonPresent(column, path)}`;
    case 'eq':
      return jsonEquals(codec, column, path, condition.value);
    case 'neq':
      return sql<SqlBool>`not ${jsonEquals(codec, column, path, condition.value)}`;
    case 'in':
      return eb.or(condition.value.map((value) => jsonEquals(codec, column, path, value)));
    case 'contains': {
      const pattern = containsPattern(String(condition.value).toLowerCase());
      return sql<SqlBool>`coalesce(lower(${codec.jsonScalar(column, path, 'string')}) like ${pattern} escape '\\', false)`;
    }
    default: {
      const value = codec.jsonScalar(column, path, scalarType(condition.value));
      return sql<SqlBool>`coalesce(${value} ${sql.raw(COMPARE[condition.op])} ${condition.value}, false)`;
    }
  }
}

/** The WHERE of a search (at least one group). */
export function searchWhere(eb: Builder, codec: Codec, groups: readonly (readonly SearchCondition[])[]): Bool {
  return eb.or(
    groups.map((group) =>
      eb.and(
        group.map((condition) =>
          condition.target.kind === 'column'
            ? columnCondition(eb, codec, condition, condition.target.column, condition.target.type)
            : jsonCondition(eb, codec, condition, condition.target.column, condition.target.path),
        ),
      ),
    ),
  );
}

/** What a search sorts by: the column, null read as the empty text, so that keyset positions always compare. */
export function sortExpression(sort: SearchSort): RawBuilder<string> {
  return sort.nullable ? sql<string>`coalesce(${sql.ref(sort.column)}, '')` : sql<string>`${sql.ref(sort.column)}`;
}

/** Rows after a keyset position in the sort's order (ties by id, in the same order). */
export function afterPosition(sort: SearchSort, at: string, id: string): RawBuilder<SqlBool> {
  const direction = sort.order === 'asc' ? sql.raw('>') : sql.raw('<');
  return sql<SqlBool>`(${sortExpression(sort)}, ${sql.ref('id')}) ${direction} (${at}, ${id})`;
}
