/**
 * What developers who call the API rely on (CONTRACT C8.2 to C8.5):
 *
 * - idempotency_keys: the first answer to a POST with an Idempotency-Key,
 *   per workspace. A row is claimed (state 'running') before the request runs;
 *   the write it protects marks it 'applied' in its own transaction, and its
 *   answer is stored before it is sent ('completed'). Pruned after its lifetime.
 * - server_secrets: secrets every process of one installation shares (the
 *   key that signs list cursors), made once, here, so that all agree.
 * - webhooks: a workspace's endpoints, their signing secret and health.
 * - webhook_deliveries: the outbox: one row per event and endpoint, written in
 *   the transaction of the change, drained by every API process.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function integrationsMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const json = kind === 'postgres' ? 'jsonb' : 'text';
  const bool = kind === 'postgres' ? 'boolean' : 'integer';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'applied', 'completed')`))
        .addColumn('lock_token', 'text', (c) => c.notNull())
        .addColumn('locked_until', ts, (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_headers', 'text')
        .addColumn('response_body', 'text')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['workspace_id', 'key'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('idempotency_keys_created_idx').on('idempotency_keys').columns(['workspace_id', 'created_at']).execute();

      await db.schema
        .createTable('server_secrets')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .$call(strict)
        .execute();
      await sql`insert into server_secrets (name, value, created_at) values (${'cursor'}, ${randomBytes(32).toString('base64url')}, ${new Date().toISOString()})`.execute(
        db,
      );

      await db.schema
        .createTable('webhooks')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', uuid, (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', json, (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('enabled', bool, (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'failing')`))
        .addColumn('consecutive_failures', 'integer', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('webhooks_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('webhooks_created_idx').on('webhooks').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', uuid, (c) => c.notNull())
        .addColumn('webhook_id', uuid, (c) => c.notNull())
        /** the message id: the webhook-id header, the same on every attempt */
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`))
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', ts, (c) => c.notNull())
        .addColumn('locked_until', ts)
        .addColumn('last_response_code', 'integer')
        .addColumn('last_duration_ms', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('log', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('delivered_at', ts)
        .addPrimaryKeyConstraint('webhook_deliveries_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('webhook_deliveries_webhook_idx')
        .on('webhook_deliveries')
        .columns(['workspace_id', 'webhook_id', 'created_at', 'id'])
        .execute();
      // the queue every process drains: pending deliveries by when they are due (all workspaces)
      await db.schema
        .createIndex('webhook_deliveries_due_idx')
        .on('webhook_deliveries')
        .columns(['next_attempt_at'])
        .where(sql.ref('status'), '=', 'pending')
        .execute();
    },
  };
}
