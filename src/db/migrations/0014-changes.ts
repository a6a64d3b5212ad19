/**
 * The changes feed (CONTRACT C11.1) and the webhooks' source of events: one
 * row per event, written by emitEvent in the transaction of the change; the
 * webhook deliveries (the outbox) are fanned out from it in the same
 * transaction, and a replay (C11.2) reads it again.
 *
 * - `position`: the order of insertion. On SQLite the table's rowid
 *   (AUTOINCREMENT, so a position is never reused once old rows are pruned);
 *   one writer at a time makes it commit order.
 * - `xid` (PostgreSQL only): the inserting transaction's id. Sequence order
 *   is not commit order there; the feed serves only rows of transactions
 *   older than the oldest one still running, in (xid, position) order
 *   (repositories/tenant/changes.repository.ts, docs/changes.md).
 * - `id`: the event's id, also its deliveries' webhook-id (msg_…).
 * - `payload`: the body `{type, timestamp, data}` exactly as delivered.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function changesMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'postgres') {
        await sql`
          create table changes (
            workspace_id uuid not null references workspaces (id),
            position bigint generated always as identity,
            xid xid8 not null default pg_current_xact_id(),
            id text not null,
            type text not null,
            payload text not null,
            created_at timestamptz not null,
            constraint changes_pkey primary key (workspace_id, position)
          )`.execute(db);
        await sql`create index changes_feed_idx on changes (workspace_id, xid, position)`.execute(db);
      } else {
        await sql`
          create table changes (
            position integer primary key autoincrement,
            workspace_id text not null references workspaces (id),
            id text not null,
            type text not null,
            payload text not null,
            created_at text not null
          ) strict`.execute(db);
        await sql`create index changes_feed_idx on changes (workspace_id, position)`.execute(db);
      }
      await db.schema.createIndex('changes_created_idx').on('changes').columns(['workspace_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('changes').execute();
    },
  };
}
