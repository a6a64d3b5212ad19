/**
 * The overview's traffic figures (CONTRACT C9.5) without scanning the event
 * log: per workspace, UTC day and site (the page URL's host), counters the
 * ingest derivation bumps in the transaction that appends the events
 * (services/tracking/traffic.ts):
 * - traffic_counts, one row per (dimension, value): dimension '' (value '')
 *   holds the site's totals (visitors, sessions, page views, bounces, session
 *   length); 'referrer', 'campaign', 'country', 'device' and 'browser' hold
 *   the sessions of each value, their bounces and length;
 * - visitor_days, the per-day first-seen marker of a visitor on a site (and
 *   on any site, host ''), so a visitor counts once per day; markers older
 *   than the ingest's 7-day window are pruned by the maintenance job;
 * - sessions.country, the country of a session's first request, so that
 *   the session counts under one country however many batches it spans.
 * Counting starts with this migration: events received before it are not
 * replayed into these counters (docs/overview.md).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function trafficCountsMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const big = kind === 'postgres' ? 'bigint' : 'integer';
  // SQLite: rows stored in key order, so a range of days reads neighbouring rows
  const end = kind === 'sqlite' ? sql`strict, without rowid` : sql``;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sessions').addColumn('country', 'text').execute();
      await db.schema
        .createTable('traffic_counts')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('dimension', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('visitors', big, (c) => c.notNull())
        .addColumn('all_sites_visitors', big, (c) => c.notNull())
        .addColumn('sessions', big, (c) => c.notNull())
        .addColumn('page_views', big, (c) => c.notNull())
        .addColumn('bounces', big, (c) => c.notNull())
        .addColumn('duration_ms', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('traffic_counts_pkey', ['workspace_id', 'dimension', 'day', 'host', 'value'])
        .modifyEnd(end)
        .execute();
      await db.schema
        .createTable('visitor_days')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('host', 'text', (c) => c.notNull())
        .addColumn('visitor_id', uuid, (c) => c.notNull())
        .addPrimaryKeyConstraint('visitor_days_pkey', ['workspace_id', 'day', 'host', 'visitor_id'])
        .modifyEnd(end)
        .execute();
      await db.schema.createIndex('visitor_days_visitor_idx').on('visitor_days').columns(['workspace_id', 'visitor_id']).execute();
    },
  };
}
