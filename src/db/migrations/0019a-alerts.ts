/**
 * Alerts (CONTRACT C10.1–C10.3; docs/alerts.md):
 *
 * - alerts: a workspace's rules: a trigger, filters, a destination, a
 *   cooldown, enabled. Trigger, filters and destination are JSON.
 * - alert_cooldowns: the last time an alert fired for one subject (a person,
 *   a company or an anonymous visitor). A firing is a conditional upsert of
 *   this row (only when the last firing is at least the cooldown ago), so
 *   two processes that see the same fact fire once.
 * - alert_deliveries: the outbox: one row per firing, written in the
 *   transaction of the change that caused it, drained by every process's
 *   alert worker (claimed with a lease, retried with backoff as C8.5).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function alertsMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const json = kind === 'postgres' ? 'jsonb' : 'text';
  const bool = kind === 'postgres' ? 'boolean' : 'integer';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('alerts')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', uuid, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('trigger', json, (c) => c.notNull())
        .addColumn('filters', json, (c) => c.notNull())
        .addColumn('destination', json, (c) => c.notNull())
        .addColumn('cooldown_minutes', 'integer', (c) => c.notNull())
        .addColumn('enabled', bool, (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('alerts_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('alerts_created_idx').on('alerts').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('alert_cooldowns')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('alert_id', uuid, (c) => c.notNull())
        /** identity:<id>, company:<id> or visitor:<id> */
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('fired_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('alert_cooldowns_pkey', ['workspace_id', 'alert_id', 'subject'])
        .$call(strict)
        .execute();

      await db.schema
        .createTable('alert_deliveries')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', uuid, (c) => c.notNull())
        .addColumn('alert_id', uuid, (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        /** slack, email or webhook: the destination when it fired */
        .addColumn('destination', json, (c) => c.notNull())
        /** what happened: the facts the message is made from */
        .addColumn('payload', json, (c) => c.notNull())
        .addColumn('test', bool, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', ts, (c) => c.notNull())
        .addColumn('locked_until', ts)
        .addColumn('last_error', 'text')
        .addColumn('log', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('delivered_at', ts)
        .addPrimaryKeyConstraint('alert_deliveries_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('alert_deliveries_alert_idx')
        .on('alert_deliveries')
        .columns(['workspace_id', 'alert_id', 'created_at', 'id'])
        .execute();
      // the queue every process drains: pending deliveries by when they are due (all workspaces)
      await db.schema
        .createIndex('alert_deliveries_due_idx')
        .on('alert_deliveries')
        .columns(['next_attempt_at'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
    },
  };
}
