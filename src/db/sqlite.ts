/**
 * The embedded store: Kysely over better-sqlite3, configured for durability
 * (WAL, synchronous=FULL: CONTRACT C2.4) and for speed under the query layer.
 *
 * Kysely prepares a new statement for every query; preparing costs several times
 * what a point read does, so `prepare` is served from a bounded cache keyed by
 * the SQL text. Rows are read as arrays and made into objects here: building
 * them in JavaScript costs less than half of what better-sqlite3's objects
 * cost (a page of 50 leads: about 125 against 310 µs; BENCHMARKS.md). Write transactions begin IMMEDIATE, so that a writer waits for
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
import type { DirectRunner } from './query-templates.js';
import type { Schema } from './schema.js';
import { sqliteBulk } from './sqlite-bulk.js';
import type { DeferredFlush } from './group-commit.js';
import { JOURNAL_SIZE_LIMIT_BYTES, ROOM_BYTES, startCheckpointer, type Checkpointer } from './sqlite-checkpointer.js';
import { registerSyncRead } from './sync-read.js';
import { walFlusher } from './wal-flush.js';
import { WriteHealth } from './write-health.js';

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

/**
 * A statement that tells the write health of a storage failure (and of a
 * successful commit). Failures are rethrown unchanged, so the original
 * SQLITE_FULL or SQLITE_IOERR reaches the error handler and the log.
 */
function observed(statement: BetterSqlite3.Statement, sql: string, health: WriteHealth): SqliteStatement {
  const commit = /^\s*(commit|end)\b/i.test(sql);
  const begin = /^\s*begin\b/i.test(sql);
  const writeBegin = begin && /\b(immediate|exclusive)\b/i.test(sql);
  const guard = <T>(work: () => T): T => {
    try {
      const result = work();
      if (begin) health.began(writeBegin);
      else if (commit) health.committed();
      return result;
    } catch (error) {
      health.observe(error);
      throw error;
    }
  };
  if (!statement.reader) {
    return {
      reader: false,
      all: (parameters: ReadonlyArray<unknown>) => guard(() => statement.all(parameters)),
      run: (parameters: ReadonlyArray<unknown>) => guard(() => statement.run(parameters)),
      iterate: (parameters: ReadonlyArray<unknown>) => statement.iterate(parameters),
    } as unknown as SqliteStatement;
  }
  statement.raw(true);
  const toRow = rowMaker(statement.columns().map((column) => column.name));
  return {
    reader: true,
    all: (parameters: ReadonlyArray<unknown>) => guard(() => (statement.all(parameters) as unknown[][]).map(toRow)),
    run: (parameters: ReadonlyArray<unknown>) => guard(() => statement.run(parameters)),
    iterate: function* (parameters: ReadonlyArray<unknown>) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  } as unknown as SqliteStatement;
}

/** An object per row with the statement's column names (a later column of the same name wins, as in better-sqlite3's own objects). */
function rowMaker(names: readonly string[]): (values: unknown[]) => Record<string, unknown> {
  const count = names.length;
  return (values) => {
    const row: Record<string, unknown> = {};
    for (let index = 0; index < count; index += 1) row[names[index] as string] = values[index];
    return row;
  };
}

class CachingDatabase implements SqliteDatabase {
  readonly #statements = new Map<string, SqliteStatement>();
  /** whether Kysely holds the connection (its driver's mutex: a query or a transaction under way) */
  held = false;

  constructor(
    readonly raw: BetterSqlite3.Database,
    readonly health: WriteHealth,
  ) {}

  prepare(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = observed(this.raw.prepare(sql), sql, this.health);
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) {
        const oldest = this.#statements.keys().next().value as string;
        this.#statements.delete(oldest);
      }
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /** A read run now if the connection is free (sync-read.ts); undefined otherwise, and for writes. */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined {
    if (this.held || !this.raw.open || this.raw.inTransaction) return undefined;
    const statement = this.prepare(sql);
    return statement.reader ? (statement.all(parameters) as unknown[]) : undefined;
  }

  close(): void {
    this.#statements.clear();
    if (this.raw.open) {
      try {
        this.raw.pragma('optimize');
      } catch {
        // a full disk: closing matters more than statistics
      }
      this.raw.close();
    }
  }
}

class ImmediateSqliteDriver extends SqliteDriver {
  constructor(private readonly database: CachingDatabase) {
    super({ database });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.database.held = true;
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    this.database.held = false;
    await super.releaseConnection();
  }

