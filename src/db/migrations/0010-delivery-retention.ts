/**
 * Webhook deliveries by age: the hourly upkeep deletes settled deliveries
 * (and the payloads they keep) older than their retention, per workspace
 * (services/tracking/maintenance.service.ts). Without this index each run
 * would read every delivery of the workspace, payloads included.
 */
import type { Kysely, Migration } from 'kysely';

export function deliveryRetentionMigration(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('webhook_deliveries_created_idx').on('webhook_deliveries').columns(['workspace_id', 'created_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('webhook_deliveries_created_idx').execute();
    },
  };
}
