/**
 * A company's leads (CONTRACT C9.4: the dashboard's company page lists
 * them): newest first through an index on (workspace_id, company_id,
 * created_at, id), partial like the visitors' company index, so the page
 * reads only the company's own leads, never the workspace's whole list.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import type { StoreKind } from '../codec.js';

export function companyLeadsMigration(_kind: StoreKind): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('leads_company_idx')
        .on('leads')
        .columns(['workspace_id', 'company_id', 'created_at', 'id'])
        .where(sql.ref('company_id'), 'is not', null)
        .execute();
    },
  };
}
