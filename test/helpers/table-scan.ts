/**
 * Scans every table of a store for text: each row of each table the schema
 * holds (SQLite's catalogue, or PostgreSQL's with partitions read through
 * their parent), every column whatever its type, compared as lower-case
 * text. Erasure tests use it to show that nothing names a person any more.
 */
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

/** Where each term was found: table → column → rows. */
export type Hits = Record<string, Record<string, Record<string, number>>>;

export async function tablesOf(database: Database): Promise<string[]> {
  const rows =
    database.kind === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(database.db)
      : await sql<{ name: string }>`
          select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`.execute(database.db);
  return rows.rows.map((row) => row.name);
}

const asText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
};

/** Every place (table, column) where one of `terms` occurs, case-insensitively, with its row count; empty terms are ignored. */
export async function scanTables(database: Database, terms: Record<string, string>): Promise<Hits> {
  const wanted = Object.entries(terms).filter(([, term]) => term !== '').map(([label, term]) => [label, term.toLowerCase()] as const);
  const hits: Hits = {};
  for (const table of await tablesOf(database)) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(database.db);
    for (const row of rows.rows) {
      for (const [column, value] of Object.entries(row)) {
        const text = asText(value).toLowerCase();
        if (text === '') continue;
        for (const [label, term] of wanted) {
          if (!text.includes(term)) continue;
          const byColumn = (hits[label] ??= {});
          const byTable = (byColumn[table] ??= {});
          byTable[column] = (byTable[column] ?? 0) + 1;
        }
      }
    }
  }
  return hits;
}
