/**
 * Week rows in the overview's counters (C9.5, docs/overview.md): beside its
 * UTC days' rows, traffic_counts and page_counts get a row per ISO week
 * (Monday to Sunday, UTC), `day` = `w` + the week's Monday, so that a 90-day
 * overview reads about 12 weeks and at most 12 edge days rather than 90
 * days of rows (repositories/tenant/week-buckets.ts). The ingest bumps a
 * day's row and its week's in the same upsert; this migration sums the day
 * rows already counted into their weeks (any week row present is replaced,
 * so the migration can run again after its rows are rebuilt).
 */
import { sql, type Kysely, type Migration, type RawBuilder } from 'kysely';
import type { StoreKind } from '../codec.js';

/** `w` and the Monday of the week of `day` (YYYY-MM-DD) */
function weekKey(kind: StoreKind): RawBuilder<string> {
  return kind === 'postgres'
    ? sql`'w' || to_char(day::date - (extract(isodow from day::date)::int - 1), 'YYYY-MM-DD')`
    : sql`'w' || date(day, '-6 days', 'weekday 1')`;
}

export function weekCountsMigration(kind: StoreKind): Migration {
  const week = weekKey(kind);
  return {
    async up(db: Kysely<unknown>) {
      await sql`delete from traffic_counts where day >= 'w'`.execute(db);
      await sql`
        insert into traffic_counts (workspace_id, dimension, day, host, value, visitors, all_sites_visitors, sessions, page_views, bounces, duration_ms)
        select workspace_id, dimension, ${week}, host, value, sum(visitors), sum(all_sites_visitors), sum(sessions), sum(page_views), sum(bounces), sum(duration_ms)
        from traffic_counts where day < 'w'
        group by workspace_id, dimension, ${week}, host, value
      `.execute(db);
      await sql`delete from page_counts where day >= 'w'`.execute(db);
      await sql`
        insert into page_counts (workspace_id, day, host, path, views)
        select workspace_id, ${week}, host, path, sum(views)
        from page_counts where day < 'w'
        group by workspace_id, ${week}, host, path
      `.execute(db);
    },
  };
}
