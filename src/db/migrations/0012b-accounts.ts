/**
 * Accounts (CONTRACT C6.9, C9.4; docs/intelligence.md, "Accounts"):
 *
 * - `visitors.company_id`: the company a visitor's visits name: its
 *   identity's company, else its network's. Kept by the ingest derivation;
 *   a company's engagement and activity read its visitors through
 *   `visitors_company_idx`, never the whole event log. Filled here from the
 *   identities and the networks already known.
 * - `companies.last_seen` (the latest visit of any of its visitors) and
 *   `companies.account_score` (kept by the intelligence worker): what the
 *   dashboard's companies list sorts by, each with its index. Filled here
 *   from the visitors; the scores come with the worker's next round (the
 *   visitors of companies seen in the last 31 days are marked due).
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

const DAY_MS = 86_400_000;

export function accountsMigration(kind: StoreKind): Migration {
  const postgres = kind === 'postgres';
  const uuid = postgres ? 'uuid' : 'text';
  const ts = postgres ? 'timestamptz' : 'text';
  const instant = (at: number) => (postgres ? sql`${new Date(at).toISOString()}::timestamptz` : sql`${new Date(at).toISOString()}`);
  const networkCompany = postgres ? sql`(visitors.network ->> 'company_id')::uuid` : sql`json_extract(visitors.network, '$.company_id')`;
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('visitors').addColumn('company_id', uuid).execute();
      await db.schema.alterTable('companies').addColumn('last_seen', ts).execute();
      await db.schema.alterTable('companies').addColumn('account_score', 'integer').execute();

      await sql`
        update visitors set company_id = coalesce(
          (select i.company_id from identities i where i.workspace_id = visitors.workspace_id and i.id = visitors.identity_id),
          ${networkCompany}
        )
        where identity_id is not null or network is not null
      `.execute(db);
      // partial, as the other visitor indexes: a primary-key probe never takes it
      await db.schema
        .createIndex('visitors_company_idx')
        .on('visitors')
        .columns(['workspace_id', 'company_id', 'last_seen'])
        .where(sql.ref('company_id'), 'is not', null)
        .execute();

      await sql`
        update companies set last_seen = (
          select max(v.last_seen) from visitors v where v.workspace_id = companies.workspace_id and v.company_id = companies.id
        )
      `.execute(db);
      // the list's orders, newest visit or highest score first, never-seen or unscored companies last
      if (postgres) {
        await sql`create index companies_last_seen_idx on companies (workspace_id, last_seen desc nulls last, id desc)`.execute(db);
        await sql`create index companies_account_score_idx on companies (workspace_id, account_score desc nulls last, id desc)`.execute(db);
      } else {
        await db.schema.createIndex('companies_last_seen_idx').on('companies').columns(['workspace_id', 'last_seen', 'id']).execute();
        await db.schema.createIndex('companies_account_score_idx').on('companies').columns(['workspace_id', 'account_score', 'id']).execute();
      }

      await sql`
        insert into intelligence_due (workspace_id, visitor_id, due_at)
        select workspace_id, id, ${instant(Date.now())} from visitors
        where company_id is not null and last_seen >= ${instant(Date.now() - 31 * DAY_MS)}
        on conflict (workspace_id, visitor_id) do nothing
      `.execute(db);
    },
  };
}
