/**
 * The ordered list of schema migrations. Names sort in the order they apply;
 * a migration is never edited once released, only followed by a new one.
 */
import type { Migration } from 'kysely';
import type { StoreKind } from '../codec.js';
import { initialMigration } from './0001-initial.js';
import { leadCountsMigration } from './0002-lead-counts.js';
import { trackingMigration } from './0003-tracking.js';
import { accountsMigration } from './0004-accounts.js';
import { intelligenceMigration } from './0005-intelligence.js';
import { integrationsMigration } from './0006-integrations.js';
import { pageCountsMigration } from './0007-page-counts.js';
import { listColorsMigration } from './0008-list-colors.js';
import { deliveryRetentionMigration } from './0010-delivery-retention.js';
import { companySourcesMigration } from './0011-company-sources.js';
import { enrichmentMigration } from './0012a-enrichment.js';
import { accountsMigration as companyAccountsMigration } from './0012b-accounts.js';
import { searchMigration } from './0013a-search.js';
import { searchPairsMigration } from './0013b-search-pairs.js';
import { changesMigration } from './0014-changes.js';
import { leadScoreMigration } from './0015a-lead-score.js';
import { leadNotesMigration } from './0015b-lead-notes.js';
import { trafficCountsMigration } from './0016-traffic-counts.js';
import { digestsMigration } from './0017-digests.js';
import { alertsMigration } from './0019a-alerts.js';
import { companyLeadsMigration } from './0020-company-leads.js';
import { weekCountsMigration } from './0021-week-counts.js';
import { eventsByArrivalMigration } from './0022a-events-by-arrival.js';

/** every migration by name, for one kind of store */
const MIGRATIONS: Record<string, (kind: StoreKind) => Migration> = {
  '0001-initial': initialMigration,
  '0002-lead-counts': leadCountsMigration,
  '0003-tracking': trackingMigration,
  '0004-accounts': accountsMigration,
  '0005-intelligence': intelligenceMigration,
  '0006-integrations': integrationsMigration,
  '0007-page-counts': pageCountsMigration,
  '0008-list-colors': listColorsMigration,
  '0010-delivery-retention': deliveryRetentionMigration,
  '0011-company-sources': companySourcesMigration,
  '0012a-enrichment': enrichmentMigration,
  '0012b-accounts': companyAccountsMigration,
  '0013a-search': searchMigration,
  '0013b-search-pairs': searchPairsMigration,
  '0014-changes': changesMigration,
  '0015a-lead-score': leadScoreMigration,
  '0015b-lead-notes': leadNotesMigration,
  '0016-traffic-counts': trafficCountsMigration,
  '0017-digests': digestsMigration,
  '0019a-alerts': alertsMigration,
  '0020-company-leads': companyLeadsMigration,
  '0021-week-counts': weekCountsMigration,
  '0022a-events-by-arrival': eventsByArrivalMigration,
};

/** the names of every migration in the order they apply (by name, as the migrator sorts them): what a store at the latest schema has recorded */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort();

export function migrations(kind: StoreKind): Record<string, Migration> {
  return Object.fromEntries(MIGRATION_NAMES.map((name) => [name, MIGRATIONS[name]!(kind)]));
}
