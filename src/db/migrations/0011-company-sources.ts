/**
 * How visits name companies besides emails and networks (CONTRACT C6.6,
 * C6.8; docs/intelligence.md, "Companies"):
 *
 * - `company_rules`: a workspace's rules mapping an AS number, a CIDR range
 *   or a domain to one of its companies, or marking it as no company's;
 *   `match_value` is the normalised value (decimal AS number, canonical
 *   CIDR, lower-case domain);
 * - `reverse_dns_due`: visitors whose address is to be looked up (PTR),
 *   one row per visitor with the address of its latest network change,
 *   claimed by any process's worker with a lease as `intelligence_due` is,
 *   so a lookup survives a crash and runs once across processes;
 * - `reverse_dns_cache`: what an address's PTR lookup answered (its first
 *   name, or null when there was none or the lookup failed) and when, shared
 *   by every workspace and process, so an address is asked at most once a
 *   day; rows older than a day are deleted by the worker.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function companySourcesMigration(kind: StoreKind): Migration {
  const uuid = kind === 'postgres' ? 'uuid' : 'text';
  const ts = kind === 'postgres' ? 'timestamptz' : 'text';
  const strict = <B extends { modifyEnd(node: ReturnType<typeof sql>): B }>(builder: B): B =>
    kind === 'sqlite' ? builder.modifyEnd(sql`strict`) : builder;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('company_rules')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('id', uuid, (c) => c.notNull())
        .addColumn('match_kind', 'text', (c) => c.notNull())
        .addColumn('match_value', 'text', (c) => c.notNull())
        .addColumn('company_id', uuid)
        .addColumn('not_a_company', kind === 'postgres' ? 'boolean' : 'integer', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addPrimaryKeyConstraint('company_rules_pkey', ['workspace_id', 'id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('company_rules_created_idx').on('company_rules').columns(['workspace_id', 'created_at', 'id']).execute();

      await db.schema
        .createTable('reverse_dns_due')
        .addColumn('workspace_id', uuid, (c) => c.notNull().references('workspaces.id'))
        .addColumn('visitor_id', uuid, (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('due_at', ts, (c) => c.notNull())
        .addColumn('claim', 'text')
        .addColumn('claimed_until', ts)
        .addPrimaryKeyConstraint('reverse_dns_due_pkey', ['workspace_id', 'visitor_id'])
        .$call(strict)
        .execute();
      await db.schema.createIndex('reverse_dns_due_at_idx').on('reverse_dns_due').columns(['workspace_id', 'due_at']).execute();

      await db.schema
        .createTable('reverse_dns_cache')
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text')
        .addColumn('checked_at', ts, (c) => c.notNull())
        .$call(strict)
        .execute();
      await db.schema.createIndex('reverse_dns_cache_checked_idx').on('reverse_dns_cache').column('checked_at').execute();
    },
  };
}
