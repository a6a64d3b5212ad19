/**
 * Notes on leads (CONTRACT C9.3: `GET`/`POST /api/v1/leads/{id}/notes`).
 * A note belongs to its lead: deleting the lead (DELETE, or a person's
 * erasure) deletes its notes in the same transaction (leads.repository.ts
 * deleteWhere), so there is no foreign key to trip over. The author is
 * kept as written: its kind, id and the name it had then. Listed newest
 * first per lead, by (workspace_id, lead_id, created_at, id).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function leadNotesMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('lead_notes')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', uuid, (c) => c.notNull())
        .addColumn('lead_id', uuid, (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('author_type', 'text', (c) => c.notNull())
        .addColumn('author_id', uuid, (c) => c.notNull())
        .addColumn('author_name', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_notes_pkey', ['workspace_id', 'id'])
        .$call((builder) => (kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder))
        .execute();
      await db.schema.createIndex('lead_notes_lead_idx').on('lead_notes').columns(['workspace_id', 'lead_id', 'created_at', 'id']).execute();
    },
  };
}