  override async beginTransaction(connection: DatabaseConnection, settings?: TransactionSettings): Promise<void> {
    const mode = settings?.accessMode === 'read only' ? 'begin deferred' : 'begin immediate';
    await connection.executeQuery(CompiledQuery.raw(mode));
  }

  /**
   * On a full disk or an I/O error SQLite may roll the transaction back by
   * itself; a second rollback would fail with "cannot rollback - no
   * transaction is active" and that error would replace the real one.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.database.raw.inTransaction) return;
    await super.rollbackTransaction(connection);
  }
}

class LeadlightSqliteDialect extends SqliteDialect {
  constructor(private readonly database: CachingDatabase) {
    super({ database });
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.database);
  }
}

/** how long the readiness probe waits for the checkpoint it asks for (/readyz answers within about 2 s) */
const PROBE_CHECKPOINT_MS = 1000;

/** what a write may need: room on the volume, and pages below SQLite's max_page_count */
function roomToGrow(raw: BetterSqlite3.Database, filename: string): boolean {
  const pageSize = raw.pragma('page_size', { simple: true }) as number;
  const pages = raw.pragma('page_count', { simple: true }) as number;
  const maxPages = raw.pragma('max_page_count', { simple: true }) as number;
  if ((maxPages - pages) * pageSize < ROOM_BYTES) return false;
  if (filename === ':memory:') return true;
  const volume = fs.statfsSync(path.dirname(filename));
  return volume.bavail * volume.bsize >= ROOM_BYTES;
}

export interface OpenedSqlite {
  db: Kysely<Schema>;
  raw: BetterSqlite3.Database;
  bulk: ReturnType<typeof sqliteBulk>;
  /** stops background work that holds its own connection; awaited before the database closes */
  stopBackground(): Promise<void>;
  /** whether writes fail (full disk, I/O errors) */
  health: WriteHealth;
  /** while writes fail: a checkpoint if there is room for it, then a tiny write, and room for writes; true once both */
  probeWrites(): Promise<boolean>;
  /** with synchronous=FULL on a file: the log's sync, for group commits that commit without it (wal-flush.ts) */
  deferredFlush: DeferredFlush | undefined;
  /** SQL run at once on the connection, through the statement cache: for the group commit's open transaction only (query-templates.ts) */
  direct: DirectRunner;
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
  raw.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
  let checkpointer: Checkpointer | undefined;
  if (options.backgroundCheckpoints === true && options.filename !== ':memory:') {
    raw.pragma('wal_autocheckpoint = 0');
    checkpointer = startCheckpointer(options.filename);
  }
  const health = new WriteHealth(() => roomToGrow(raw, options.filename));
  const caching = new CachingDatabase(raw, health);
  const db = new Kysely<Schema>({ dialect: new LeadlightSqliteDialect(caching) });
  const direct: DirectRunner = (sql, parameters) => {
    const statement = caching.prepare(sql);
    if (statement.reader) return statement.all(parameters) as unknown[];
    statement.run(parameters);
    return [];
  };
  registerSyncRead(db, (sql, parameters) => caching.readNow(sql, parameters));
  const probeWrites = async (): Promise<boolean> => {
    if (health.failure === undefined) return true;
    if (checkpointer !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      const state = await Promise.race([
        checkpointer.checkpointNow(),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), PROBE_CHECKPOINT_MS))),
      ]);
      clearTimeout(timer);
      health.checkpointShort((state ?? checkpointer.state).shortBytes);
    }
    // never inside a transaction of the service's (they span awaits on this connection)
    if (!raw.open || raw.inTransaction) return health.failure === undefined;
    try {
      const version = raw.pragma('user_version', { simple: true }) as number;
      raw.exec(`begin immediate; pragma user_version = ${version}; commit`);
      // a tiny write fits in pages already there: room to grow is what writes need
      if (!roomToGrow(raw, options.filename)) return false;
      health.succeeded();
      return true;
    } catch (error) {
      if (raw.inTransaction) raw.exec('rollback');
      health.observe(error);
      return false;
    }
  };
  const flusher = (options.synchronous ?? 'FULL') === 'FULL' && options.filename !== ':memory:' ? walFlusher(options.filename) : undefined;
  const deferredFlush: DeferredFlush | undefined = flusher && {
    flush: () =>
      flusher.flush().catch((error: unknown) => {
        health.observe(error);
        throw error;
      }),
    settled: () => flusher.settled(),
  };
  const stopBackground = async () => {
    await checkpointer?.stop();
    await flusher?.close();
  };
  return { db, raw, bulk: sqliteBulk(db, raw), health, probeWrites, deferredFlush, direct, stopBackground };
}
