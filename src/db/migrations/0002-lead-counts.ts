/**
 * Exact lead totals without scanning: per workspace, per day and per
 * "bucket" (every lead, and each source), how many leads were created. Kept
 * in the same transaction as every lead insert, so a list's total is a sum of
 * a few hundred counters plus an exact count of at most two partial days
 * (repositories/tenant/lead-totals.ts). Existing leads are counted once here.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function leadCountsMigration(kind: StoreKind): Migration {
  const day = kind === 'postgres' ? sql`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD')` : sql`substr(created_at, 1, 10)`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('lead_counts')
        .addColumn('workspace_id', kind === 'postgres' ? 'uuid' : 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('bucket', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('count', kind === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_counts_pkey', ['workspace_id', 'bucket', 'day'])
        // SQLite: rows stored in key order, so summing a range of days reads
        // neighbouring rows instead of looking each one up in the table
        .$call((builder) => (kind === 'sqlite' ? builder.modifyEnd(sql`strict, without rowid`) : builder))
        .execute();
      await sql`
        insert into lead_counts (workspace_id, bucket, day, count)
        select workspace_id, '*', ${day}, count(*) from leads group by workspace_id, ${day}
      `.execute(db);
      await sql`
        insert into lead_counts (workspace_id, bucket, day, count)
        select workspace_id, '=' || source, ${day}, count(*) from leads where source is not null
        group by workspace_id, source, ${day}
      `.execute(db);
    },
  };
}
