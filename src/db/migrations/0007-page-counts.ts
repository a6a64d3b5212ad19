/**
 * Top pages without scanning the event log: per workspace, per UTC day and
 * per page (host and path, the query string left out), how many page views
 * were received. Kept by the ingest derivation in the transaction that
 * appends the events (services/tracking/derive.ts), so the overview reads a
 * few rows per page and day however many events the log holds, and the
 * counts outlive the events' retention. Page views already in the log are
 * counted once here.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function pageCountsMigration(kind: StoreKind): Migration {
  const day = kind === 'postgres' ? sql`to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(occurred_at, 1, 10)`;
  // the host of an absolute http(s) URL (the tracker's page URLs are), as the URL parser gives it, lower case
  const host =
    kind === 'postgres'
      ? sql`lower(substring(url from '^[A-Za-z]+://([^/?#]*)'))`
      : sql`lower(substr(url, instr(url, '://') + 3, case when instr(substr(url, instr(url, '://') + 3), '/') = 0 then length(url) else instr(substr(url, instr(url, '://') + 3), '/') - 1 end))`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('page_counts')
        .addColumn('workspace_id', kind === 'postgres' ? 'uuid' : 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('views', kind === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('page_counts_pkey', ['workspace_id', 'day', 'host', 'path'])
        // SQLite: rows stored in key order, so a range of days reads neighbouring rows
        .$call((builder) => (kind === 'sqlite' ? builder.modifyEnd(sql`strict, without rowid`) : builder))
        .execute();
      await sql`
        insert into page_counts (workspace_id, day, host, path, views)
        select workspace_id, ${day}, ${host}, path, count(*) from events
        where type = 'page' and path is not null and url is not null
        group by workspace_id, ${day}, ${host}, path
      `.execute(db);
    },
  };
}
