/**
 * All SQL of the Live page (C9.2): the visits of the last minutes, newest
 * first (each visitor's latest visit, from `visitors` through its index on
 * the latest visit's last event, migration 0013b), with the person, the
 * company, the country, the current page, the pages viewed and the source;
 * and how many visitors were active since a time.
 */
import { TenantRepository } from './tenant-repository.js';

export interface LiveVisitRow {
  visitor_id: string;
  session_id: string;
  started_at: string;
  last_at: string;
  current_url: string | null;
  country: string | null;
  page_views: number;
  source: string | null;
  identity_id: string | null;
  person_name: string | null;
  person_email: string | null;
  company_id: string | null;
  company_name: string | null;
}

export class LiveRepository extends TenantRepository {
  async visits(since: string, limit: number): Promise<LiveVisitRow[]> {
    const ws = this.scope.workspaceId;
    const rows = await this.scope
      .selectFrom('visitors')
      .leftJoin('sessions', (join) => join.onRef('sessions.id', '=', 'visitors.session_id').on('sessions.workspace_id', '=', ws))
      .leftJoin('identities', (join) => join.onRef('identities.id', '=', 'visitors.identity_id').on('identities.workspace_id', '=', ws))
      .leftJoin('companies', (join) => join.onRef('companies.id', '=', 'visitors.company_id').on('companies.workspace_id', '=', ws))
      .select([
        'visitors.id as visitor_id',
        'visitors.session_id',
        'visitors.session_started_at as started_at',
        'visitors.session_last_at as last_at',
        'visitors.last_url as current_url',
        'visitors.last_country as country',
        'sessions.page_views',
        'sessions.source',
        'visitors.identity_id',
        'identities.name as person_name',
        'identities.email as person_email',
        'visitors.company_id',
        'companies.name as company_name',
      ])
      .where('visitors.session_last_at', '>=', since)
      .orderBy('visitors.session_last_at', 'desc')
      .orderBy('visitors.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, page_views: Number(row.page_views ?? 0) }));
  }

  /** visitors whose latest event is at or after `since` */
  async activeVisitors(since: string): Promise<number> {
    const row = await this.scope
      .selectFrom('visitors')
      .select((eb) => eb.fn.countAll().as('total'))
      .where('session_last_at', '>=', since)
      .executeTakeFirstOrThrow();
    return this.codec.count(row.total);
  }
}
