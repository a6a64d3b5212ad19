/**
 * Bulk loading into SQLite, for imports. The store has one connection, so the
 * import's transaction is that connection's: rows go through one prepared
 * INSERT per table and column list, run synchronously, instead of a Kysely
 * query (and its promises) per row.
 *
 * Once an import has written into a table at least as many rows as the table
 * held before it (and at least BULK_INDEX_ROWS), the table's secondary,
 * non-unique indexes are dropped, and built again from their stored SQL before
 * the transaction commits: one sorted build per index instead of a b-tree
 * insert per row and index. The rebuild reads at most twice the rows imported;
 * a table that already held BULK_MAX_EXISTING rows keeps its indexes. It is all
 * one transaction: a failed or killed import leaves the indexes as they were,
 * and other connections never see the table without them.
 *
 * The same holds for a search index kept by an insert trigger (leads_search,
 * a trigram FTS5 table): once the indexes are dropped, so is a trigger of
 * the one shape our migrations write (`after insert … begin insert into X
 * (…) values (new.…); end`), and before the commit one INSERT … SELECT gives
 * the search table the rows written since, then the trigger is made again.
 * Per row, the trigger was most of an imported lead's cost.
 *
 * For the transaction's length the connection's page cache is raised to at
 * least BULK_CACHE_MIB, never lowered (the import command opens its store
 * with up to 1 GiB: the 256 MiB set here had been undoing that): the rows of
 * a large import go into the primary key's index in the random order of
 * their ids, and with the usual cache most of those inserts found their page
 * evicted (spilled to the log mid-transaction and read again); each index
 * build scans the table just written, and sorts in that memory too.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely, Transaction } from 'kysely';
import type { Copier } from './postgres-copy.js';
import type { Schema } from './schema.js';

/** rows an import writes into a table before its indexes may be dropped */
const BULK_INDEX_ROWS = 2_000;
/** a table holding this many rows keeps its indexes whatever the import's size */
const BULK_MAX_EXISTING = 250_000;
/** the page cache of the connection while a bulk transaction runs */
const BULK_CACHE_MIB = 256;

interface TableLoad {
  before: number;
  written: number;
  /** the dropped indexes' CREATE statements, once dropped */
  dropped?: string[];
  /** the dropped insert triggers, and the statements that do their work for the rows written since */
  triggers?: { create: string; fill: string }[];
}

/** An insert trigger that copies columns of the new row into one other table, and nothing else. */
const COPYING_TRIGGER = /^\s*create\s+trigger\s+\S+\s+after\s+insert\s+on\s+\S+\s+begin\s+insert\s+into\s+(\w+)\s*\(([\w\s,]+)\)\s*values\s*\(([^;]*)\)\s*;\s*end\s*$/i;
/** rowids above this are not handed out in order (SQLite picks free ones at random near the top) */
const ORDERED_ROWIDS = 2 ** 52;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

class SqliteBulkLoader {
  readonly #statements = new Map<string, BetterSqlite3.Statement>();
  readonly #tables = new Map<string, TableLoad>();

  constructor(private readonly raw: BetterSqlite3.Database) {}

  readonly copy: Copier = async (table, columns, rows) => {
    const key = `${table}(${columns.join(',')})`;
    let statement = this.#statements.get(key);
    if (statement === undefined) {
      statement = this.raw.prepare(
        `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      this.#statements.set(key, statement);
    }
    const load = this.#load(table);
    for (const row of rows) statement.run(row as unknown[]);
    load.written += rows.length;
    if (load.dropped === undefined && load.before < BULK_MAX_EXISTING && load.written >= Math.max(load.before, BULK_INDEX_ROWS)) {
      load.dropped = this.#dropSecondaryIndexes(table);
      load.triggers = this.#dropCopyingTriggers(table);
    }
  };

  /** Builds the dropped indexes again and does the dropped triggers' work; runs before the commit. */
  finish(): void {
    for (const load of this.#tables.values()) {
      for (const create of load.dropped ?? []) this.raw.exec(create);
      for (const trigger of load.triggers ?? []) {
        this.raw.exec(trigger.fill);
        this.raw.exec(trigger.create);
      }
    }
  }

  #load(table: string): TableLoad {
    let load = this.#tables.get(table);
    if (load === undefined) {
      const { count } = this.raw
        .prepare(`select count(*) as count from (select 1 from ${quote(table)} limit ${BULK_MAX_EXISTING})`)
        .get() as { count: number };
      load = { before: count, written: 0 };
      this.#tables.set(table, load);
    }
    return load;
  }

  #dropSecondaryIndexes(table: string): string[] {
    const indexes = this.raw
      .prepare(`select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null`)
      .all(table) as { name: string; sql: string }[];
    const secondary = indexes.filter((index) => !/^\s*create\s+unique\b/i.test(index.sql));
    for (const index of secondary) this.raw.exec(`drop index ${quote(index.name)}`);
    return secondary.map((index) => index.sql);
  }

  /**
   * Drops the table's insert triggers of the copying shape; answers each one's
   * CREATE and the INSERT … SELECT that does its work for the rows written
   * after now (rowids above the current highest: a rowid table hands them out
   * in order below ORDERED_ROWIDS). Other triggers, and tables without a
   * rowid, are left as they are.
   */
  #dropCopyingTriggers(table: string): { create: string; fill: string }[] {
    let highest: number;
    try {
      highest = ((this.raw.prepare(`select max(rowid) as highest from ${quote(table)}`).get() as { highest: number | null }).highest ?? 0);
    } catch {
      return [];
    }
    if (highest >= ORDERED_ROWIDS) return [];
    const triggers = this.raw
      .prepare(`select name, sql from sqlite_master where type = 'trigger' and tbl_name = ?`)
      .all(table) as { name: string; sql: string }[];
    const deferred: { create: string; fill: string }[] = [];
    for (const trigger of triggers) {
      const shape = COPYING_TRIGGER.exec(trigger.sql);
      if (shape === null) continue;
      const [, target, columns, values] = shape as unknown as [string, string, string, string];
      // the new row's columns are the table's own in a SELECT from it
      const selected = values.replace(/\bnew\./gi, '');
      if (/\bnew\b/i.test(selected)) continue;
      this.raw.exec(`drop trigger ${quote(trigger.name)}`);
      deferred.push({ create: trigger.sql, fill: `insert into ${quote(target)} (${columns}) select ${selected} from ${quote(table)} where rowid > ${highest} order by rowid` });
    }
    return deferred;
  }
}

/** `Database.bulk` of the SQLite store. */
export function sqliteBulk(db: Kysely<Schema>, raw: BetterSqlite3.Database) {
  return async <T>(work: (trx: Transaction<Schema>, copy: Copier | undefined) => Promise<T>): Promise<T> => {
    const cache = raw.pragma('cache_size', { simple: true }) as number;
    // never below what the connection was opened with (the import command asks for up to 1 GiB)
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    const cacheKiB = cache < 0 ? -cache : (cache * pageSize) / 1024;
    raw.pragma(`cache_size = -${Math.max(cacheKiB, BULK_CACHE_MIB * 1024)}`);
    try {
      return await db.transaction().execute(async (trx) => {
        const loader = new SqliteBulkLoader(raw);
        const result = await work(trx, loader.copy);
        loader.finish();
        return result;
      });
    } finally {
      raw.pragma(`cache_size = ${cache}`);
    }
  };
}
