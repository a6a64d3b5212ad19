/**
 * The embedded store: Kysely over better-sqlite3, configured for durability
 * (WAL, synchronous=FULL: CONTRACT C2.4) and for speed under the query layer.
 *
 * Kysely prepares a new statement for every query; preparing costs several times
 * what a point read does, so `prepare` is served from a bounded cache keyed by
 * the SQL text. Write transactions begin IMMEDIATE, so that a writer waits for
 * the lock (busy_timeout) instead of failing when another process (the CLI, a
 * second server) writes at the same time.
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely';
import type { Schema } from './schema.js';
import { startCheckpointer, type Checkpointer } from './sqlite-checkpointer.js';

const STATEMENT_CACHE_SIZE = 512;

export interface SqliteOptions {
  filename: string;
  /** defaults to FULL: an acknowledged write survives a power loss (C2.4) */
  synchronous?: 'FULL' | 'NORMAL';
  /** checkpoint from a worker thread instead of the committing connection (a long-running server) */
  backgroundCheckpoints?: boolean;
  /** page cache size; large transactions (imports) that outgrow it write pages to the WAL repeatedly */
  cacheMiB?: number;
}

class CachingDatabase implements SqliteDatabase {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();

  constructor(readonly raw: BetterSqlite3.Database) {}

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.raw.prepare(sql);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value as string;
        this.#statements.delete(oldest);
      }
      this.#statements.set(sql, statement);
    }
    return statement as unknown as SqliteStatement;
  }

  close(): void {
    this.#statements.clear();
    if (this.raw.open) {
      this.raw.pragma('optimize');
      this.raw.close();
    }
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const mode = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(mode));
  }
}

class LeadlightSqliteDialect extends SqliteDialect {
  constructor(private readonly database: SqliteDatabase) {
    super({ database });
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver({ database: this.database });
  }
}

export interface OpenedSqlite {
  db: Kysely<Schema>;
  raw: BetterSqlite3.Database;
  /** stops background work that holds its own connection; awaited before the database closes */
  stopBackground(): Promise<void>;
}

export function openSqlite(options: SqliteOptions): OpenedSqlite {
  if (options.filename !== ':memory:') {
    fs.mkdirSync(path.dirname(options.filename), { recursive: true });
  }
  const raw = new BetterSqlite3(options.filename);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  raw.pragma(`cache_size = -${(options.cacheMiB ?? 64) * 1024}`);
  raw.pragma('temp_store = MEMORY');
  let checkpointer: Checkpointer | undefined;
  if (options.backgroundCheckpoints === true && options.filename !== ':memory:') {
    raw.pragma('wal_autocheckpoint = 0');
    checkpointer = startCheckpointer(options.filename);
  }
  const db = new Kysely<Schema>({ dialect: new LeadlightSqliteDialect(new CachingDatabase(raw)) });
  return { db, raw, stopBackground: async () => checkpointer?.stop() };
}
