/**
 * Company enrichment (CONTRACT C6.7; docs/intelligence.md, "Enrichment"):
 *
 * - `companies.auto_fields`: which of a company's fields an automatic source
 *   wrote (`{"name":"domain","description":"website",…}`: `domain` and
 *   `network` for names made when the company was created, `website` and
 *   `provider` for what enrichment wrote). A field that is not named there
 *   and is not empty was written by a person or a client (an import, the
 *   API), and enrichment never overwrites it. Companies made before this
 *   migration by lead intelligence (every field but the name empty) get
 *   their name marked as made from the domain (or the network); null is `{}`.
 * - `enrichment_queue`: one row per company with a domain, due now (just
 *   created), again in 30 days (enriched) or in a day (a failed fetch),
 *   claimed with a lease by the worker of any `serve` process, so work
 *   survives a kill -9 and runs once across processes. Every company with a
 *   domain that exists now is due at once.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function enrichmentMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const json = kind === 'postgres' ? 'jsonb' : 'text';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  const jsonValue = (text: string) => (kind === 'postgres' ? sql`${text}::jsonb` : sql`${text}`);
  const blank = (column: string) => sql`coalesce(${sql.ref(column)}, '') = ''`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('companies').addColumn('auto_fields', json).execute();
      await sql`
        update companies set auto_fields = ${jsonValue('{"name":"domain"}')}
        where not (${blank('domain')}) and ${blank('description')} and ${blank('employees')} and ${blank('main_industry')}
      `.execute(db);
      await sql`
        update companies set auto_fields = ${jsonValue('{"name":"network"}')}
        where ${blank('domain')} and ${blank('description')} and ${blank('employees')} and ${blank('main_industry')}
      `.execute(db);

      await db.schema
        .createTable('enrichment_queue')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('company_id', uuid, (c) => c.notNull())
        .addColumn('due_at', ts, (c) => c.notNull())
        .addColumn('claim', 'text')
        .addColumn('claimed_until', ts)
        /** failed attempts in a row */
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_attempt_at', ts)
        .addColumn('last_error', 'text')
        /** the last attempt whose every source answered */
        .addColumn('enriched_at', ts)
        .addPrimaryKeyConstraint('enrichment_queue_pkey', ['workspace_id', 'company_id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('enrichment_queue_due_idx').on('enrichment_queue').columns(['workspace_id', 'due_at']).execute();
      await sql`
        insert into enrichment_queue (workspace_id, company_id, due_at, failures)
        select workspace_id, id, ${kind === 'postgres' ? sql`${new Date().toISOString()}::timestamptz` : sql`${new Date().toISOString()}`}, 0
        from companies where not (${blank('domain')})
      `.execute(db);
    },
  };
}
