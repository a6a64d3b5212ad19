/**
 * The Live page of a workspace (CONTRACT C9.2): the visits of the last 30
 * minutes, newest first, each with who (the person, else an anonymous
 * visitor), the company, the country, the current page, the pages viewed and
 * the source; and the visitors active in the last 5 minutes (the overview's
 * figure).
 */
import type { WorkspaceStore } from '../../repositories/index.js';

export const LIVE_WINDOW_MS = 30 * 60_000;
export const ACTIVE_WINDOW_MS = 5 * 60_000;
/** the most visits the page lists */
export const LIVE_VISITS = 100;

export interface LiveVisit {
  visitor_id: string;
  session_id: string;
  started_at: string;
  last_at: string;
  person: { id: string; name: string | null; email: string | null } | null;
  company: { id: string; name: string } | null;
  country: string | null;
  current_page: string | null;
  pages: number;
  source: string | null;
}

export interface LiveSnapshot {
  active_visitors: number;
  visits: LiveVisit[];
}

export class LiveService {
  constructor(private readonly store: WorkspaceStore) {}

  async snapshot(at: number = Date.now()): Promise<LiveSnapshot> {
    const repo = this.store.repos.live;
    const [rows, active] = await Promise.all([
      repo.visits(new Date(at - LIVE_WINDOW_MS).toISOString(), LIVE_VISITS),
      repo.activeVisitors(new Date(at - ACTIVE_WINDOW_MS).toISOString()),
    ]);
    return {
      active_visitors: active,
      visits: rows.map((row) => ({
        visitor_id: row.visitor_id,
        session_id: row.session_id,
        started_at: row.started_at,
        last_at: row.last_at,
        person: row.identity_id === null ? null : { id: row.identity_id, name: row.person_name, email: row.person_email },
        company: row.company_id === null || row.company_name === null ? null : { id: row.company_id, name: row.company_name },
        country: row.country,
        current_page: row.current_url,
        pages: row.page_views,
        source: row.source,
      })),
    };
  }

  /** visitors whose latest event is within the last 5 minutes */
  activeVisitors(at: number = Date.now()): Promise<number> {
    return this.store.repos.live.activeVisitors(new Date(at - ACTIVE_WINDOW_MS).toISOString());
  }
}
