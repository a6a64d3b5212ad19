/**
 * Opens the store that DATABASE_URL names and hands out one object that the
 * rest of the program uses: the Kysely instance, the store's codec, migrations,
 * a readiness ping and an orderly close.
 */
import { CommitSignal } from './commit-signal.js';
import { Migrator, sql, type Kysely, type MigrationProvider, type Transaction } from 'kysely';
import type { DatabaseConfig } from '../config.js';
import { postgresCodec, sqliteCodec, type Codec, type StoreKind } from './codec.js';
import { MIGRATION_NAMES, migrations } from './migrations/index.js';
import type { DeferredFlush } from './group-commit.js';
import type { DirectRunner } from './query-templates.js';
import type { Copier } from './postgres-copy.js';
import { openPostgres } from './postgres.js';
import type { Schema } from './schema.js';
import { openSqlite } from './sqlite.js';
import type { WriteFailure } from './write-health.js';

/** Connections of the store, for /metrics. */
export interface PoolStats {
  /** connections open (SQLite: the one connection queries use) */
  connections: number;
  /** at most this many connections */
  max: number;
  /** PostgreSQL: connections open and unused */
  idle?: number;
  /** PostgreSQL: queries waiting for a connection */
  waiting?: number;
}

export const MIGRATION_TABLE = 'leadlight_migrations';

/** /readyz answers within this even when the database path is silent */
export const PING_TIMEOUT_MS = 2000;

export interface Database {
  readonly kind: StoreKind;
  readonly db: Kysely<Schema>;
  readonly codec: Codec;
  /** applies pending migrations; returns the names applied by this call */
  migrate(): Promise<string[]>;
  /** resolves when the store answers a trivial query; rejects when it does not within `timeoutMs` when given */
  ping(timeoutMs?: number): Promise<void>;
  poolStats(): PoolStats;
  /** SQLite: why writes fail right now (a full disk, I/O errors); undefined while they succeed */
  writeFailure(): WriteFailure | undefined;
  /** SQLite, while writes fail: tries a tiny write; true once writes succeed again */
  probeWrites(): Promise<boolean>;
  /**
   * Runs `work` in one transaction for a bulk load; on PostgreSQL with COPY
   * into tables available on the same connection (postgres-copy.ts).
   */
  bulk<T>(work: (trx: Transaction<Schema>, copy: Copier | undefined) => Promise<T>): Promise<T>;
  /** SQLite with synchronous=FULL on a file: the log's sync that group commits run off the event loop (wal-flush.ts) */
  readonly deferredFlush?: DeferredFlush;
  /** told after every commit that wrote to an outbox (the delivery workers wake on it: commit-signal.ts) */
  readonly commits: CommitSignal;
  /** SQLite: SQL run at once on its one connection, for the group commit's transaction (query-templates.ts) */
  readonly direct?: DirectRunner;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** SQLite only: NORMAL trades the last transactions on power loss for speed (tests) */
  synchronous?: 'FULL' | 'NORMAL';
  /** SQLite only: checkpoint the WAL from a worker thread (servers; see sqlite-checkpointer.ts) */
  backgroundCheckpoints?: boolean;
  /** SQLite only: page cache size in MiB (default: the configuration's, else 64) */
  cacheMiB?: number;
  onPoolError?: (error: Error) => void;
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * True when the store has recorded exactly the migrations this version
 * knows; false otherwise (no migration table yet, pending or unknown
 * migrations), and the migrator then decides.
 */
async function isAtLatestSchema(db: Kysely<Schema>): Promise<boolean> {
  let recorded: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
    recorded = rows.map((row) => row.name);
  } catch {
    return false;
  }
  return recorded.length === MIGRATION_NAMES.length && MIGRATION_NAMES.every((name) => recorded.includes(name));
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Database {
  const opened =
    config.kind === 'sqlite'
      ? {
          ...openSqlite({
            filename: config.filename,
            synchronous: options.synchronous,
            backgroundCheckpoints: options.backgroundCheckpoints,
            cacheMiB: options.cacheMiB ?? config.cacheMiB,
          }),
          codec: sqliteCodec,
        }
      : {
          ...openPostgres({
            url: config.url,
            poolSize: config.poolSize,
            timeouts: config.timeouts,
            onPoolError: options.onPoolError,
          }),
          codec: postgresCodec,
        };
  const { db, codec } = opened;
  const poolStats = 'poolStats' in opened ? opened.poolStats : (): PoolStats => ({ connections: 1, max: 1 });
  const bulk =
    'bulk' in opened
      ? opened.bulk
      : <T>(work: (trx: Transaction<Schema>, copy: Copier | undefined) => Promise<T>) =>
          db.transaction().execute((trx) => work(trx, undefined));

  const provider: MigrationProvider = { getMigrations: async () => migrations(codec.kind) };
  const migrator = (on: Kysely<Schema>) =>
    new Migrator({
      db: on,
      provider,
      migrationTableName: MIGRATION_TABLE,
      migrationLockTableName: 'leadlight_migrations_lock',
      // numbers are given to parallel branches (CONTRIBUTING.md): one may land
      // after a later number was released and applied, and is then applied too
      allowUnorderedMigrations: true,
    });

  let closed = false;
  return {
    kind: codec.kind,
    db,
    codec,
    async migrate() {
      // a store at the latest schema (every start but the first after an
      // upgrade) is told by one query, without the migrator's table checks
      if (await isAtLatestSchema(db)) return [];
      // PostgreSQL: migrations run on a connection of their own without the
      // service's time bounds (building an index on a large table takes long)
      const own = config.kind === 'postgres' ? openPostgres({ url: config.url, poolSize: 1 }).db : undefined;
      const { error, results } = await migrator(own ?? db)
        .migrateToLatest()
        .finally(() => own?.destroy());
      if (error) {
        const unknown = /previously executed migration (\S+) is missing/.exec(error instanceof Error ? error.message : '');
        if (unknown !== null) {
          throw new MigrationError(
            `the database records migration ${unknown[1]}, which this version does not know: a newer release migrated it; run that release, or restore a backup taken before the upgrade`,
          );
        }
        const failed = results?.find((result) => result.status === 'Error')?.migrationName;
        const reason = error instanceof Error ? error.message : String(error);
        throw new MigrationError(`migration ${failed ?? ''} failed: ${reason}`.replace('  ', ' '));
      }
      return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
    },
    bulk,
    deferredFlush: 'deferredFlush' in opened ? opened.deferredFlush : undefined,
    direct: 'direct' in opened ? opened.direct : undefined,
    commits: new CommitSignal(),
    poolStats,
    writeFailure: () => ('health' in opened ? opened.health.failure : undefined),
    probeWrites: async () => ('probeWrites' in opened ? await opened.probeWrites() : true),
    async ping(timeoutMs?: number) {
      if (timeoutMs === undefined) {
        await sql`select 1`.execute(db);
        return;
      }
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(db), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if ('stopBackground' in opened) await opened.stopBackground();
      await db.destroy();
    },
  };
}
