/**
 * The SQLite event log keyed by arrival (issue 24, BENCHMARKS.md "Ingest,
 * round three"): `(workspace_id, received_at, id)` instead of
 * `(workspace_id, occurred_at, id)`. The events of concurrent visitors
 * interleave in time (each batch spans its visitor's last second or
 * minutes, the others' batches span the same), so in time order every event
 * of a batch landed on a different leaf of the log, and every one of those
 * pages was written to the WAL by the commit and again by the checkpoint.
 * In arrival order a batch's events are neighbours at the end of the log:
 * a few pages a batch. The visitor index and the ids' uniqueness are as
 * before; nothing reads the log by time alone but retention, which reads
 * it in arrival order within the bounds an event's time can have
 * (events.repository.ts, deleteBefore).
 *
 * PostgreSQL keeps its log as it is: partitioned by month of the time, its
 * rows appended to a heap whatever their key, its ids in event_ids.
 */
import { sql, type Kysely, type Migration, type Transaction } from 'kysely';
import type { StoreKind } from '../codec.js';

const COLUMNS = sql.raw(
  'workspace_id, occurred_at, id, received_at, visitor_id, session_id, type, name, url, path, title, referrer, code, data, ip, city, country',
);

export function eventsByArrivalMigration(kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (kind !== 'sqlite') return;
      // one transaction (the migrator opens none on SQLite): a crash or a
      // failure at any step leaves the log as it was, and the migration runs again
      await db.transaction().execute((trx) => rebuild(trx));
    },
  };
}

async function rebuild(db: Transaction<unknown>): Promise<void> {
  await db.schema
    .createTable('events_by_arrival')
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('visitor_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('url', 'text')
    .addColumn('path', 'text')
    .addColumn('title', 'text')
    .addColumn('referrer', 'text')
    .addColumn('code', 'text')
    .addColumn('data', 'text')
    .addColumn('ip', 'text')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addPrimaryKeyConstraint('events_pkey', ['workspace_id', 'received_at', 'id'])
    .modifyEnd(sql`strict, without rowid`)
    .execute();
  // in the new key's order: each row appended
  await sql`insert into events_by_arrival (${COLUMNS}) select ${COLUMNS} from events order by workspace_id, received_at, id`.execute(db);
  await db.schema.dropTable('events').execute();
  await sql`alter table events_by_arrival rename to events`.execute(db);
  await db.schema.createIndex('events_visitor_idx').on('events').columns(['workspace_id', 'visitor_id', 'occurred_at']).execute();
  await db.schema.createIndex('events_id_idx').on('events').columns(['workspace_id', 'id']).unique().execute();
}
