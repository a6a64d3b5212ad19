/**
 * Lead intelligence (CONTRACT C6; docs/intelligence.md): what the models
 * need stored beside the tracking tables.
 *
 * - `visitors.aggregates` and `visitors.network`: the running aggregates of
 *   each visitor (updated by derive.ts in the ingest transaction, under the
 *   visitor's lock) and the network its latest events came from;
 * - `intelligence_due`: visitors whose score, personality and segments are
 *   due (now, or at a later instant: the end of a first session, the next
 *   sweep), claimed by any process's worker with a lease, so work survives a
 *   crash (a kill -9 leaves a lease that simply expires);
 * - `workspace_settings`: the ideal customer and page-kind patterns;
 * - `visitor_lists.rule` and `list_members`: rule and static segments;
 * - `identities.company_id`: the company an identity's email (or network)
 *   names, for C6.1 and `GET /companies/{id}/identities`;
 * - `leads.summary_auto`: what the scorer last wrote into a lead's summary,
 *   so that keys a client wrote are told apart and kept (C6.2).
 *
 * `list_members` has no foreign key to identities: an identity's erasure
 * must not depend on this table; members are read joined to identities.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function intelligenceMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const json = kind === 'postgres' ? 'jsonb' : 'text';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('visitors').addColumn('aggregates', json).execute();
      await db.schema.alterTable('visitors').addColumn('network', json).execute();
      await db.schema.alterTable('visitor_lists').addColumn('rule', json).execute();
      await db.schema.alterTable('identities').addColumn('company_id', uuid).execute();
      await db.schema.alterTable('leads').addColumn('summary_auto', json).execute();

      // partial, as the tracking indexes are (0003-tracking.ts): a primary-key probe never takes them
      await db.schema
        .createIndex('identities_company_idx')
        .on('identities')
        .columns(['workspace_id', 'company_id', 'created_at', 'id'])
        .where(sql.ref('company_id'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('leads_identity_idx')
        .on('leads')
        .columns(['workspace_id', 'identity_id', 'visitor_id'])
        .where(sql.ref('identity_id'), 'is not', null)
        .execute();
      await db.schema.createIndex('companies_name_idx').on('companies').columns(['workspace_id', 'name_normalized']).execute();

      await db.schema
        .createTable('intelligence_due')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('visitor_id', uuid, (c) => c.notNull())
        .addColumn('due_at', ts, (c) => c.notNull())
        .addColumn('claim', 'text')
        .addColumn('claimed_until', ts)
        .addPrimaryKeyConstraint('intelligence_due_pkey', ['workspace_id', 'visitor_id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('intelligence_due_at_idx').on('intelligence_due').columns(['workspace_id', 'due_at']).execute();

      await db.schema
        .createTable('workspace_settings')
        .addColumn('workspace_id', uuid, (c) => c.primaryKey().references('workspaces.id'))
        .addColumn('intelligence', json, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .$call(strict)
        .execute();

      await db.schema
        .createTable('list_members')
        .addColumn('workspace_id', uuid, (c) => c.notNull())
        .addColumn('list_id', uuid, (c) => c.notNull())
        .addColumn('identity_id', uuid, (c) => c.notNull())
        /** the identity's created_at: members are listed newest first like identities (C3.10) */
        .addColumn('identity_created_at', ts, (c) => c.notNull())
        .addColumn('added_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('list_members_pkey', ['workspace_id', 'list_id', 'identity_id'])
        .addForeignKeyConstraint('list_members_list_fk', ['workspace_id', 'list_id'], 'visitor_lists', ['workspace_id', 'id'], (c) =>
          c.onDelete('cascade'),
        )
        .$call(strict)
        .execute();
      await db.schema
        .createIndex('list_members_order_idx')
        .on('list_members')
        .columns(['workspace_id', 'list_id', 'identity_created_at', 'identity_id'])
        .execute();
      await db.schema.createIndex('list_members_identity_idx').on('list_members').columns(['workspace_id', 'identity_id']).execute();
    },
  };
}
