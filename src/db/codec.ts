/**
 * What differs between the two stores at the value level, in one place:
 * how booleans and JSON are written and read back, how counts arrive, and the
 * SQL of an atomic RFC 7396 merge patch. Repositories hold no dialect branches
 * of their own; they ask the codec.
 */
import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { StoredJson, type JsonObject } from '../schemas/json.js';

export type StoreKind = 'sqlite' | 'postgres';

export interface Codec {
  readonly kind: StoreKind;
  bool(value: boolean): number | boolean;
  readBool(value: unknown): boolean;
  /** JSON text to write; StoredJson (an import's rows: parsed-wire.ts) is written as it is */
  json(value: JsonObject | StoredJson): string;
  nullableJson(value: JsonObject | StoredJson | null): string | null;
  readJson(value: unknown): JsonObject;
  readNullableJson(value: unknown): JsonObject | null;
  /** the stored text of a JSON column, unparsed */
  storedJson(value: unknown): StoredJson;
  storedNullableJson(value: unknown): StoredJson | null;
  count(value: unknown): number;
  /** `column` merged with the JSON text `patch` by RFC 7396, evaluated inside the UPDATE. */
  mergePatch(column: string, patch: string): RawBuilder<string>;
  /** the UTC day (YYYY-MM-DD) of a timestamp column */
  utcDay(column: string): RawBuilder<string>;
  /** `query` locking the rows it reads until the transaction ends (PostgreSQL); SQLite's writer lock already serializes */
  lockRows<Q extends SelectQueryBuilder<never, never, object>>(query: Q): Q;
  /**
   * The value at `path` inside the JSON column when it is of `type`, else
   * NULL (C11.3 search). The path is a bound parameter, never SQL text; its
   * keys are checked by the caller (search-fields.ts).
   */
  jsonScalar(column: string, path: readonly string[], type: JsonScalarType): RawBuilder<unknown>;
  /** whether `path` holds a value other than JSON null */
  jsonPresent(column: string, path: readonly string[]): RawBuilder<boolean>;
}

export type JsonScalarType = 'string' | 'number' | 'boolean';

/** SQLite's JSON path: every key quoted (keys are letters, digits, _ and -). */
const sqlitePath = (path: readonly string[]) => `$${path.map((key) => `."${key}"`).join('')}`;
/** PostgreSQL's text[] path literal: every key quoted. */
const postgresPath = (path: readonly string[]) => `{${path.map((key) => `"${key}"`).join(',')}}`;

function parseJson(value: unknown): JsonObject {
  // Rows hold JSON text on both stores (PostgreSQL's jsonb parser is replaced
  // by text in postgres.ts), so JSON is decoded here or kept as StoredJson.
  return (typeof value === 'string' ? JSON.parse(value) : value) as JsonObject;
}

const common = {
  json: (value: JsonObject | StoredJson) => (value instanceof StoredJson ? value.text : JSON.stringify(value)),
  nullableJson: (value: JsonObject | StoredJson | null) => (value === null ? null : value instanceof StoredJson ? value.text : JSON.stringify(value)),
  readJson: parseJson,
  readNullableJson: (value: unknown) => (value === null || value === undefined ? null : parseJson(value)),
  storedJson: (value: unknown) => new StoredJson(value as string),
  storedNullableJson: (value: unknown) => (value === null || value === undefined ? null : new StoredJson(value as string)),
  count: (value: unknown) => Number(value),
};

export const sqliteCodec: Codec = {
  kind: 'sqlite',
  ...common,
  bool: (value) => (value ? 1 : 0),
  readBool: (value) => value === 1 || value === true,
  mergePatch: (column, patch) => sql<string>`json_patch(coalesce(${sql.ref(column)}, '{}'), ${patch})`,
  utcDay: (column) => sql<string>`substr(${sql.ref(column)}, 1, 10)`,
  lockRows: (query) => query,
  jsonScalar: (column, path, type) => {
    const at = sqlitePath(path);
    const kind = sql`json_type(${sql.ref(column)}, ${at})`;
    if (type === 'boolean') return sql`case ${kind} when 'true' then 1 when 'false' then 0 end`;
    const test = type === 'string' ? sql`${kind} = 'text'` : sql`${kind} in ('integer', 'real')`;
    return sql`case when ${test} then json_extract(${sql.ref(column)}, ${at}) end`;
  },
  jsonPresent: (column, path) => sql<boolean>`coalesce(json_type(${sql.ref(column)}, ${sqlitePath(path)}), 'null') <> 'null'`,
};

export const postgresCodec: Codec = {
  kind: 'postgres',
  ...common,
  bool: (value) => value,
  readBool: (value) => value === true,
  mergePatch: (column, patch) => sql<string>`leadlight_merge_patch(${sql.ref(column)}, ${patch}::jsonb)`,
  utcDay: (column) => sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD')`,
  lockRows: (query) => query.forUpdate() as typeof query,
  jsonScalar: (column, path, type) => {
    const at = postgresPath(path);
    const kind = sql`jsonb_typeof(${sql.ref(column)} #> ${at}::text[])`;
    const value = sql`${sql.ref(column)} #>> ${at}::text[]`;
    if (type === 'boolean') return sql`case when ${kind} = 'boolean' then (${value})::boolean end`;
    if (type === 'number') return sql`case when ${kind} = 'number' then (${value})::numeric end`;
    return sql`case when ${kind} = 'string' then ${value} end`;
  },
  jsonPresent: (column, path) => sql<boolean>`coalesce(jsonb_typeof(${sql.ref(column)} #> ${postgresPath(path)}::text[]), 'null') <> 'null'`,
};
