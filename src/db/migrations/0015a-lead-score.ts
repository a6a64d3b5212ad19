/**
 * The lead list sorted by score (CONTRACT C9.3: `GET /leads?sort=-score`).
 * `leads.score` is a generated column: the store itself derives it from
 * `summary.score` whenever summary is written (by the scorer, a PATCH, an
 * import), so no writer can forget it. It is the number at summary.score,
 * and NULL when summary or its score is absent or not a number. PostgreSQL
 * stores it (numeric: any JSON number fits, where a cast to double could
 * fail); SQLite computes it on read (ALTER TABLE can only add virtual
 * generated columns) and keeps it in the index. The index
 * (workspace_id, score, id) serves both directions of the keyset (ties
 * broken by id; NULLs read apart, after the numbers: lead-order.ts).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function leadScoreMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        await sql`alter table leads add column score numeric generated always as (
          case when jsonb_typeof(summary -> 'score') = 'number' then (summary -> 'score')::numeric end
        ) stored`.execute(db);
      } else {
        await sql`alter table leads add column score real generated always as (
          case when json_type(summary, '$.score') in ('integer', 'real') then json_extract(summary, '$.score') end
        ) virtual`.execute(db);
      }
      await db.schema.createIndex('leads_score_idx').on('leads').columns(['workspace_id', 'score', 'id']).execute();
    },
  };
}
