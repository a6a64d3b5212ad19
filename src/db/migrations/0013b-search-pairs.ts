/**
 * Two-character searches on PostgreSQL (CONTRACT C9.1; README "Search"):
 * pg_trgm cannot serve `ILIKE '%ab%'` (no trigram in two characters), so
 * a rare pair was a scan of the workspace. `leadlight_pairs(text)` is the
 * set of a value's lower-cased character pairs, and a GIN index on it per
 * searched column answers "contains these two characters" exactly
 * (`leadlight_pairs(name) @> array['ab']`). Its declared cost is high so
 * the planner never computes it row by row as a filter when the index can
 * answer (with the default cost a pair no lead code holds was a 1.2 s scan of
 * 50,000 leads, 0.03 ms through the index). SQLite needs nothing more: its
 * trigram vocabulary serves two characters (0013a-search.ts).
 *
 * And the Live page (C9.2) on both stores: `visitors_live_idx` on each
 * visitor's latest event (`session_last_at`), so the visits of the last 30
 * minutes and the visitors of the last 5 are read without a scan of the
 * workspace's visitors.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';
import { SEARCHED } from './0013a-search.js';

export function searchPairsMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('visitors_live_idx').on('visitors').columns(['workspace_id', 'session_last_at']).execute();
      if (kind !== 'postgres') return;
      await sql`
        create function leadlight_pairs(value text) returns text[] language sql immutable strict parallel safe cost 10000 as $$
          select coalesce(array_agg(distinct substr(folded, position, 2)), '{}')
          from (select lower(value) as folded) as v, generate_series(1, char_length(folded) - 1) as position
        $$
      `.execute(db);
      for (const [table, columns] of Object.entries(SEARCHED)) {
        for (const column of columns) {
          await sql.raw(`create index ${table}_${column}_pairs_idx on ${table} using gin (leadlight_pairs(${column}))`).execute(db);
        }
      }
    },
  };
}
