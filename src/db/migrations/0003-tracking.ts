/**
 * Visitor tracking (CONTRACT C5): site keys, the daily salts of cookieless
 * visitors, the append-only event log, the ids that make ingestion
 * idempotent, and the per-visitor and per-session state derived from events.
 *
 * The event log is keyed by workspace like every tenant table. On PostgreSQL
 * it is partitioned by month of the event's time (native range partitioning),
 * so retention drops whole partitions; the partitions themselves are created
 * ahead of time and on demand (repositories/operator/event-partitions.repository.ts),
 * not here. A partitioned table cannot enforce a uniqueness that leaves out
 * its partition key, so there the ids already received live in `event_ids`,
 * a small table pruned after the 7-day window in which events are accepted
 * (C5.3). On SQLite the log is one table, ordered by time within a
 * workspace, which keeps the ids unique itself: three b-trees per event
 * instead of five. Neither table has a foreign key: each would cost a lookup
 * per event, and only a site key's own workspace ever writes them.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

function types(kind: StoreKind) {
  return kind === 'postgres'
    ? ({ uuid: 'uuid', ts: 'timestamptz', json: 'jsonb', int: 'integer' } as const)
    : ({ uuid: 'text', ts: 'text', json: 'text', int: 'integer' } as const);
}

export function trackingMigration(kind: StoreKind): Migration {
  const t = types(kind);
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('site_keys')
        .addColumn('id', t.uuid, (c) => c.primaryKey())
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text')
        .addColumn('key', 'text', (c) => c.notNull().unique())
        .addColumn('origins', t.json, (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addColumn('last_used_at', t.ts)
        .addColumn('revoked_at', t.ts)
        .$call(strict)
        .execute();
      await db.schema.createIndex('site_keys_workspace_idx').on('site_keys').columns(['workspace_id', 'created_at']).execute();

      await db.schema
        .createTable('tracking_salts')
        .addColumn('day', 'text', (c) => c.primaryKey())
        .addColumn('salt', 'text', (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .$call(strict)
        .execute();

      let events = db.schema
        .createTable('events')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull())
        .addColumn('occurred_at', t.ts, (c) => c.notNull())
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('received_at', t.ts, (c) => c.notNull())
        .addColumn('visitor_id', t.uuid, (c) => c.notNull())
        .addColumn('session_id', t.uuid, (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('url', 'text')
        .addColumn('path', 'text')
        .addColumn('title', 'text')
        .addColumn('referrer', 'text')
        .addColumn('code', 'text')
        .addColumn('data', t.json)
        .addColumn('ip', 'text')
        .addColumn('city', 'text')
        .addColumn('country', 'text');
      events = events.addPrimaryKeyConstraint('events_pkey', ['workspace_id', 'occurred_at', 'id']);
      // PostgreSQL: one partition a month. SQLite: rows stored in key order (by time within a
      // workspace, so arrivals append), and the ids' uniqueness kept by the log itself
      events = kind === 'postgres' ? events.modifyEnd(sql`partition by range (occurred_at)`) : events.modifyEnd(sql`strict, without rowid`);
      await events.execute();
      await db.schema
        .createIndex('events_visitor_idx')
        .on('events')
        .columns(['workspace_id', 'visitor_id', 'occurred_at'])
        .execute();
      if (kind === 'sqlite') {
        await db.schema.createIndex('events_id_idx').on('events').columns(['workspace_id', 'id']).unique().execute();
      } else {
        await db.schema
          .createTable('event_ids')
          .addColumn('workspace_id', t.uuid, (c) => c.notNull())
          .addColumn('id', t.uuid, (c) => c.notNull())
          .addColumn('occurred_at', t.ts, (c) => c.notNull())
          .addPrimaryKeyConstraint('event_ids_pkey', ['workspace_id', 'id'])
          .execute();
        await db.schema.createIndex('event_ids_time_idx').on('event_ids').columns(['workspace_id', 'occurred_at']).execute();
      }

      await db.schema
        .createTable('visitors')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('identity_id', t.uuid)
        .addColumn('identified_at', t.ts)
        .addColumn('first_seen', t.ts, (c) => c.notNull())
        .addColumn('last_seen', t.ts, (c) => c.notNull())
        .addColumn('session_id', t.uuid, (c) => c.notNull())
        .addColumn('session_started_at', t.ts, (c) => c.notNull())
        .addColumn('session_last_at', t.ts, (c) => c.notNull())
        .addColumn('last_url', 'text')
        .addColumn('last_ip', 'text')
        .addColumn('last_city', 'text')
        .addColumn('last_country', 'text')
        .addColumn('events', t.int, (c) => c.notNull())
        .addColumn('page_views', t.int, (c) => c.notNull())
        .addColumn('sessions', t.int, (c) => c.notNull())
        .addColumn('created_at', t.ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('visitors_pkey', ['workspace_id', 'id'])
        .addForeignKeyConstraint('visitors_identity_fk', ['workspace_id', 'identity_id'], 'identities', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      // partial, here and on leads: a lookup by primary key can never take these instead (a planner
      // without statistics, in an import's transaction, took a full index on (workspace_id, x) for the
      // primary key's probes and read the whole workspace for each)
      await db.schema
        .createIndex('visitors_identity_idx')
        .on('visitors')
        .columns(['workspace_id', 'identity_id'])
        .where(sql.ref('identity_id'), 'is not', null)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('workspace_id', t.uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', t.uuid, (c) => c.notNull())
        .addColumn('visitor_id', t.uuid, (c) => c.notNull())
        .addColumn('started_at', t.ts, (c) => c.notNull())
        .addColumn('last_at', t.ts, (c) => c.notNull())
        .addColumn('landing_page', 'text')
        .addColumn('referrer', 'text')
        .addColumn('utm', t.json, (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('events', t.int, (c) => c.notNull())
        .addColumn('page_views', t.int, (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addPrimaryKeyConstraint('sessions_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('sessions_visitor_idx')
        .on('sessions')
        .columns(['workspace_id', 'visitor_id', 'started_at'])
        .execute();

      // conversion leads get their identity when their visitor is identified (C5.7)
      await db.schema
        .createIndex('leads_unidentified_visitor_idx')
        .on('leads')
        .columns(['workspace_id', 'visitor_id'])
        .where(sql.ref('identity_id'), 'is', null)
        .execute();
    },
  };
}
