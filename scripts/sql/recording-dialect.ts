/**
 * A Kysely dialect that runs nothing: it compiles statements exactly as the
 * real store would (SQLite's or PostgreSQL's compiler) and records them, so
 * the SQL of every repository method can be written down without a database.
 * Reads get one stand-in row whose columns hold plausible values, so that
 * methods that read before they write (a count, then a page) go on to their
 * next statement.
 */
import {
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { StoreKind } from '../../src/db/codec.js';
import type { Schema } from '../../src/db/schema.js';

export const STAND_IN_ID = '0190a0a0-0000-7000-8000-000000000001';

const JSON_COLUMNS = new Set(['properties', 'location', 'summary', 'traits', 'personality', 'features']);
const NUMBER_COLUMNS = new Set(['total', 'count', 'score', 'learning_percentage', 'is_favorite']);

function standIn(column: string): unknown {
  if (column === 'id' || column.endsWith('_id')) return STAND_IN_ID;
  if (NUMBER_COLUMNS.has(column)) return 0;
  if (JSON_COLUMNS.has(column)) return '{}';
  if (column.endsWith('_at') || column === 'first_seen' || column === 'last_seen') return '2026-01-01T00:00:00.000Z';
  return null;
}

const STAND_IN_ROW = new Proxy({} as Record<string, unknown>, {
  get: (_target, property) => (typeof property === 'string' ? standIn(property) : undefined),
});

export interface RecordedStatement {
  query: CompiledQuery;
}

class RecordingConnection implements DatabaseConnection {
  constructor(private readonly recorded: RecordedStatement[]) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.recorded.push({ query });
    const reads = /^\s*(select|with)\b/i.test(query.sql) || /\breturning\b/i.test(query.sql);
    return { rows: (reads ? [STAND_IN_ROW] : []) as R[], numAffectedRows: 1n };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('the recording dialect does not stream');
  }
}

class RecordingDriver implements Driver {
  readonly #connection: RecordingConnection;

  constructor(recorded: RecordedStatement[]) {
    this.#connection = new RecordingConnection(recorded);
  }

  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {}
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection(): Promise<void> {}
  async destroy(): Promise<void> {}
}

/** A Kysely instance of `kind` that records what it would run into `recorded`. */
export function recordingDatabase(kind: StoreKind, recorded: RecordedStatement[]): Kysely<Schema> {
  const dialect: Dialect =
    kind === 'sqlite'
      ? {
          createAdapter: () => new SqliteAdapter(),
          createDriver: () => new RecordingDriver(recorded),
          createIntrospector: (db) => new SqliteIntrospector(db),
          createQueryCompiler: () => new SqliteQueryCompiler(),
        }
      : {
          createAdapter: () => new PostgresAdapter(),
          createDriver: () => new RecordingDriver(recorded),
          createIntrospector: (db) => new PostgresIntrospector(db),
          createQueryCompiler: () => new PostgresQueryCompiler(),
        };
  return new Kysely<Schema>({ dialect });
}
