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

export function migrations(kind: StoreKind): Record<string, Migration> {
  return {
    '0001-initial': initialMigration(kind),
    '0002-lead-counts': leadCountsMigration(kind),
    '0003-tracking': trackingMigration(kind),
    '0004-accounts': accountsMigration(kind),
    '0005-intelligence': intelligenceMigration(kind),
    '0006-integrations': integrationsMigration(kind),
    '0007-page-counts': pageCountsMigration(kind),
  };
}
