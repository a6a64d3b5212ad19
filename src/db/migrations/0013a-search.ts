/**
 * The dashboard's search (CONTRACT C9.1; README "Search"): people by name or
 * email, companies by name or domain and leads by code, matched by
 * "contains", case-insensitively, through an index on both stores.
 *
 * - PostgreSQL: pg_trgm GIN indexes on each searched column, which serve
 *   `ILIKE '%text%'` (the extension is trusted: a database owner may create
 *   it).
 * - SQLite: an FTS5 table with the trigram tokenizer per searched table
 *   (`identities_search`, `companies_search`, `leads_search`), over the
 *   table's rows (external content, by rowid) and kept in step by triggers,
 *   so every write, the bulk import's included, updates it in the same
 *   transaction. Each value is indexed with a space after it, so that two
 *   characters at the end of a value still begin a trigram: a two-character
 *   search asks the index's vocabulary (`*_search_vocab`) for the trigrams
 *   that begin with them.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

/** each searched table and its searched columns */
export const SEARCHED: Readonly<Record<string, readonly string[]>> = {
  identities: ['name', 'email'],
  companies: ['name', 'domain'],
  leads: ['code'],
};

async function sqliteSearch(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const fts = `${table}_search`;
  const list = ['workspace_id', ...columns].join(', ');
  const values = (row: 'new' | 'old') => [`${row}.workspace_id`, ...columns.map((column) => `${row}.${column} || ' '`)].join(', ');
  const statements = [
    `create virtual table ${fts} using fts5(workspace_id unindexed, ${columns.join(', ')}, content='${table}', content_rowid='rowid', tokenize='trigram')`,
    `create virtual table ${fts}_vocab using fts5vocab(${fts}, 'row')`,
    `insert into ${fts}(rowid, ${list}) select rowid, workspace_id, ${columns.map((column) => `${column} || ' '`).join(', ')} from ${table}`,
    `create trigger ${fts}_insert after insert on ${table} begin
       insert into ${fts}(rowid, ${list}) values (new.rowid, ${values('new')});
     end`,
    `create trigger ${fts}_delete after delete on ${table} begin
       insert into ${fts}(${fts}, rowid, ${list}) values ('delete', old.rowid, ${values('old')});
     end`,
    `create trigger ${fts}_update after update of ${columns.join(', ')} on ${table} begin
       insert into ${fts}(${fts}, rowid, ${list}) values ('delete', old.rowid, ${values('old')});
       insert into ${fts}(rowid, ${list}) values (new.rowid, ${values('new')});
     end`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export function searchMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        await sql`create extension if not exists pg_trgm`.execute(db);
        for (const [table, columns] of Object.entries(SEARCHED)) {
          for (const column of columns) {
            await sql.raw(`create index ${table}_${column}_trgm_idx on ${table} using gin (${column} gin_trgm_ops)`).execute(db);
          }
        }
        return;
      }
      for (const [table, columns] of Object.entries(SEARCHED)) await sqliteSearch(db, table, columns);
    },
  };
}
